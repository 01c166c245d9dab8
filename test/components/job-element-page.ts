// A page of its own (an iframe) with one job element, for the reload and two-tab tests
// (shared/job-element-contract.ts): `?tag=` names the element, every other query parameter is one
// of its attributes (`endpoint` among them). The frame's removal is a real page going away (its
// locks released, its polling stopped, its upload cut).
import { MediaClient } from '../../src/client/media-client.js';
import { JobPoller } from '../../src/jobs/job-poller.js';

const params = new URLSearchParams(location.search);
const tag = params.get('tag')!;
await (tag === 'model-generator'
  ? import('../../src/components/model-generator/define.js')
  : import('../../src/components/video-to-3d-uploader/define.js'));
const client = MediaClient.for(params.get('endpoint')!);
// `resend`: the progress bar as seen while resending, one entry per change (sampled every 10 ms).
type Bar = { valuenow: number | null; text: string; handle: string | null };
type JobElement = HTMLElement & { status: string; job?: { handle?: string } };
const state = {
  /** The job's polls this page made. */
  polls: 0,
  statuses: [] as string[],
  resend: [] as Bar[],
  succeeded: [] as { whileAway: boolean; id: string }[],
  el: undefined as JobElement | undefined,
  list: () => JobPoller.for(client).list(),
};
const getVideo = client.getVideoJob.bind(client);
client.getVideoJob = (...a) => (state.polls++, getVideo(...a));
const getModel = client.getModelJob.bind(client);
client.getModelJob = (...a) => (state.polls++, getModel(...a));
const el = document.createElement(tag) as JobElement;
for (const [name, value] of params) if (name !== 'tag') el.setAttribute(name, value);
el.addEventListener('mk-succeeded', (e) =>
  state.succeeded.push({ whileAway: e.detail.whileAway ?? false, id: e.detail.id ?? '' }),
);
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
