import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import '../src/viewers/splat-viewer/define.js';
import { ballZip, blobUrl } from '../test/fixtures/splats.js';
import { slowly } from './sandbox.js';

interface Args {
  src: string;
  autoRotate: boolean;
  up: '+y' | '-y' | '+z' | '-z';
}

const meta: Meta<Args> = {
  title: 'Viewers/splat-viewer',
  component: 'splat-viewer',
  args: { src: 'assets/scene.zip', autoRotate: true, up: '-y' },
  argTypes: { up: { control: 'inline-radio', options: ['-y', '+y', '+z', '-z'] } },
  render: ({ src, autoRotate, up }) =>
    html`<splat-viewer .src=${src} .up=${up} ?auto-rotate=${autoRotate} style="--mk-viewer-height: 420px"></splat-viewer>`,
};
export default meta;

type Story = StoryObj<Args>;

/**
 * The scene the sandbox made from the demo's walkthrough video (stories/assets/scene.zip, 60 KB:
 * 5 840 splats in a standard 3DGS PLY inside a zip, made by stories/assets/make.ts with the sandbox's
 * own artifact makers), as a `<video-to-3d-uploader>` job hands it over.
 */
export const Loaded: Story = {};
/** A generated standard PLY inside a zip, like a video job's archive. */
export const FromZip: Story = { args: { src: blobUrl(ballZip(5000, 0.05)) } };
/** The poster and the progress bar while the file arrives (the playground sends it over 40 s). */
export const Loading: Story = {
  render: () => html`<splat-viewer src=${slowly('assets/scene.zip', 40)} style="--mk-viewer-height: 420px">
    <div slot="poster" style="display:grid;place-items:center;height:100%;font:14px system-ui">Loading the scene…</div>
  </splat-viewer>`,
};
/** A file that is not a scene (a GLB model): the viewer says so. */
export const Failed: Story = { args: { src: 'assets/model.glb' } };
/** No src yet: the frame and the "No scene yet" hint. */
export const Empty: Story = { render: () => html`<splat-viewer style="--mk-viewer-height: 420px"></splat-viewer>` };
