// The viewers on their own: a model generated through the proxy (or a local .glb), and a splat
// scene (a generated sample, or a local file).
import '../src/define.js';
import { JobPoller, MediaClient, isTerminal, type ModelJob } from '../src/index.js';
// The sample scene is the test fixture's generated ball (dev tooling, never shipped).
import { ballPly, blobUrl } from '../test/fixtures/splats.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const glb = $<HTMLElementTagNameMap['glb-viewer']>('glb-viewer');
const splat = $<HTMLElementTagNameMap['splat-viewer']>('splat-viewer');

glb.addEventListener('mk-viewer-loaded', (e) => ($('stats').textContent = JSON.stringify(e.detail.stats, null, 2)));
glb.addEventListener('mk-viewer-failed', (e) => ($('glb-status').textContent = e.detail.message));
splat.addEventListener(
  'mk-viewer-loaded',
  (e) => ($('splat-status').textContent = `${new Intl.NumberFormat().format(e.detail.splats ?? 0)} splats`),
);
splat.addEventListener('mk-viewer-failed', (e) => ($('splat-status').textContent = e.detail.message));
$<HTMLInputElement>('rotate').addEventListener(
  'change',
  (e) => (glb.autoRotate = (e.target as HTMLInputElement).checked),
);

$('generate').addEventListener('click', async () => {
  const poller = JobPoller.for(MediaClient.for('/mediakit'));
  try {
    const record = await poller.create('model', { mode: 'text', prompt: 'a small clay vase', quality: 'fast' });
    const stop = poller.watch(record.id, (r) => {
      $('glb-status').textContent = `${r.status} ${r.progress}%`;
      const url = (r.job as ModelJob | undefined)?.output?.model_url;
      if (isTerminal(r.status)) queueMicrotask(stop);
      if (url) glb.src = url;
    });
  } catch (err) {
    $('glb-status').textContent = err instanceof Error ? err.message : String(err);
  }
});
$<HTMLInputElement>('glb-file').addEventListener('change', (e) => {
  const file = (e.target as HTMLInputElement).files?.[0];
  if (file) glb.src = URL.createObjectURL(file);
});

$('sample').addEventListener('click', () => (splat.src = blobUrl(ballPly(20_000, 0.03))));
$<HTMLInputElement>('splat-file').addEventListener('change', (e) => {
  const file = (e.target as HTMLInputElement).files?.[0];
  if (file) splat.src = URL.createObjectURL(file);
});
