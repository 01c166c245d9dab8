import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { zipSync } from 'fflate';
import '../src/viewers/splat-viewer/define.js';
import { encodePly, type Splat } from '../src/sandbox/artifacts/ply.js';

/** A generated standard 3DGS scene: a ball of coloured splats. */
function ballScene(n: number, zip = false): string {
  const splats: Splat[] = [];
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < n; i++) {
    const y = 1 - (i / (n - 1)) * 2;
    const r = Math.sqrt(1 - y * y);
    const p: [number, number, number] = [Math.cos(golden * i) * r, y, Math.sin(golden * i) * r];
    splats.push({ position: p, color: [0.5 + p[0] / 2, 0.5 + p[1] / 2, 0.5 + p[2] / 2], opacity: 0.95, scale: [0.05, 0.05, 0.05], rotation: [1, 0, 0, 0] });
  }
  const ply = encodePly(splats);
  const bytes = zip ? zipSync({ 'scene.ply': ply }) : ply;
  return URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>]));
}

interface Args {
  src: string;
  autoRotate: boolean;
}

const meta: Meta<Args> = {
  title: 'Viewers/splat-viewer',
  component: 'splat-viewer',
  args: { src: '/assets/guitar.compressed.ply', autoRotate: true },
  render: ({ src, autoRotate }) => html`<splat-viewer .src=${src} ?auto-rotate=${autoRotate} style="--mk-viewer-height: 420px"></splat-viewer>`,
};
export default meta;

type Story = StoryObj<Args>;

/** A real compressed PLY (SuperSplat), 90 854 splats. */
export const Loaded: Story = {};
/** A generated standard PLY inside a zip, like a video job's archive. */
export const FromZip: Story = { args: { src: ballScene(5000, true) } };
export const Loading: Story = {
  render: () => html`<splat-viewer src="/assets/guitar.compressed.ply" style="--mk-viewer-height: 420px">
    <div slot="poster" style="display:grid;place-items:center;height:100%;font:14px system-ui">Loading the scene…</div>
  </splat-viewer>`,
};
export const Error: Story = { args: { src: '/assets/Box.glb' } };
