/**
 * The job engine in real Chromium: real IndexedDB, Web Locks and BroadcastChannel, real HTTP
 * through the proxy (/mk-jobs, used only by this file, so the sandbox ledger behind it shows
 * exactly these charges) to the sandbox.
 */
import { expect } from '@open-wc/testing';
import { JobPoller, JobStore, MediaClient, type JobRecord } from '../../src/index.js';
import { advance, charges, fault, photo, until, video } from '../fixtures/browser.js';

const endpoint = '/mk-jobs';
const fast = { video: { firstMs: 100, maxMs: 300, factor: 1.5 }, model: { firstMs: 100, maxMs: 100, factor: 1 } };
const pollers: JobPoller[] = [];

/** A "tab": its own client and poller over one IndexedDB database and one channel family. */
function tab(db: string, channel: string, options: { linkRefreshMarginMs?: number } = {}): JobPoller {
  const poller = new JobPoller(new MediaClient({ endpoint }), {
    store: new JobStore({ database: db }),
    cadence: fast,
    channel,
    ...options,
  });
  pollers.push(poller);
  return poller;
}

function fresh(): { db: string; channel: string } {
  const id = crypto.randomUUID();
  return { db: `test-jobs-${id}`, channel: `test-${id}` };
}

/** Advances the sandbox clock until `poller`'s record of `id` satisfies `done`. */
async function driveUntil(
  poller: JobPoller,
  id: string,
  done: (r: JobRecord) => boolean,
  stepMs = 60_000,
): Promise<JobRecord> {
  return until(
    async () => {
      const r = await poller.get(id);
      if (r && done(r)) return r;
      await advance('mk-jobs', stepMs);
      return undefined;
    },
    20_000,
    `job ${id}`,
  );
}

/** Counts a poller's status requests. */
function countPolls(poller: JobPoller): () => number {
  let n = 0;
  const c = poller.client;
  const video = c.getVideoJob.bind(c);
  const model = c.getModelJob.bind(c);
  c.getVideoJob = (...a) => (n++, video(...a));
  c.getModelJob = (...a) => (n++, model(...a));
  return () => n;
}

afterEach(() => {
  for (const p of pollers.splice(0)) p.dispose();
});

describe('JobPoller: creating and watching', () => {
  it('records a 3D job before sending, gets its handle, and polls it to the end', async () => {
    const { db, channel } = fresh();
    const poller = tab(db, channel);
    const record = await poller.create('model', { mode: 'text', prompt: 'a red mug', quality: 'fast' });
    expect(record.handle).to.be.a('string');
    expect(record.request, 'the request is dropped once the job exists').to.equal(undefined);
    expect(record.summary).to.deep.include({ mode: 'text', prompt: 'a red mug' });
    const seen: string[] = [];
    poller.watch(record.id, (r) => seen.push(r.status));
    const done = await driveUntil(poller, record.id, (r) => r.status === 'succeeded', 20_000);
    expect(done.progress).to.equal(100);
    expect(done.finishedAt).to.be.a('number');
    expect(done.linksExpireAt).to.be.greaterThan(Date.now());
    expect((done.job as { output: { model_url: string } }).output.model_url).to.contain(`${endpoint}/files/`);
    await until(() => seen.includes('succeeded'), 5_000, 'listener saw success');
    // Nothing was stored under another endpoint's or user's scope.
    const other = new JobPoller(new MediaClient({ endpoint: '/mediakit' }), {
      store: new JobStore({ database: db }),
      channel,
    });
    pollers.push(other);
    expect(await other.list()).to.deep.equal([]);
    expect((await poller.list()).map((r) => r.id)).to.deep.equal([record.id]);
  });

  it('leaves no record for a refused request and charges nothing', async () => {
    const { db, channel } = fresh();
    const poller = tab(db, channel);
    const before = await charges('mk-jobs');
    const err = await poller.create('model', { mode: 'text', prompt: 'no' }).catch((e: Error) => e);
    expect((err as Error).message).to.contain('3 to 300');
    expect(await poller.list()).to.deep.equal([]);
    await fault('mk-jobs', 'create_error');
    const upstream = await poller.create('model', { mode: 'text', prompt: 'a lamp' }).catch((e: Error) => e);
    expect((upstream as unknown as { status: number }).status).to.equal(500);
    expect(await poller.list()).to.deep.equal([]);
    expect(await charges('mk-jobs')).to.equal(before);
  });

  it('reports a failed job with its message, and its credits come back', async () => {
    const { db, channel } = fresh();
    const poller = tab(db, channel);
    const client = poller.client;
    const budget = (await client.budget()).remaining;
    await fault('mk-jobs', 'job_fail');
    const record = await poller.create('model', { mode: 'text', prompt: 'a vase', quality: 'fast' });
    poller.watch(record.id, () => undefined);
    const failed = await driveUntil(poller, record.id, (r) => r.status === 'failed', 20_000);
    expect(failed.error?.message).to.be.a('string').and.not.equal('');
    expect((await client.budget()).remaining).to.equal(budget);
  });

  it('marks a purged video result expired with a clear message', async () => {
    const { db, channel } = fresh();
    const poller = tab(db, channel);
    const record = await poller.create('video', await video({ seconds: 2 }));
    poller.watch(record.id, () => undefined);
    await driveUntil(poller, record.id, (r) => r.status === 'succeeded', 10 * 60_000);
    await fault('mk-jobs', 'expire');
    const expired = await poller.refresh(record.id);
    expect(expired!.status).to.equal('expired');
    // The code is what elements translate (jobErrorText); the API's sentence stays for developers.
    expect(expired!.error!.code).to.equal('expired');
    expect(expired!.error!.message).to.match(/new job/i);
  });

  it('polls a succeeded job again before its download links expire', async () => {
    const { db, channel } = fresh();
    // Links live 15 minutes; a margin of 14:59 makes the poller renew them right away.
    const poller = tab(db, channel, { linkRefreshMarginMs: 899_000 });
    const record = await poller.create('model', { mode: 'text', prompt: 'a brass key', quality: 'fast' });
    const urls = new Set<string>();
    poller.watch(record.id, (r) => {
      const url = (r.job as { output?: { model_url: string } | null } | undefined)?.output?.model_url;
      if (url) urls.add(url);
    });
    await driveUntil(poller, record.id, (r) => r.status === 'succeeded', 20_000);
    await until(() => urls.size >= 2, 10_000, 'a fresh link');
  });
});

describe('MediaClient where the proxy shares the account balance', () => {
  it('reads the balance and follows it through X-Credits-Remaining', async () => {
    const client = MediaClient.for(endpoint);
    expect(MediaClient.for(`${location.origin}${endpoint}/`)).to.equal(client, 'one client per endpoint');
    const { balance } = await client.account();
    expect(balance).to.be.a('number').and.greaterThan(0);
    await client.imageTool({ image: await photo(), size: 'preview' });
    expect(client.credits.remaining).to.equal(balance - 1);
    expect((await client.account()).balance).to.equal(balance - 1);
  });
});

describe('JobPoller: hidden tabs', () => {
  // Headless Chromium never hides a page, so the test sets what the poller reads
  // (document.visibilityState) and sends the event the browser would.
  const setVisibility = (state: 'hidden' | 'visible') => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    document.dispatchEvent(new Event('visibilitychange'));
  };
  afterEach(() => {
    delete (document as { visibilityState?: unknown }).visibilityState;
  });

  it('polls more slowly while hidden and at once when shown again', async () => {
    const { db, channel } = fresh();
    const poller = new JobPoller(new MediaClient({ endpoint }), {
      store: new JobStore({ database: db }),
      channel,
      cadence: { video: { firstMs: 300, maxMs: 300, factor: 1 } },
      hiddenFactor: 10,
    });
    pollers.push(poller);
    const polls = countPolls(poller);
    const record = await poller.create('video', await video({ seconds: 2 }));
    poller.watch(record.id, () => undefined);
    await new Promise((r) => setTimeout(r, 1_000));
    const visibleRate = polls();
    expect(visibleRate).to.be.within(2, 6);
    setVisibility('hidden');
    await new Promise((r) => setTimeout(r, 400)); // the wait in progress ends, then the slow ones start
    const hiddenStart = polls();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(polls() - hiddenStart, 'a 3 s wait while hidden').to.equal(0);
    setVisibility('visible');
    await until(() => polls() > hiddenStart, 200, 'a poll as soon as the tab shows');
  });
});

describe('JobPoller: reloads, lost answers and tabs', () => {
  it('resumes a video job after a reload and finishes it', async () => {
    const { db, channel } = fresh();
    const first = tab(db, channel);
    const record = await first.create('video', await video({ seconds: 2 }));
    first.watch(record.id, () => undefined);
    await driveUntil(first, record.id, (r) => r.status === 'processing', 5_000);
    first.dispose(); // the page goes away mid-job

    const second = tab(db, channel); // the page loads again: new client, new poller, same database
    const resumed = await second.resume();
    expect(resumed.map((r) => r.id)).to.deep.equal([record.id]);
    const done = await driveUntil(second, record.id, (r) => r.status === 'succeeded', 10 * 60_000);
    expect((done.job as { output: { ply_url: string } }).output.ply_url).to.contain(`${endpoint}/files/`);
  });

  it('recovers a job whose 202 was lost by sending it again with the same key, charged once', async () => {
    const { db, channel } = fresh();
    const store = new JobStore({ database: db });
    const client = new MediaClient({ endpoint });
    const request = { mode: 'image' as const, images: [await photo()], quality: 'fast' as const };
    const key = crypto.randomUUID();
    const scope = await client.scope();
    // What create() records before sending; then the request reaches the API but its answer is lost.
    await store.put({
      id: key,
      scope,
      kind: 'model',
      idempotencyKey: key,
      summary: {},
      createdAt: Date.now(),
      updatedAt: Date.now(),
      status: 'creating',
      progress: 0,
      request,
    });
    const before = await charges('mk-jobs', 'createModelJob');
    await client.createModelJob(request, { idempotencyKey: key });
    expect(await charges('mk-jobs', 'createModelJob')).to.equal(before + 1);

    const poller = tab(db, channel); // after the reload
    await poller.resume();
    const recovered = await until(
      async () => {
        const r = await poller.get(key);
        return r?.handle ? r : undefined;
      },
      10_000,
      'the handle',
    );
    expect(recovered!.request).to.equal(undefined);
    await driveUntil(poller, key, (r) => r.status === 'succeeded', 20_000);
    expect(await charges('mk-jobs', 'createModelJob')).to.equal(before + 1);
  });

  it('lets one tab poll a job while the others listen, and another take over when it closes', async () => {
    const { db, channel } = fresh();
    const a = tab(db, channel);
    const b = tab(db, channel);
    const pollsA = countPolls(a);
    const pollsB = countPolls(b);
    const record = await a.create('video', await video({ seconds: 2 }));
    const seenB: JobRecord[] = [];
    a.watch(record.id, () => undefined);
    await until(() => pollsA() > 0, 5_000, 'tab A polls');
    b.watch(record.id, (r) => seenB.push(r));
    await advance('mk-jobs', 30_000);
    await until(() => seenB.some((r) => r.progress > 0), 10_000, 'tab B hears progress');
    expect(pollsB(), 'tab B makes no requests while A polls').to.equal(0);

    a.dispose(); // tab A closes: its lock is released
    await until(() => pollsB() > 0, 5_000, 'tab B takes over');
    await driveUntil(b, record.id, (r) => r.status === 'succeeded', 10 * 60_000);
    await until(() => seenB.at(-1)?.status === 'succeeded', 5_000, 'B saw the end');
  });

  it('hands polling to another page when the polling page goes away', async () => {
    const { db, channel } = fresh();
    const creator = tab(db, channel);
    const record = await creator.create('video', await video({ seconds: 2 }));
    type Tab = { polls: number; last?: JobRecord };
    const open = async () => {
      const frame = document.createElement('iframe');
      frame.src = `/test/jobs/tab.html#${encodeURIComponent(`${db}|${channel}|${record.id}`)}`;
      document.body.append(frame);
      const state = await until(
        () => (frame.contentWindow as unknown as { tab?: Tab }).tab,
        10_000,
        'the page to load',
      );
      return { frame, state };
    };
    const first = await open();
    await until(() => first.state.polls > 0, 5_000, 'the first page polls');
    const second = await open();
    await advance('mk-jobs', 30_000);
    await until(() => (second.state.last?.progress ?? 0) > 0, 10_000, 'the second page hears progress');
    expect(second.state.polls, 'the second page listens, it does not poll').to.equal(0);
    first.frame.remove(); // the page closes: the browser releases its lock
    await until(() => second.state.polls > 0, 5_000, 'the second page takes over');
    await until(
      async () => {
        await advance('mk-jobs', 60_000);
        return second.state.last?.status === 'succeeded';
      },
      15_000,
      'the job to finish',
    );
    second.frame.remove();
  });

  it('makes the same poll traffic for one watching tab as for four', async () => {
    async function traffic(tabs: number): Promise<number> {
      const { db, channel } = fresh();
      const all = Array.from({ length: tabs }, () => tab(db, channel));
      const counters = all.map(countPolls);
      const record = await all[0]!.create('model', { mode: 'text', prompt: 'a tin robot', quality: 'fast' });
      for (const p of all) p.watch(record.id, () => undefined);
      await new Promise((r) => setTimeout(r, 1_000)); // ~10 polls at 100 ms
      const n = counters.reduce((sum, c) => sum + c(), 0);
      for (const p of all) p.dispose();
      return n;
    }
    const one = await traffic(1);
    const four = await traffic(4);
    expect(one).to.be.greaterThan(3);
    expect(four).to.be.at.most(one + 2);
  });
});
