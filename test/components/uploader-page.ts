// A page of its own (an iframe) with one <video-to-3d-uploader> on /mk-video, for the reload and
// two-tab tests: the frame's removal is a real page going away (its locks released, its upload cut).
import '../../src/components/video-to-3d-uploader/define.js';
import { MediaClient } from '../../src/client/media-client.js';
import { JobPoller } from '../../src/jobs/job-poller.js';

const client = MediaClient.for('/mk-video');
// `resend`: the progress bar as seen while resending, one entry per change (sampled every 10 ms).
type Bar = { valuenow: number | null; text: string; handle: string | null };
const state = {
  polls: 0,
  statuses: [] as string[],
  resend: [] as Bar[],
  el: undefined as HTMLElement | undefined,
  list: () => JobPoller.for(client).list(),
};
const get = client.getVideoJob.bind(client);
client.getVideoJob = (...a) => (state.polls++, get(...a));
const el = document.createElement('video-to-3d-uploader');
el.setAttribute('endpoint', '/mk-video');
document.body.append(el);
state.el = el;
setInterval(() => {
  if (state.statuses.at(-1) !== el.status) state.statuses.push(el.status);
  if (el.status === 'resending') {
    const bar = el.shadowRoot?.querySelector('[part~="progress"]');
    const now = bar?.getAttribute('aria-valuenow');
    const seen: Bar = {
      valuenow: now == null ? null : Number(now),
      text: el.shadowRoot?.querySelector('.nums')?.textContent ?? '',
      handle: el.job?.handle ?? null,
    };
    const last = state.resend.at(-1);
    if (!last || last.valuenow !== seen.valuenow || last.text !== seen.text) state.resend.push(seen);
  }
}, 10);
Object.assign(window, { page: state });
