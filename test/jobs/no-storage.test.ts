/**
 * When the browser keeps nothing for the page: in real Chromium, in `<iframe sandbox="allow-scripts">`
 * (an opaque origin, where IndexedDB, Cache Storage, localStorage and Web Locks are all refused
 * with a SecurityError), and in this page with `indexedDB.open` made to throw, to fail and to
 * never answer. The jobs then live in memory with the same API, the elements work, nothing is
 * uncaught, and the library warns once.
 *
 * The frame (no-storage-frame.ts) runs the library itself; this page answers its calls to the
 * server (the proxy refuses `Origin: null`, see the frame) and moves the sandbox clock.
 */
import { expect } from '@open-wc/testing';
import { JobPoller, JobStore, MediaClient, storageAvailable, type JobRecord } from '../../src/index.js';
import { advance, until, video } from '../fixtures/browser.js';
import type { FrameApi } from './no-storage-frame.js';

type Answer<K extends keyof FrameApi> = Awaited<ReturnType<FrameApi[K]>>;

describe('no storage: the page refuses IndexedDB, Web Locks and BroadcastChannel', function () {
  this.timeout(60_000);
  const warnings: string[] = [];
  const warn = console.warn;
  const open = IDBFactory.prototype.open;
  const channel = globalThis.BroadcastChannel;

  before(() => {
    console.warn = (...a: unknown[]) => {
      warnings.push(a.map(String).join(' '));
      warn.apply(console, a);
    };
    // As Chromium does in an opaque origin: synchronously.
    IDBFactory.prototype.open = () => {
      throw new DOMException('access to the Indexed Database API is denied in this context.', 'SecurityError');
    };
    Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true });
    (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel = undefined;
  });

  after(() => {
    console.warn = warn;
    IDBFactory.prototype.open = open;
    delete (navigator as { locks?: unknown }).locks;
    globalThis.BroadcastChannel = channel;
  });

  it('says storage is unavailable, and the store keeps records in memory', async () => {
    expect(await storageAvailable()).to.equal(false);
    expect(await storageAvailable(), 'asked once, the same answer').to.equal(false);
    const store = new JobStore();
    expect(await store.persistent()).to.equal(false);
    const at = Date.now();
    const record: JobRecord = {
      id: 'j1',
      scope: '/mediakit#s',
      kind: 'video',
      idempotencyKey: 'j1',
      summary: { name: 'walk.mp4', bytes: 3 },
      createdAt: at,
      updatedAt: at,
      status: 'creating',
      progress: 0,
      request: new File(['abc'], 'walk.mp4', { type: 'video/mp4' }),
    };
    await store.put(record);
    const got = await store.get('/mediakit#s', 'j1');
    expect(got).to.not.equal(record);
    expect(await (got!.request as Blob).text(), 'the upload, kept for this page').to.equal('abc');
    await store.patch('/mediakit#s', 'j1', (r) => ({ ...r, status: 'queued', handle: 'h' }));
    expect((await new JobStore().list('/mediakit#s')).map((r) => r.status)).to.deep.equal(['queued']);
    await store.delete('/mediakit#s', 'j1');
    expect(await store.list('/mediakit#s')).to.deep.equal([]);
  });

  it('follows a job to the end through the real proxy, in memory', async () => {
    const client = new MediaClient({ endpoint: '/mediakit' });
    const poller = new JobPoller(client, { cadence: { model: { firstMs: 100, maxMs: 100, factor: 1 } } });
    try {
      const created = await poller.create('model', { mode: 'text', prompt: 'a paper boat', quality: 'fast' });
      expect(created.handle).to.be.a('string');
      const statuses: string[] = [];
      poller.watch(created.id, (r) => statuses.push(r.status));
      await until(async () => {
        await advance('mediakit', 10_000);
        return statuses.includes('succeeded');
      }, 40_000);
      const listed = await poller.list();
      expect(listed.map((r) => r.id)).to.include(created.id);
      expect(listed.find((r) => r.id === created.id)!.job?.output).to.be.an('object');
      // As after a reload of a page that kept nothing: resume() finds this page's jobs.
      expect((await poller.resume()).map((r) => r.id)).to.include(created.id);
    } finally {
      poller.dispose();
    }
  });

  it('falls back when the open fails, and when it never answers', async function () {
    this.timeout(30_000);
    // A failing request (here a VersionError: the database is newer than asked for), as some private modes fail.
    const name = `newer-${crypto.randomUUID()}`;
    await new Promise<void>((resolve, reject) => {
      const r = open.call(indexedDB, name, 3);
      r.onupgradeneeded = () => r.result.createObjectStore('jobs');
      r.onsuccess = () => (r.result.close(), resolve());
      r.onerror = () => reject(r.error);
    });
    IDBFactory.prototype.open = function (this: IDBFactory, n: string) {
      return open.call(this, n, 1);
    };
    const failing = new JobStore({ database: name });
    expect(await failing.persistent()).to.equal(false);
    await failing.put({ ...minimal('x'), status: 'queued' });
    expect((await failing.list('/e#s')).length).to.equal(1);
    indexedDB.deleteDatabase(name);

    // An open that never answers (Safari 14 left some so): the page waits 10 s, then keeps records in memory.
    IDBFactory.prototype.open = () => ({}) as IDBOpenDBRequest;
    const silent = new JobStore({ database: `silent-${crypto.randomUUID()}` });
    const started = Date.now();
    expect(await silent.persistent()).to.equal(false);
    expect(Date.now() - started).to.be.within(9_000, 15_000);
    await silent.put(minimal('y'));
    expect((await silent.get('/e#s', 'y'))?.id).to.equal('y');
  });

  it('warned once, that nothing is stored', () => {
    const ours = warnings.filter((w) => w.includes('[mediakit]'));
    expect(ours).to.have.length(1);
    expect(ours[0]).to.contain('keeps no data for this page');
  });
});

function minimal(id: string): JobRecord {
  return {
    id,
    scope: '/e#s',
    kind: 'model',
    idempotencyKey: id,
    summary: {},
    createdAt: Date.now(),
    updatedAt: Date.now(),
    status: 'creating',
    progress: 0,
  };
}

describe('no storage: <iframe sandbox="allow-scripts">', function () {
  this.timeout(120_000);
  let frame: HTMLIFrameElement;
  let calls = 0;
  const answers = new Map<number, (a: { value?: unknown; error?: string }) => void>();
  const relayed = new Map<number, AbortController>();

  /** Calls `name` in the frame and returns its answer. */
  async function call<K extends keyof FrameApi>(name: K, ...args: Parameters<FrameApi[K]>): Promise<Answer<K>> {
    const id = ++calls;
    const answer = new Promise<{ value?: unknown; error?: string }>((resolve) => answers.set(id, resolve));
    frame.contentWindow!.postMessage({ call: id, name, args }, '*');
    const a = await answer;
    if (a.error) throw new Error(`in the frame, ${name}: ${a.error}`);
    return a.value as Answer<K>;
  }

  /** The frame's calls to the server, made here (same-origin) and answered there. */
  async function relay(d: {
    relay: number;
    url: string;
    method: string;
    headers: [string, string][];
    body: Blob | null;
  }) {
    const controller = new AbortController();
    relayed.set(d.relay, controller);
    const post = (m: object) => frame.contentWindow?.postMessage({ relay: d.relay, ...m }, '*');
    try {
      const r = await fetch(d.url, { method: d.method, headers: d.headers, body: d.body, signal: controller.signal });
      const body = await r.blob();
      post({ status: r.status, statusText: r.statusText, headers: [...r.headers], body });
    } catch (err) {
      post({ error: String(err) });
    } finally {
      relayed.delete(d.relay);
    }
  }

  const onMessage = (e: MessageEvent) => {
    if (!frame || e.source !== frame.contentWindow) return;
    const d = e.data as { call?: number; relay?: number; abort?: boolean; value?: unknown; error?: string };
    if (d.call !== undefined) answers.get(d.call)?.(d);
    else if (d.relay !== undefined && d.abort) relayed.get(d.relay)?.abort();
    else if (d.relay !== undefined) void relay(e.data as Parameters<typeof relay>[0]);
  };

  before(async () => {
    addEventListener('message', onMessage);
    frame = document.createElement('iframe');
    frame.sandbox.add('allow-scripts');
    frame.style.cssText = 'width:800px;height:600px';
    const ready = new Promise<void>((resolve) =>
      addEventListener('message', function ready(e) {
        if (e.source === frame.contentWindow && (e.data as { ready?: boolean }).ready) {
          removeEventListener('message', ready);
          resolve();
        }
      }),
    );
    frame.src = '/test/jobs/no-storage-frame.html';
    document.body.append(frame);
    await ready;
  });

  after(() => {
    removeEventListener('message', onMessage);
    frame.remove();
  });

  it('is an opaque origin where the browser refuses every storage, and the library says so', async () => {
    const env = await call('environment');
    expect(env.origin).to.equal('null');
    expect(env).to.include({
      localStorage: 'SecurityError',
      caches: 'SecurityError',
      indexedDB: 'SecurityError',
      locks: 'SecurityError',
      storageAvailable: false,
      again: false,
      persistent: false,
    });
  });

  it('keeps jobs in memory with the JobStore API', async () => {
    const r = await call('store');
    expect(r.list, 'newest first, the patch applied, the copy left alone').to.deep.equal([
      'b:processing:40',
      'a:queued:0',
    ]);
    expect(r.patched).to.equal(40);
    expect(r.missing).to.equal(null);
    expect(r.sameDb).to.equal(2);
    expect(r.pruned).to.equal(1);
    expect(r.afterDelete).to.deep.equal(['b']);
    expect(r.afterClear, 'clearStoredData() empties memory too').to.equal(0);
  });

  it('keeps no results, and throws nothing', async () => {
    expect(await call('results')).to.deep.equal({ available: false, put: false, get: null, delete: null });
  });

  it('creates a job through the proxy and follows it to the end', async () => {
    const started = await call('startJob');
    expect(started.handle).to.be.a('string');
    expect(started.listed).to.include(started.id);
    const state = await until(async () => {
      await advance('mediakit', 10_000);
      const s = await call('jobState');
      return s.statuses.includes('succeeded') && s;
    }, 60_000);
    expect(state.progress).to.equal(100);
    expect(state.hasOutput).to.equal(true);
    expect(await call('resume'), "this page's jobs, from memory").to.include('succeeded');
  });

  it('<video-to-3d-uploader> renders, checks, uploads and shows the scene', async () => {
    const mounted = await call('mountUploader');
    expect(mounted.status).to.equal('idle');
    await call('chooseVideo', await video({ seconds: 3, width: 160, height: 120 }));
    const ready = await until(async () => {
      const s = await call('uploaderState');
      return s.status !== 'idle' && s.status !== 'checking' && s;
    }, 20_000);
    expect(ready.status, ready.text).to.equal('ready');
    expect(ready.confirm).to.equal(true);
    // Said before the upload starts, while the visitor can still choose not to reload.
    expect(ready.text).to.contain('This browser keeps no data for this page: reloading it will lose the upload.');
    await call('confirm');
    const done = await until(
      async () => {
        const s = await call('uploaderState');
        if (s.status === 'queued' || s.status === 'processing') await advance('mediakit', 30_000);
        return (s.status === 'succeeded' || s.status === 'failed' || s.error !== null) && s;
      },
      90_000,
      'the job to end',
    );
    expect(done.status, done.text).to.equal('succeeded');
    await until(async () => (await call('uploaderState')).viewer, 30_000, 'the viewer');
  });

  it('reported no uncaught error, no unhandled rejection, no console error, and warned once of storage', async () => {
    const seen = await call('seen');
    expect(seen.errors).to.deep.equal([]);
    expect(seen.rejections).to.deep.equal([]);
    expect(seen.consoleErrors).to.deep.equal([]);
    const all = seen.warnings.join('\n');
    expect(
      seen.warnings.filter((w) => w.includes('keeps no data for this page')),
      all,
    ).to.have.length(1);
    // Nothing else of storage: what a refused store would make the library say (a failed read, purge or resend).
    const others = seen.warnings.filter((w) => !w.includes('keeps no data for this page'));
    expect(others.join('\n')).to.not.match(/could not|storage|IndexedDB|cache/i);
  });
});
