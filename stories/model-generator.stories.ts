import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import '../src/components/model-generator/define.js';
import type { ModelGenerator } from '../src/components/model-generator/model-generator.js';
import { MediaClient } from '../src/client/media-client.js';
import { oversizedPhoto, sampleViews } from '../demo/model-generator.samples.js';
import { advance, asField, ENDPOINT, fault, POOR_ENDPOINT, until } from './sandbox.js';
import { LANG_CONTROL } from './languages.js';

interface Args {
  endpoint: string;
  lang: string;
  theme: '' | 'light' | 'dark';
  quality: 'fast' | 'standard' | 'high';
  width: string;
}

/** Renders the element, then drives it through the playground into the story's phase. */
function drive(args: Args, steps?: (el: ModelGenerator) => Promise<void>, mode: 'photos' | 'prompt' = 'photos') {
  const el = document.createElement('model-generator');
  el.endpoint = args.endpoint;
  el.mode = mode;
  el.quality = args.quality;
  if (args.lang) el.lang = args.lang;
  if (args.theme) el.theme = args.theme;
  el.style.maxWidth = args.width;
  if (steps) void customElements.whenDefined('model-generator').then(() => steps(el));
  return el;
}

/** Moves the sandbox clock until the job has ended. */
async function finish(el: ModelGenerator): Promise<void> {
  await until(() => el.status !== 'sending');
  while (el.status === 'queued' || el.status === 'processing') {
    await advance(20_000);
    await new Promise((r) => setTimeout(r, 400));
  }
}

const photos = async (el: ModelGenerator) => {
  el.images = await sampleViews();
  await until(() => el.status === 'ready');
};
const prompt = async (el: ModelGenerator) => {
  el.prompt = 'a blue ceramic teapot with a curved spout';
  await el.updateComplete;
};

const meta: Meta<Args> = {
  title: 'Elements/model-generator',
  component: 'model-generator',
  args: { endpoint: ENDPOINT, lang: '', theme: '', quality: 'fast', width: '880px' },
  argTypes: {
    theme: { control: 'inline-radio', options: ['', 'light', 'dark'] },
    lang: LANG_CONTROL,
    quality: { control: 'inline-radio', options: ['fast', 'standard', 'high'] },
    width: { control: 'inline-radio', options: ['880px', '390px', '100%'] },
  },
  render: (args) => drive(args),
};
export default meta;

type Story = StoryObj<Args>;

/** Photo mode, nothing chosen: picker (and camera on phones), drop, paste, the API's advice, quality, cost. */
export const Idle: Story = {};

/** Prompt mode, nothing typed yet. */
export const PromptIdle: Story = { render: (args) => drive(args, undefined, 'prompt') };

/** Two views of one object, checked, with view labels and reorder / remove buttons. */
export const PhotosReady: Story = { render: (args) => drive(args, photos) };

/** A 13 MB photo: offered a downscale in the browser instead of a refusal. */
export const OversizedPhoto: Story = {
  render: (args) => drive(args, async (el) => void (el.images = [await oversizedPhoto()])),
};

/** A file that is not an image, refused before anything is sent. */
export const Refused: Story = {
  render: (args) =>
    drive(args, async (el) => void (el.images = [new File(['not a photo'], 'teapot.png', { type: 'image/png' })])),
};

/** A description near the limit: the counter turns bold and is announced politely. */
export const PromptNearLimit: Story = {
  render: (args) =>
    drive(
      args,
      async (el) => void (el.prompt = 'a weathered bronze statue of a sitting fox, '.repeat(7).slice(0, 292)),
      'prompt',
    ),
};

/** Prompt mode at work: progress, elapsed time and the reference image the API rendered first. */
export const Processing: Story = {
  tags: ['sandbox-state'],
  render: (args) =>
    drive(
      args,
      async (el) => {
        await prompt(el);
        await fault('slow', { ms: 60_000 }); // a minute more: time to look
        await el.start();
        await until(() => el.status !== 'sending');
        // Small steps: queued for the first tenth of its timeline; the reference image shows from then on.
        while (el.status === 'queued') {
          await advance(5_000);
          await new Promise((r) => setTimeout(r, 400));
        }
      },
      'prompt',
    ),
};

/** The model in <glb-viewer> (loaded only now), the turntable, the seed, the statistics, download, same again and variation. */
export const Succeeded: Story = {
  tags: ['sandbox-state'],
  render: (args) =>
    drive(args, async (el) => {
      await photos(el);
      await el.start();
      await finish(el);
    }),
};

/** The job failed upstream (sandbox fault `job_fail`): the service's message and the refund. */
export const Failed: Story = {
  tags: ['sandbox-state'],
  render: (args) =>
    drive(
      args,
      async (el) => {
        await prompt(el);
        await fault('job_fail', { count: 1 });
        await el.start();
        await finish(el);
      },
      'prompt',
    ),
};

/** The service is busy (sandbox fault `rate_limit`): a countdown, then it goes on by itself. */
export const RateLimited: Story = {
  tags: ['sandbox-state'],
  render: (args) =>
    drive(
      args,
      async (el) => {
        await prompt(el);
        await fault('rate_limit', { count: 1 });
        await el.start();
      },
      'prompt',
    ),
};

/** A session with 1 credit left (the playground's 5-credit endpoint, mediakit-poor, after two jobs): the cost line says so, the button is off. */
export const NotEnoughCredits: Story = {
  args: { endpoint: POOR_ENDPOINT },
  render: (args) =>
    drive(
      args,
      async (el) => {
        el.topUpHref = '#top-up';
        const client = MediaClient.for(POOR_ENDPOINT);
        while ((client.credits.remaining ?? (await client.budget()).remaining) >= 2)
          await client.createModelJob({ mode: 'text', prompt: 'a cup', quality: 'fast' });
        await prompt(el);
      },
      'prompt',
    ),
};

/** German, by the closest [lang]. */
export const German: Story = { args: { lang: 'de' }, render: (args) => drive(args, photos) };

/** Dark theme on a phone-width column. */
export const DarkPhone: Story = {
  args: { theme: 'dark', width: '390px' },
  render: (args) => html`<div style="background:#0d1117;color:#e6edf3;padding:16px">${drive(args, photos)}</div>`,
};

/** Theming through the public custom properties. */
export const Themed: Story = {
  render: (args) => {
    const el = drive(args);
    el.style.cssText += ';--mk-accent:#7c3aed;--mk-radius:4px;--mk-surface-2:#f5f3ff;--mk-border:#ddd6fe';
    return el;
  },
};

/** Field mode (`appearance="field"`), as a CMS edit form shows it: Create opens the whole tool in a dialog. */
export const Field: Story = { render: (args, context) => asField(meta.render!(args, context)) };

/** Field mode with a result made and kept: its picture, what made it, Open / Replace / Remove. */
export const FieldWithResult: Story = {
  tags: ['sandbox-state'],
  render: (args, context) => asField(Succeeded.render!(args, context)),
};
