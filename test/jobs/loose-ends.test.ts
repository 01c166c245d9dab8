/**
 * The engine leaves no loose ends: stopping a watch at any moment raises no unhandled rejection,
 * and a listener hears each change of a job once (not the same record two or three times).
 */
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement, html as litHtml } from 'lit';
import { JobController, JobPoller, JobStore, MediaClient, type JobRecord } from '../../src/index.js';
import type { UploadProgress } from '../../src/events/upload-progressed.js';
import { advance, padded, until, video } from '../fixtures/browser.js';

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
    const poller = new JobPoller(client, {
      store: new JobStore({ database: `test-loose-${id}` }),
      cadence: fast,
      channel: `test-${id}`,
    });
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
    const poller = new JobPoller(new MediaClient({ endpoint }), {
      store: new JobStore({ database: `test-once-${id}` }),
      cadence: fast,
      channel: `test-${id}`,
    });
    const job = await poller.create('model', { mode: 'text', prompt: 'a cork boat', quality: 'fast' });
    const heard: JobRecord[] = [];
    poller.watch(job.id, (r) => heard.push(r));
    await until(
      async () => {
        if (heard.at(-1)?.status === 'succeeded') return true;
        await advance('mediakit', 3_000);
        return false;
      },
      20_000,
      'the job to succeed',
    );
    await new Promise((r) => setTimeout(r, 300)); // polls that find nothing new must not call again
    poller.dispose();
    expect(heard.length).to.be.greaterThan(1);
    for (let i = 1; i < heard.length; i++)
      expect(fingerprint(heard[i]!), `call ${i + 1} repeats call ${i}`).to.not.equal(fingerprint(heard[i - 1]!));
    expect(heard.filter((r) => r.status === 'succeeded')).to.have.length(1);
  });

  it('two listeners of one job each hear the current record once when they start', async () => {
    const id = crypto.randomUUID();
    const poller = new JobPoller(new MediaClient({ endpoint }), {
      store: new JobStore({ database: `test-once-${id}` }),
      cadence: { model: { firstMs: 60_000, maxMs: 60_000, factor: 1 } },
      channel: `test-${id}`,
    });
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

  it('a resend after a reload reports its bytes to onUploadProgress, not as records: watch hears only changes, the store is not written per event', async () => {
    const id = crypto.randomUUID();
    const client = new MediaClient({ endpoint });
    let writes = 0;
    class CountingStore extends JobStore {
      override async put(r: JobRecord): Promise<void> {
        writes++;
        return super.put(r);
      }
      override async patch(
        scope: string,
        key: string,
        change: (r: JobRecord) => JobRecord,
      ): Promise<JobRecord | undefined> {
        writes++;
        return super.patch(scope, key, change);
      }
    }
    const store = new CountingStore({ database: `test-once-${id}` });
    // What a page cut mid-upload leaves: the record still creating, with its video kept.
    const request = padded(await video(), 40 * 1024 * 1024);
    const key = crypto.randomUUID();
    const now = Date.now();
    await store.put({
      id: key,
      scope: await client.scope(),
      kind: 'video',
      idempotencyKey: key,
      summary: { name: 'big.mp4' },
      createdAt: now,
      updatedAt: now,
      status: 'creating',
      progress: 0,
      request,
    });
    writes = 0;
    const poller = new JobPoller(client, {
      store,
      cadence: { video: { firstMs: 60_000, maxMs: 60_000, factor: 1 } },
      channel: `test-${id}`,
    });
    const heard: JobRecord[] = [];
    const bytes: (UploadProgress | undefined)[] = [];
    poller.watch(key, (r) => heard.push(r));
    poller.onUploadProgress(key, (p) => bytes.push(p));
    await poller.resume();
    const created = await until(() => heard.find((r) => r.handle), 30_000, 'the job to be created');
    poller.dispose();
    const sent = bytes.filter((p): p is UploadProgress => p !== undefined);
    // How many progress events a 40 MB upload gives depends on the machine (two at least: the
    // first bytes and the end); the store is written a fixed few times whatever that number is.
    expect(sent.length, 'progress reports').to.be.at.least(2);
    expect(bytes, 'no "upload ended without a job"').to.have.length(sent.length);
    for (let i = 1; i < sent.length; i++) expect(sent[i]!.loaded).to.be.at.least(sent[i - 1]!.loaded);
    expect(sent.at(-1)!.loaded).to.equal(sent.at(-1)!.total);
    expect(sent.at(-1)!.total).to.be.greaterThan(request.size);
    // The records: creating (once), then the created job; never one per progress event.
    expect(heard[0]!.status).to.equal('creating');
    expect(
      heard.filter((r) => r.status === 'creating'),
      'creating heard once',
    ).to.have.length(1);
    expect(heard.indexOf(created), 'the created job right after').to.equal(1);
    expect(writes, 'store writes during the resend (never one per progress event)').to.be.at.most(2);
  });
});
