import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import '../src/components/credit-badge/define.js';
import { MediaClient } from '../src/client/media-client.js';
import { sampleProduct } from '../demo/samples.js';
import { ENDPOINT, ERROR_ENDPOINT, POOR_ENDPOINT } from './sandbox.js';
import { LANG_CONTROL } from './languages.js';

interface Args {
  endpoint: string;
  lang: string;
  theme: '' | 'light' | 'dark';
  format: 'long' | 'compact';
  low: number;
}

const meta: Meta<Args> = {
  title: 'Elements/credit-badge',
  component: 'credit-badge',
  args: { endpoint: ENDPOINT, lang: '', theme: '', format: 'long', low: 0 },
  argTypes: {
    theme: { control: 'inline-radio', options: ['', 'light', 'dark'] },
    lang: LANG_CONTROL,
    format: { control: 'inline-radio', options: ['long', 'compact'] },
  },
  render: (
    a,
  ) => html`<credit-badge endpoint=${a.endpoint} lang=${ifDefined(a.lang || undefined)} theme=${ifDefined(a.theme || undefined)} format=${a.format} low=${a.low}></credit-badge>
    <p><button @click=${async () => MediaClient.for(a.endpoint).imageTool({ image: await sampleProduct(), size: 'preview' })}>Spend 1 credit on this page</button></p>`,
};
export default meta;

type Story = StoryObj<Args>;

/** The session's budget in words; the button spends a credit and the badge follows. */
export const Long: Story = {};

/** Compact numbers through Intl (the words stay for screen readers). */
export const Compact: Story = { args: { format: 'compact' } };

/** Below the `low` threshold: the state, the marker, the top-up slot, said once. */
export const Low: Story = {
  args: { endpoint: POOR_ENDPOINT, low: 10 },
  render: (a) =>
    html`<credit-badge endpoint=${a.endpoint} low=${a.low}><a slot="top-up" href="#top-up">Buy credits</a></credit-badge>`,
};

/** Before the first answer (a session that never arrives). */
export const Loading: Story = {
  render: () => html`<credit-badge .session=${() => new Promise<string>(() => undefined)}></credit-badge>`,
};

/** The proxy cannot be reached at all: offline, the last number (none yet). */
export const Offline: Story = { args: { endpoint: 'http://127.0.0.1:9/mediakit' } };

/** The proxy answers with an error (400, from an endpoint that refuses every call): a retry. */
export const Failed: Story = { args: { endpoint: ERROR_ENDPOINT } };

/** German. */
export const German: Story = { args: { lang: 'de' } };

/** Dark. */
export const Dark: Story = {
  args: { theme: 'dark' },
  render: (a) =>
    html`<div style="background:#0d1117;padding:16px"><credit-badge endpoint=${a.endpoint} theme="dark"></credit-badge></div>`,
};
