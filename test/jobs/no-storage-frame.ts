// The page inside `<iframe sandbox="allow-scripts">` (test/jobs/no-storage.test.ts): an opaque
// origin, where Chromium refuses IndexedDB, Cache Storage, localStorage and Web Locks. The test
// calls the functions of `api` below by postMessage and gets their answers back.
//
// The proxy refuses `Origin: null` (it answers CORS for the origins it is told of, and an opaque
// origin is none), so this page's calls to the server go through the test page, which makes them
// same-origin: `fetch` and XMLHttpRequest are relayed for URLs of the server's origin. Everything
// else (storage, locks, the elements) is this frame's own.
import {
  JobPoller,
  JobStore,
  MediaClient,
  clearStoredData,
  storageAvailable,
  type JobRecord,
} from '../../src/index.js';
import { resultCache } from '../../src/components/shared/result-cache.js';

interface Seen {
  errors: string[];
  rejections: string[];
  consoleErrors: string[];
  warnings: string[];
}
declare const seen: Seen;

// ---------------------------------------------------------------- the relay

interface RelayAnswer {
  relay: number;
  status?: number;
  statusText?: string;
  headers?: [string, string][];
  body?: Blob | null;
  error?: string;
}

let relays = 0;
const waiting = new Map<number, (a: RelayAnswer) => void>();
const server = location.origin;

/** The test page's fetch of `request` (same-origin there), as a Response here. */
async function relay(request: Request): Promise<Response> {
  const id = ++relays;
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.blob();
  const answer = new Promise<RelayAnswer>((resolve) => waiting.set(id, resolve));
  const aborted = new Promise<never>((_, reject) => {
    request.signal.addEventListener('abort', () => {
      parent.postMessage({ relay: id, abort: true }, '*');
      reject(request.signal.reason);
    });
  });
  parent.postMessage({ relay: id, url: request.url, method: request.method, headers: [...request.headers], body }, '*');
  const a = await Promise.race([answer, aborted]);
  waiting.delete(id);
  if (a.error) throw new TypeError(`relay: ${a.error}`);
  const empty = [101, 204, 205, 304].includes(a.status!);
  return new Response(empty ? null : a.body, { status: a.status, statusText: a.statusText, headers: a.headers });
}

const ownFetch = globalThis.fetch.bind(globalThis);
globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
  const request = new Request(input, init);
  return new URL(request.url).origin === server ? relay(request) : ownFetch(input, init);
};

/** What src/client/upload.ts uses of XMLHttpRequest, over the relay (one progress report, when sent). */
class RelayedXhr {
  responseType = '';
  withCredentials = false;
  status = 0;
  statusText = '';
  response: Blob | null = null;
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  #method = 'GET';
  #url = '';
  #headers = new Headers();
  #abort = new AbortController();
  #answer = new Headers();

  open(method: string, url: string): void {
    this.#method = method;
    this.#url = new URL(url, location.href).href;
  }
  setRequestHeader(name: string, value: string): void {
    this.#headers.set(name, value);
  }
  getAllResponseHeaders(): string {
    return [...this.#answer].map(([k, v]) => `${k}: ${v}`).join('\r\n');
  }
  abort(): void {
    this.#abort.abort();
  }
  send(body: XMLHttpRequestBodyInit | null): void {
    const request = new Request(this.#url, {
      method: this.#method,
      headers: this.#headers,
      body,
      signal: this.#abort.signal,
    });
    void request
      .clone()
      .blob()
      .then(async (sent) => {
        const response = await relay(request);
        this.upload.onprogress?.(
          new ProgressEvent('progress', { loaded: sent.size, total: sent.size, lengthComputable: true }),
        );
        this.status = response.status;
        this.statusText = response.statusText;
        this.#answer = response.headers;
        this.response = await response.blob();
        this.onload?.();
      })
      .catch(() => (this.#abort.signal.aborted ? this.onabort?.() : this.onerror?.()));
  }
}
Object.assign(globalThis, { XMLHttpRequest: RelayedXhr });

// ---------------------------------------------------------------- what the test calls

const refused = (read: () => unknown): string => {
  try {
    read();
    return 'allowed';
  } catch (err) {
    return (err as Error).name;
  }
};

const record = (scope: string, id: string, at = Date.now()): JobRecord => ({
  id,
  scope,
  kind: 'model',
  idempotencyKey: id,
  summary: { mode: 'text', quality: 'fast', prompt: 'a boat' },
  createdAt: at,
  updatedAt: at,
  status: 'queued',
  progress: 0,
  handle: `h-${id}`,
});

const client = MediaClient.for('/mediakit');
const job = { statuses: [] as string[], last: undefined as JobRecord | undefined };
let uploader: (HTMLElement & { status: string; selectFile(f: File): void }) | undefined;

const api = {
  /** What this frame is, and what the library makes of it. */
  async environment() {
    return {
      origin: self.origin,
      localStorage: refused(() => localStorage),
      caches: refused(() => caches),
      indexedDB: refused(() => indexedDB.open('probe')),
      locks: await navigator.locks.query().then(
        () => 'allowed',
        (err: Error) => err.name,
      ),
      storageAvailable: await storageAvailable(),
      again: await storageAvailable(),
      persistent: await new JobStore().persistent(),
    };
  },

  /** The JobStore's whole API, in memory. */
  async store() {
    const store = new JobStore({ database: 'frame-jobs' });
    const scope = '/mediakit#abc';
    const a = record(scope, 'a', Date.now() - 2000);
    const b = record(scope, 'b', Date.now() - 1000);
    await store.put(a);
    await store.put(b);
    await store.put(record('/other#def', 'c'));
    const got = await store.get(scope, 'a');
    // A copy, as IndexedDB gives: changing it changes nothing stored.
    got!.progress = 99;
    const patched = await store.patch(scope, 'b', (r) => ({ ...r, status: 'processing', progress: 40 }));
    const list = (await store.list(scope)).map((r) => `${r.id}:${r.status}:${r.progress}`);
    // The same database by name in another JobStore is the same records (this page's).
    const sameDb = (await new JobStore({ database: 'frame-jobs' }).list(scope)).length;
    await store.put({ ...record(scope, 'old'), status: 'succeeded', finishedAt: Date.now() - 30 * 24 * 3600 * 1000 });
    const pruned = await store.prune();
    const missing = await store.patch(scope, 'nobody', (r) => r);
    await store.delete(scope, 'a');
    const afterDelete = (await store.list(scope)).map((r) => r.id);
    await clearStoredData();
    const afterClear = (await store.list(scope)).length + (await store.list('/other#def')).length;
    return { list, patched: patched?.progress, missing: missing ?? null, sameDb, pruned, afterDelete, afterClear };
  },

  /** The result cache: nothing kept, nothing thrown. */
  async results() {
    return {
      available: resultCache.available(),
      put: await resultCache.put('/mediakit#abc', 'x', new Blob(['scene'])),
      get: (await resultCache.get('/mediakit#abc', 'x')) ?? null,
      delete: (await resultCache.delete('/mediakit#abc', 'x')) ?? null,
    };
  },

  /** Creates a model job through the real proxy and follows it (the test moves the sandbox clock). */
  async startJob() {
    const poller = JobPoller.for(client);
    const created = await poller.create('model', { mode: 'text', prompt: 'a paper boat', quality: 'fast' });
    poller.watch(created.id, (r) => {
      job.last = r;
      if (job.statuses.at(-1) !== r.status) job.statuses.push(r.status);
    });
    return { id: created.id, handle: created.handle ?? null, listed: (await poller.list()).map((r) => r.id) };
  },

  jobState() {
    return { statuses: job.statuses, progress: job.last?.progress ?? null, hasOutput: Boolean(job.last?.job?.output) };
  },

  /** Resumes as a page load does: the job in memory is listed and polled, nothing sent again. */
  async resume() {
    return (await JobPoller.for(client).resume()).map((r) => r.status);
  },

  /** Puts a <video-to-3d-uploader> on the page (imported here: a broken element must not break the rest). */
  async mountUploader() {
    await import('../../src/components/video-to-3d-uploader/define.js');
    uploader = document.createElement('video-to-3d-uploader') as typeof uploader;
    uploader!.setAttribute('endpoint', '/mediakit');
    document.body.append(uploader!);
    await (uploader as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    return api.uploaderState();
  },

  uploaderState() {
    const root = uploader?.shadowRoot;
    return {
      status: uploader?.status ?? null,
      text: root?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
      error: root?.querySelector<HTMLElement>('[part~="error"]')?.dataset['reason'] ?? null,
      confirm: Boolean(root?.querySelector('[part~="primary-button"]')),
      viewer: Boolean(root?.querySelector('splat-viewer')),
    };
  },

  chooseVideo(file: File) {
    uploader!.selectFile(file);
    return true;
  },

  confirm() {
    uploader!.shadowRoot!.querySelector<HTMLElement>('[part~="primary-button"]')!.click();
    return true;
  },

  /** What the page reported: uncaught errors, unhandled rejections, console errors, the library's warnings. */
  seen() {
    return { ...seen, warnings: seen.warnings.filter((w) => w.includes('[mediakit]')) };
  },
};
export type FrameApi = typeof api;

addEventListener('message', (e: MessageEvent) => {
  if (e.source !== parent) return;
  const data = e.data as { relay?: number; call?: number; name?: keyof typeof api; args?: unknown[] };
  if (data.relay !== undefined) return waiting.get(data.relay)?.(data as RelayAnswer);
  if (data.call === undefined || !data.name) return;
  const reply = (answer: object) => parent.postMessage({ call: data.call, ...answer }, '*');
  Promise.resolve()
    .then(() => (api[data.name!] as (...a: unknown[]) => unknown)(...(data.args ?? [])))
    .then(
      (value) => reply({ value }),
      (err: Error) => reply({ error: `${err?.name}: ${err?.message}` }),
    );
});
parent.postMessage({ ready: true }, '*');
