// The page of test/sandbox/uploader-reload.test.ts: it defines the elements and mounts one
// <video-to-3d-uploader> as soon as it runs (no waiting for anything), as a site's page script
// would, and records what the element shows for the test to read.
import '../../src/components/video-to-3d-uploader/define.js';
import type { VideoTo3dUploader } from '../../src/components/video-to-3d-uploader/video-to-3d-uploader.js';
import { MediaClient } from '../../src/client/media-client.js';
import { JobPoller } from '../../src/jobs/job-poller.js';

const ENDPOINT = '/mediakit';
const query = new URLSearchParams(location.search);
const mountDelay = Number(query.get('mountAfter') ?? 0);

const state = {
  el: undefined as VideoTo3dUploader | undefined,
  statuses: [] as string[],
  /** The largest `loaded` of the element's own upload or resend seen on this page. */
  loaded: 0,
  total: 0,
  /** Errors the element shows (part="error"), with their text and buttons. */
  errors: [] as { reason: string | undefined; text: string; buttons: string[] }[],
  list: () => JobPoller.for(MediaClient.for(ENDPOINT)).list(),
  /** Forgets every job of this user here (between runs). */
  async forgetAll() {
    const poller = JobPoller.for(MediaClient.for(ENDPOINT));
    for (const r of await poller.list()) await poller.forget(r.id);
  },
  /** A video of `mb` megabytes (the fixture, padded with a `free` box), chosen and confirmed. */
  async choose(mb: number) {
    const base = await (await fetch('/video.mp4')).blob();
    const pad = mb * 1024 * 1024 - base.size - 8;
    const header = new Uint8Array(8);
    new DataView(header.buffer).setUint32(0, pad + 8);
    header.set([0x66, 0x72, 0x65, 0x65], 4);
    const noise = new Uint8Array(pad);
    for (let i = 0; i < pad; i += 65536) crypto.getRandomValues(noise.subarray(i, Math.min(pad, i + 65536)));
    const el = state.el!;
    el.selectFile(new File([base, header, noise], 'walk.mp4', { type: 'video/mp4' }));
    while (el.status !== 'ready') await new Promise((r) => setTimeout(r, 20));
    void el.start();
  },
};

function mount(): void {
  const el = document.createElement('video-to-3d-uploader') as VideoTo3dUploader;
  el.setAttribute('endpoint', ENDPOINT);
  if (query.get('lang')) el.setAttribute('lang', query.get('lang')!);
  el.addEventListener('mk-upload-progressed', (e) => {
    state.loaded = Math.max(state.loaded, e.detail.loaded);
    state.total = e.detail.total;
  });
  document.body.append(el);
  state.el = el;
  setInterval(() => {
    if (state.statuses.at(-1) !== el.status) state.statuses.push(el.status);
    const error = el.shadowRoot?.querySelector<HTMLElement>('[part~="error"]');
    const text = error?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
    if (error && state.errors.at(-1)?.text !== text) {
      const buttons = [...error.querySelectorAll('button')].map((b) => b.textContent?.trim() ?? '');
      state.errors.push({ reason: error.dataset['reason'], text, buttons });
    }
  }, 10);
}

if (mountDelay > 0) setTimeout(mount, mountDelay);
else mount();
Object.assign(window, { page: state });
