/**
 * `JobPoller`: creates jobs, records them, and polls them to the end, across reloads and tabs.
 *
 * - Cadence per kind (video every few seconds backing off to ~30 s, 3D about every 3 s), slower in
 *   hidden tabs and immediate when the tab shows again; Retry-After is honoured.
 * - Across tabs, one tab polls a job (a Web Lock per job) and posts each update on a
 *   BroadcastChannel; the others listen. When the polling tab closes, its lock is released and a
 *   waiting tab takes over.
 * - `resume()` on page load polls every unfinished job again and sends again, with the same
 *   Idempotency-Key, any job whose creation answer was lost: the API replays the original job and
 *   charges nothing twice.
 * - A succeeded job that is still watched is polled again shortly before its download links
 *   expire, so the links in hand always work.
 * - The bytes of a creating upload (a resend after a reload included) go to `onUploadProgress`
 *   listeners in this tab only, from memory: never written to IndexedDB, never a `watch` change.
 */
import { ApiError, type ModelJob, type VideoJob } from '../api/index.js';
import type { CreateOptions, MediaClient, ModelJobInput } from '../client/media-client.js';
import { abortable, sleep } from '../client/async.js';
import type { UploadProgress } from '../events/upload-progress.js';
import { JobStore, isTerminal, type JobKind, type JobRecord } from './job-store.js';

/** Requests bigger than this are written to IndexedDB beside the upload rather than before it. */
const KEEP_BESIDE_BYTES = 16 * 1024 * 1024;
/** A record still being created this long after its last write, without its request, was cut by a reload. */
const ORPHAN_AFTER_MS = 10_000;

export interface Cadence {
  /** Wait after the first poll. */
  firstMs: number;
  /** Longest wait between polls. */
  maxMs: number;
  /** Each wait is the last one times this, up to maxMs. */
  factor: number;
}

export const DEFAULT_CADENCE: Record<JobKind, Cadence> = {
  video: { firstMs: 3_000, maxMs: 30_000, factor: 1.5 },
  model: { firstMs: 3_000, maxMs: 3_000, factor: 1 },
};

export interface JobPollerOptions {
  store?: JobStore;
  cadence?: Partial<Record<JobKind, Cadence>>;
  /** Waits are this many times longer while the tab is hidden. Default 4. */
  hiddenFactor?: number;
  /** Poll a succeeded, watched job again this long before its links expire. Default 60 s. */
  linkRefreshMarginMs?: number;
  /** BroadcastChannel and Web Lock prefix (tests give each poller family its own). Default `mediakit-jobs`. */
  channel?: string;
}

export type JobListener = (record: JobRecord) => void;
/** Bytes of a job's creating upload as they go out; `undefined` when that upload ended without creating the job. */
export type UploadListener = (progress: UploadProgress | undefined) => void;

interface Message {
  scope: string;
  record: JobRecord;
}

const pollers = new WeakMap<MediaClient, JobPoller>();

export class JobPoller {
  /** The page's one poller for a client. */
  static for(client: MediaClient): JobPoller {
    let poller = pollers.get(client);
    if (!poller) pollers.set(client, (poller = new JobPoller(client)));
    return poller;
  }

  readonly client: MediaClient;
  readonly store: JobStore;
  readonly #cadence: Record<JobKind, Cadence>;
  readonly #hiddenFactor: number;
  readonly #margin: number;
  readonly #prefix: string;
  readonly #channel: BroadcastChannel;
  readonly #listeners = new Map<string, Set<JobListener>>();
  readonly #uploadListeners = new Map<string, Set<UploadListener>>();
  /** The latest report of each upload in flight in this tab, for a listener that comes late. */
  readonly #uploads = new Map<string, UploadProgress>();
  readonly #loops = new Map<string, AbortController>();
  readonly #disposed = new AbortController();

  constructor(client: MediaClient, options: JobPollerOptions = {}) {
    this.client = client;
    this.store = options.store ?? new JobStore();
    this.#cadence = { ...DEFAULT_CADENCE, ...options.cadence };
    this.#hiddenFactor = options.hiddenFactor ?? 4;
    this.#margin = options.linkRefreshMarginMs ?? 60_000;
    this.#prefix = options.channel ?? 'mediakit-jobs';
    this.#channel = new BroadcastChannel(this.#prefix);
    this.#channel.onmessage = async (e: MessageEvent<Message>) => {
      const { scope, record } = e.data ?? {};
      if (!record || scope !== (await this.#scope().catch(() => undefined))) return;
      this.#notify(record);
      // A job created in another tab while we waited: poll it (or wait for that tab's lock).
      if (record.handle && !isTerminal(record.status) && this.#listeners.has(record.id)) this.#ensureLoop(record.id);
    };
  }

  // ---------------------------------------------------------------- creating

  /**
   * Creates a job and records it. Resolves with the record once the job exists (after the
   * upload); watch it for progress. A refusal (bad input, no credits) leaves no record.
   */
  async create(kind: 'video', request: Blob, options?: CreateOptions & { summary?: JobRecord['summary'] }): Promise<JobRecord>;
  async create(kind: 'model', request: ModelJobInput, options?: CreateOptions & { summary?: JobRecord['summary'] }): Promise<JobRecord>;
  async create(kind: JobKind, request: Blob | ModelJobInput, options: CreateOptions & { summary?: JobRecord['summary'] } = {}): Promise<JobRecord> {
    const scope = await this.#scope(options.signal);
    const key = options.idempotencyKey ?? crypto.randomUUID();
    const now = Date.now();
    const record: JobRecord = { id: key, scope, kind, idempotencyKey: key, summary: options.summary ?? summarize(kind, request), createdAt: now, updatedAt: now, status: 'creating', progress: 0, request };
    // Held while sending, so another tab's resume() never takes this upload for a cut one.
    return navigator.locks.request(`${this.#prefix}:create:${scope}:${key}`, () => this.#send(record, options));
  }

  /** `kept`: the record and its request are in the store already (a resend), so nothing is written before sending. */
  async #send(record: JobRecord, options: CreateOptions = {}, kept = false): Promise<JobRecord> {
    let uploaded = false;
    let created = false;
    const call: CreateOptions = {
      ...options,
      idempotencyKey: record.idempotencyKey,
      beforeSend: async () => {
        const { request, ...light } = record;
        if (kept) {
          // A resend: record and video are in the store. Writing them again would first drop the
          // video (see below), so a reload in that window would lose it, for 500 MB written twice.
        } else if (request instanceof Blob && request.size > KEEP_BESIDE_BYTES) {
          // A big video is written to IndexedDB beside the upload, not before it: storing 500 MB
          // first delayed the first uploaded byte by 2.7 s (npm run bench -- upload). Until it is
          // in, a reload cannot resend it (resume() then drops the record and says so).
          await this.store.put(light);
          void this.store
            .patch(record.scope, record.id, (r) => (r.status === 'creating' && !r.handle ? { ...r, request } : r))
            .catch((err: unknown) => console.warn('[mediakit] could not keep the video for a resend after a reload', err));
        } else {
          await this.store.put(record);
        }
        this.#notify(record);
      },
      onProgress: (p) => {
        if (p.total > 0 && p.loaded >= p.total) uploaded = true;
        this.#uploads.set(record.id, p);
        this.#notifyUpload(record.id, p);
        options.onProgress?.(p);
      },
    };
    try {
      const job =
        record.kind === 'video'
          ? (await this.client.createVideoJob(record.request as Blob, call)).data
          : (await this.client.createModelJob(record.request as ModelJobInput, call)).data;
      created = true;
      const next = await this.#update(record.scope, record.id, (r) => {
        const { request: _sent, ...rest } = r;
        return { ...rest, handle: job.job_id, status: job.status, progress: 'progress' in job && typeof job.progress === 'number' ? job.progress : 0, ...('output' in job ? { job: job as ModelJob } : {}), updatedAt: Date.now() };
      });
      return next ?? record;
    } catch (err) {
      // Keep the record when the job may exist upstream (the answer was lost, or the upload had
      // finished before a cancel): resume() sends it again with the same key and gets that job.
      const maybeCreated = err instanceof ApiError ? err.status === 0 || err.status >= 502 : uploaded;
      if (!maybeCreated) {
        await this.store.delete(record.scope, record.id);
        this.#notify({ ...record, status: 'failed', error: { code: err instanceof ApiError ? err.code : 'cancelled', message: err instanceof Error ? err.message : String(err) } });
      }
      throw err;
    } finally {
      // Its listeners now follow the record; a job still being created has no upload in flight.
      if (this.#uploads.delete(record.id) && !created) this.#notifyUpload(record.id, undefined);
    }
  }

  // ---------------------------------------------------------------- watching

  /**
   * Calls `listener` with the job's record now and once per change, polling it (or listening to
   * the tab that does) until it ends. A change is a new status, progress, handle, error, output or
   * link expiry; a poll that only re-signs the same links is not one. Returns the function that
   * stops watching.
   */
  watch(id: string, listener: JobListener): () => void {
    let set = this.#listeners.get(id);
    if (!set) this.#listeners.set(id, (set = new Set()));
    // The same record reaches a watcher by several paths (the store on watch, the loop's start,
    // a poll, another tab's post): each listener hears a given state once.
    let heard: string | undefined;
    const deliver: JobListener = (r) => {
      const key = changeKey(r);
      if (key === heard) return;
      heard = key;
      listener(r);
    };
    set.add(deliver);
    void this.#scope()
      .then((scope) => this.store.get(scope, id))
      .then((r) => r && set.has(deliver) && deliver(r))
      .catch(() => undefined);
    this.#ensureLoop(id);
    return () => {
      set.delete(deliver);
      if (set.size === 0) {
        this.#listeners.delete(id);
        this.#loops.get(id)?.abort();
        this.#loops.delete(id);
      }
    };
  }

  /**
   * Calls `listener` with the bytes of the job's creating upload as they go out in this tab (also
   * a resend after a reload), starting with the latest report when one is under way, and with
   * `undefined` when that upload ends without creating the job (it stays `creating`, kept for the
   * next visit). Other tabs get no bytes: the sending tab holds the job's creation lock. Returns
   * the function that stops listening.
   */
  onUploadProgress(id: string, listener: UploadListener): () => void {
    let set = this.#uploadListeners.get(id);
    if (!set) this.#uploadListeners.set(id, (set = new Set()));
    set.add(listener);
    const now = this.#uploads.get(id);
    if (now) listener(now);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#uploadListeners.get(id) === set) this.#uploadListeners.delete(id);
    };
  }

  /** This user's jobs on this endpoint, newest first. */
  async list(): Promise<JobRecord[]> {
    return this.store.list(await this.#scope());
  }

  async get(id: string): Promise<JobRecord | undefined> {
    return this.store.get(await this.#scope(), id);
  }

  /** Polls a job once now (fresh download links) and returns its record. */
  async refresh(id: string, signal?: AbortSignal): Promise<JobRecord | undefined> {
    const scope = await this.#scope(signal);
    const record = await this.store.get(scope, id);
    if (!record?.handle) return record;
    return this.#pollOnce(record, signal);
  }

  /** Drops a job from this browser's list (the job itself is not cancelled: the API has no cancel). */
  async forget(id: string): Promise<void> {
    await this.store.delete(await this.#scope(), id);
  }

  /**
   * On page load: prunes old finished jobs, sends again every job whose creation answer was lost,
   * and polls every unfinished job to its end. Resolves with this user's jobs.
   */
  async resume(signal?: AbortSignal): Promise<JobRecord[]> {
    const scope = await this.#scope(signal);
    await this.store.prune();
    const records = await this.store.list(scope);
    for (const record of records) {
      if (isTerminal(record.status)) continue;
      // Held until the job ends, so it is polled even when no element shows it.
      const stop = this.watch(record.id, (r) => {
        if (isTerminal(r.status)) queueMicrotask(stop);
      });
      if (record.status === 'creating' && record.request !== undefined) {
        this.#resend(record, signal).catch((err: unknown) => console.warn('[mediakit] could not send a job again; it stays for the next visit', err));
      } else if (record.status === 'creating' && !record.handle && Date.now() - record.updatedAt > ORPHAN_AFTER_MS) {
        // Cut before its video was kept, so it cannot be sent again: say so once and drop it
        // (unless a tab is still sending it: that tab holds the creation lock).
        void navigator.locks.request(`${this.#prefix}:create:${scope}:${record.id}`, { ifAvailable: true }, async (lock) => {
          if (!lock) return;
          stop();
          await this.store.delete(scope, record.id);
          this.#notify({ ...record, status: 'failed', error: { code: 'interrupted', message: 'The upload was interrupted before the video could be kept on this device; choose it again.' } });
        });
      }
    }
    return records;
  }

  /** Stops polling and listening (the page is going away, or tests). */
  dispose(): void {
    this.#disposed.abort();
    for (const c of this.#loops.values()) c.abort();
    this.#loops.clear();
    this.#listeners.clear();
    this.#uploadListeners.clear();
    this.#channel.close();
  }

  // ---------------------------------------------------------------- internals

  #scope(signal?: AbortSignal): Promise<string> {
    return this.client.scope({ signal: signal ?? this.#disposed.signal });
  }

  /** One tab sends a lost creation again; the others see the result through the channel. */
  async #resend(record: JobRecord, signal?: AbortSignal): Promise<void> {
    await navigator.locks.request(`${this.#prefix}:create:${record.scope}:${record.id}`, { ifAvailable: true }, async (lock) => {
      if (!lock) return;
      const current = await this.store.get(record.scope, record.id);
      if (!current || current.status !== 'creating') return;
      try {
        await this.#send(current, { signal: signal ?? this.#disposed.signal }, true);
        this.#restartLoop(record.id);
      } catch {
        // Kept (and retried on the next load) or dropped by #send; listeners were told.
      }
    });
  }

  #restartLoop(id: string): void {
    if (!this.#listeners.has(id)) return;
    this.#loops.get(id)?.abort();
    this.#loops.delete(id);
    this.#ensureLoop(id);
  }

  #ensureLoop(id: string): void {
    if (this.#loops.has(id) || this.#disposed.signal.aborted) return;
    const controller = new AbortController();
    this.#loops.set(id, controller);
    const { signal } = controller;
    void this.#scope(signal)
      .then((scope) =>
        // Waits while another tab polls this job; its updates arrive on the channel meanwhile.
        navigator.locks.request(`${this.#prefix}:poll:${scope}:${id}`, { signal }, () => this.#loop(scope, id, signal)),
      )
      .catch(() => undefined)
      .finally(() => {
        if (this.#loops.get(id) === controller) this.#loops.delete(id);
      });
  }

  async #loop(scope: string, id: string, signal: AbortSignal): Promise<void> {
    let record = await this.store.get(scope, id);
    if (!record) return;
    this.#notify(record);
    const cadence = this.#cadence[record.kind];
    let delay = cadence.firstMs;
    let first = true;
    while (!signal.aborted) {
      record = await this.store.get(scope, id);
      if (!record || !record.handle) return; // still being created (by another tab): its #send restarts us
      if (record.status === 'failed' || record.status === 'expired') return;
      if (record.status === 'succeeded') {
        if (record.linksExpireAt === undefined) return;
        // By the server's clock (the expiry is its instant); never sooner than the cadence.
        await this.#wait(Math.max(cadence.firstMs, record.linksExpireAt - this.#margin - this.client.serverNow()), signal, false);
      } else if (!first) {
        await this.#wait(delay, signal, true);
        delay = Math.min(cadence.maxMs, delay * cadence.factor);
      }
      first = false;
      try {
        await this.#pollOnce(record, signal);
      } catch (err) {
        if (signal.aborted) return;
        // The client already waited out short Retry-Afters; a longer one sets the next wait.
        if (err instanceof ApiError && err.retryAfter !== undefined) delay = Math.max(delay, err.retryAfter * 1000);
      }
    }
  }

  /** Polls once, records the result and tells everyone. */
  async #pollOnce(record: JobRecord, signal?: AbortSignal): Promise<JobRecord> {
    let view: VideoJob | ModelJob;
    try {
      view = record.kind === 'video' ? await this.client.getVideoJob(record.handle!, { signal }) : await this.client.getModelJob(record.handle!, { signal });
    } catch (err) {
      if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 410)) throw err;
      const gone =
        err.status === 410
          ? { status: 'expired' as const, error: { code: 'expired', message: 'The provider removed this result after its retention period; start a new job.' } }
          : { status: 'failed' as const, error: { code: 'not_found', message: 'The service no longer knows this job (or it belongs to another session); start a new job.' } };
      return (await this.#update(record.scope, record.id, (r) => ({ ...r, ...gone, finishedAt: Date.now(), updatedAt: Date.now() }))) ?? record;
    }
    return (await this.#update(record.scope, record.id, (r) => applyView(r, view))) ?? record;
  }

  async #update(scope: string, id: string, change: (r: JobRecord) => JobRecord): Promise<JobRecord | undefined> {
    const next = await this.store.patch(scope, id, change);
    if (next) {
      this.#channel.postMessage({ scope, record: next } satisfies Message);
      this.#notify(next);
    }
    return next;
  }

  #notify(record: JobRecord): void {
    for (const listener of this.#listeners.get(record.id) ?? []) {
      try {
        listener(record);
      } catch (err) {
        console.error('[mediakit] a job listener threw', err);
      }
    }
  }

  #notifyUpload(id: string, progress: UploadProgress | undefined): void {
    for (const listener of this.#uploadListeners.get(id) ?? []) {
      try {
        listener(progress);
      } catch (err) {
        console.error('[mediakit] an upload listener threw', err);
      }
    }
  }

  /** Sleeps `ms` (longer in a hidden tab); a tab that shows again polls at once. */
  async #wait(ms: number, signal: AbortSignal, slowWhenHidden: boolean): Promise<void> {
    // Aborted while the loop read the store: the race below would reject with no one listening
    // (abortable() answers an aborted signal without subscribing to it), an unhandled AbortError.
    signal.throwIfAborted();
    if (ms <= 0) return;
    const hidden = typeof document !== 'undefined' && document.visibilityState === 'hidden';
    const time = slowWhenHidden && hidden ? ms * this.#hiddenFactor : ms;
    if (typeof document === 'undefined') return sleep(time, signal);
    const visible = new Promise<void>((resolve) => {
      const onChange = () => {
        if (document.visibilityState === 'visible') {
          document.removeEventListener('visibilitychange', onChange);
          resolve();
        }
      };
      document.addEventListener('visibilitychange', onChange);
      signal.addEventListener('abort', () => document.removeEventListener('visibilitychange', onChange), { once: true });
    });
    await abortable(Promise.race([sleep(time, signal), visible]), signal);
  }
}

/** What a listener would notice: the fields that change between polls, not the re-signed link strings. */
function changeKey(r: JobRecord): string {
  const output = r.job?.output;
  return JSON.stringify([r.status, r.progress, r.handle ?? null, r.error?.code ?? null, r.error?.message ?? null, r.linksExpireAt ?? null, r.finishedAt ?? null, output ? Object.keys(output).sort() : null, r.job && 'reference_image_url' in r.job ? Boolean(r.job.reference_image_url) : null]);
}

const EXPIRED_MESSAGE = 'The provider removed this result after its retention period; start a new job to get it again.';

function applyView(record: JobRecord, view: VideoJob | ModelJob): JobRecord {
  const now = Date.now();
  const expires = view.output && 'links_expire_at' in view.output && view.output.links_expire_at ? Date.parse(view.output.links_expire_at) : undefined;
  const next: JobRecord = { ...record, status: view.status, progress: view.progress, job: view, updatedAt: now };
  if (expires !== undefined && Number.isFinite(expires)) next.linksExpireAt = expires;
  else delete next.linksExpireAt;
  if (view.error) next.error = view.error;
  else delete next.error;
  if (view.status === 'expired' && !view.error) next.error = { code: 'expired', message: EXPIRED_MESSAGE };
  if (isTerminal(view.status)) next.finishedAt ??= now;
  return next;
}

function summarize(kind: JobKind, request: Blob | ModelJobInput): JobRecord['summary'] {
  if (kind === 'video') {
    const file = request as Blob;
    return { name: file instanceof File ? file.name : 'video', bytes: file.size };
  }
  const r = request as ModelJobInput;
  return { mode: r.mode, quality: r.quality ?? 'standard', ...(r.prompt ? { prompt: r.prompt.slice(0, 300) } : {}), ...(r.images ? { images: r.images.length } : {}) };
}
