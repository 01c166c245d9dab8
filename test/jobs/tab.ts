// One "tab" for the tab-takeover test: a page of its own (an iframe) with its own client and
// poller, watching the job named in its hash (#db|channel|id) and counting its own polls.
import { JobPoller, JobStore, MediaClient, type JobRecord } from '../../src/index.js';

const [db, channel, id] = decodeURIComponent(location.hash.slice(1)).split('|') as [string, string, string];
const client = new MediaClient({ endpoint: '/mk-jobs' });
const poller = new JobPoller(client, {
  store: new JobStore({ database: db }),
  channel,
  cadence: { video: { firstMs: 100, maxMs: 200, factor: 1.5 }, model: { firstMs: 100, maxMs: 100, factor: 1 } },
});
const state = { polls: 0, last: undefined as JobRecord | undefined };
const get = client.getVideoJob.bind(client);
client.getVideoJob = (...a) => (state.polls++, get(...a));
poller.watch(id, (r) => (state.last = r));
Object.assign(window, { tab: state });
