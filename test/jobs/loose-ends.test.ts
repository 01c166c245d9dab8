/**
 * The engine leaves no loose ends: stopping a watch at any moment raises no unhandled rejection,
 * and a listener hears each change of a job once (not the same record two or three times).
 */
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement, html as litHtml } from 'lit';
import { JobController, JobPoller, JobStore, MediaClient, type JobRecord } from '../../src/index.js';
import { advance, until } from '../fixtures/browser.js';

// /mediakit, not /mk-jobs: job-poller.test.ts reads that stack's balance and must see only its own charges.
const endpoint = '/mediakit';
const fast = { video: { firstMs: 30, maxMs: 30, factor: 1 }, model: { firstMs: 30, maxMs: 30, factor: 1 } };

/** A store that lets a test act on each read (a read is where the poller waits between polls). */
class HookedStore extends JobStore {
  onGet: (() => void) | undefined;
  override async get(scope: string, id: string): Promise<JobRecord | undefined> {
    const r = await super.get(scope, id);
    this.onGet?.();
    return r;
  }
}

const unhandled: unknown[] = [];
const record = (e: PromiseRejectionEvent) => {
  unhandled.push(e.reason);
  e.preventDefault(); // reported by the assertions below, not as an error outside a test
};
before(() => window.addEventListener('unhandledrejection', record));
after(() => window.removeEventListener('unhandledrejection', record));
beforeEach(() => void unhandled.splice(0));

const settleTasks = () => new Promise((r) => setTimeout(r, 200));
const fingerprint = (r: JobRecord) => JSON.stringify({ ...r, updatedAt: 0 });

describe('JobPoller: no unhandled rejection', () => {
  it('stopping a watch while the poller reads its store between polls rejects nothing unhandled', async () => {
    const id = crypto.randomUUID();
    const store = new HookedStore({ database: `test-loose-${id}` });
    const poller = new JobPoller(new MediaClient({ endpoint }), { store, cadence: fast, channel: `test-${id}` });
    let polls = 0;
    const get = poller.client.getModelJob.bind(poller.client);
    poller.client.getModelJob = (...a) => get(...a).finally(() => polls++);
    const job = await poller.create('model', { mode: 'text', prompt: 'a felt owl', quality: 'high' });
    let stop: (() => void) | undefined;
    // The abort lands exactly while the loop awaits the store after a poll, before its next wait.
    store.onGet = () => {
      if (polls > 0 && stop) {
        stop();
        stop = undefined;
      }
    };
    stop = poller.watch(job.id, () => undefined);
    await until(() => stop === undefined, 5_000, 'the watch to be stopped mid-loop');
    await settleTasks();
    poller.dispose();
    expect(unhandled.map(String)).to.deep.equal([]);
  });

  it('a JobController whose element leaves mid-job rejects nothing unhandled (20 times, at varied moments)', async () => {
    const client = new MediaClient({ endpoint });
    const id = crypto.randomUUID();
    const poller = new JobPoller(client, { store: new JobStore({ database: `test-loose-${id}` }), cadence: fast, channel: `test-${id}` });
    class LooseProbe extends LitElement {
      readonly job = new JobController(this, { kind: 'model', client: () => client, poller: () => poller });
      override render() {
        return litHtml`${this.job.record?.status ?? 'idle'}`;
      }
    }
    if (!customElements.get('loose-probe')) customElements.define('loose-probe', LooseProbe);
    const el = await fixture<LooseProbe>(html`<loose-probe></loose-probe>`);
    const created = await el.job.start({ mode: 'text', prompt: 'a wax candle', quality: 'high' });
    const parent = el.parentElement!;
    for (let i = 0; i < 20; i++) {
      el.remove();
      await new Promise((r) => setTimeout(r, (i * 7) % 45));
      parent.append(el);
      await new Promise((r) => setTimeout(r, (i * 11) % 40));
    }
    el.remove();
    await settleTasks();
    poller.dispose();
    expect(created.handle).to.be.a('string');
    expect(unhandled.map(String)).to.deep.equal([]);
  });
});

describe('JobPoller: a listener hears each change once', () => {
  it('watch calls its listener once per distinct record, from the first call to the end', async () => {
    const id = crypto.randomUUID();
    const poller = new JobPoller(new MediaClient({ endpoint }), { store: new JobStore({ database: `test-once-${id}` }), cadence: fast, channel: `test-${id}` });
    const job = await poller.create('model', { mode: 'text', prompt: 'a cork boat', quality: 'fast' });
    const heard: JobRecord[] = [];
    poller.watch(job.id, (r) => heard.push(r));
    await until(async () => {
      if (heard.at(-1)?.status === 'succeeded') return true;
      await advance('mediakit', 3_000);
      return false;
    }, 20_000, 'the job to succeed');
    await new Promise((r) => setTimeout(r, 300)); // polls that find nothing new must not call again
    poller.dispose();
    expect(heard.length).to.be.greaterThan(1);
    for (let i = 1; i < heard.length; i++) expect(fingerprint(heard[i]!), `call ${i + 1} repeats call ${i}`).to.not.equal(fingerprint(heard[i - 1]!));
    expect(heard.filter((r) => r.status === 'succeeded')).to.have.length(1);
  });

  it('two listeners of one job each hear the current record once when they start', async () => {
    const id = crypto.randomUUID();
    const poller = new JobPoller(new MediaClient({ endpoint }), { store: new JobStore({ database: `test-once-${id}` }), cadence: { model: { firstMs: 60_000, maxMs: 60_000, factor: 1 } }, channel: `test-${id}` });
    const job = await poller.create('model', { mode: 'text', prompt: 'a tin drum', quality: 'high' });
    const a: JobRecord[] = [];
    const b: JobRecord[] = [];
    poller.watch(job.id, (r) => a.push(r));
    await new Promise((r) => setTimeout(r, 300)); // the first poll lands; the next is a minute away
    poller.watch(job.id, (r) => b.push(r));
    await new Promise((r) => setTimeout(r, 300));
    poller.dispose();
    expect(a.map(fingerprint), 'first listener').to.deep.equal([...new Set(a.map(fingerprint))]);
    expect(b, 'second listener').to.have.length(1);
  });
});
