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
    src: 'assets/model.glb',
    alt: 'A relief model of a blue teapot',
    autoRotate: false,
    height: '420px',
    up: '+y',
  },
  argTypes: { up: { control: 'inline-radio', options: ['+y', '-y', '+z', '-z'] } },
  render: ({ src, alt, autoRotate, height, up }) =>
    html`<glb-viewer .src=${src} .alt=${alt} .up=${up} ?auto-rotate=${autoRotate} style=${`--mk-viewer-height: ${height}`}
      @mk-viewer-loaded=${(e: CustomEvent) => console.log('mk-viewer-loaded', e.detail)}></glb-viewer>`,
};
export default meta;

type Story = StoryObj<Args>;

/**
 * A model the sandbox made for a text prompt (stories/assets/model.glb, 105 KB, made by
 * stories/assets/make.ts with the sandbox's own artifact makers): what a `<model-generator>` job hands over.
 */
export const Loaded: Story = {};
/** The same model on the turntable (`auto-rotate`). */
export const AutoRotate: Story = { args: { autoRotate: true } };
/** Until the first frame the poster shows, with a progress bar along the bottom (the playground sends the file over 40 s). */
export const Loading: Story = {
  render: () => html`<glb-viewer src=${slowly('assets/model.glb', 40)} style="--mk-viewer-height: 420px">
    <div slot="poster" style="display:grid;place-items:center;height:100%;font:14px system-ui">Loading the model…</div>
  </glb-viewer>`,
};
/** A file that is not a model (the assets' README): the viewer says so. */
export const Failed: Story = { args: { src: 'assets/README.md', alt: 'Not a model' } };
/** No src yet: the frame and the "No model yet" hint. */
export const Empty: Story = { render: () => html`<glb-viewer style="--mk-viewer-height: 420px"></glb-viewer>` };
