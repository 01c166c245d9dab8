// A page of its own (an iframe) with one <video-to-3d-uploader> on /mk-video, for the reload and
// two-tab tests: the frame's removal is a real page going away (its locks released, its upload cut).
import '../../src/components/video-to-3d-uploader/define.js';
import { MediaClient } from '../../src/client/media-client.js';
import { JobPoller } from '../../src/jobs/job-poller.js';

const client = MediaClient.for('/mk-video');
const state = { polls: 0, statuses: [] as string[], el: undefined as HTMLElement | undefined, list: () => JobPoller.for(client).list() };
const get = client.getVideoJob.bind(client);
client.getVideoJob = (...a) => (state.polls++, get(...a));
const el = document.createElement('video-to-3d-uploader');
el.setAttribute('endpoint', '/mk-video');
document.body.append(el);
state.el = el;
setInterval(() => {
  if (state.statuses.at(-1) !== el.status) state.statuses.push(el.status);
}, 10);
Object.assign(window, { page: state });
