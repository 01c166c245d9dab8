import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import '../src/viewers/glb-viewer/define.js';
import { slowly } from './sandbox.js';

interface Args {
  src: string;
  alt: string;
  autoRotate: boolean;
  height: string;
  up: '+y' | '-y' | '+z' | '-z';
}

const meta: Meta<Args> = {
  title: 'Viewers/glb-viewer',
  component: 'glb-viewer',
  args: {
    src: 'assets/DamagedHelmet.glb',
    alt: 'A damaged sci-fi helmet',
    autoRotate: false,
    height: '420px',
    up: '+y',
  },
  argTypes: { up: { control: 'inline-radio', options: ['+y', '-y', '+z', '-z'] } },
  render: ({ src, alt, autoRotate, height, up }) =>
    html`<glb-viewer .src=${src} .alt=${alt} .up=${up} ?auto-rotate=${autoRotate} style=${`--mk-viewer-height: ${height}`}
      @mk-viewer-load=${(e: CustomEvent) => console.log('mk-viewer-load', e.detail)}></glb-viewer>`,
};
export default meta;

type Story = StoryObj<Args>;

export const Loaded: Story = {};
export const Duck: Story = { args: { src: 'assets/Duck.glb', alt: 'A rubber duck', autoRotate: true } };
/** Until the first frame the poster shows, with a progress bar along the bottom (the playground sends the file over 40 s). */
export const Loading: Story = {
  render: () => html`<glb-viewer src=${slowly('assets/DamagedHelmet.glb', 40)} style="--mk-viewer-height: 420px">
    <div slot="poster" style="display:grid;place-items:center;height:100%;font:14px system-ui">Loading the helmet…</div>
  </glb-viewer>`,
};
export const Error: Story = { args: { src: 'assets/README.md', alt: 'Not a model' } };
/** No src yet: the frame and the "No model yet" hint. */
export const Empty: Story = { render: () => html`<glb-viewer style="--mk-viewer-height: 420px"></glb-viewer>` };
