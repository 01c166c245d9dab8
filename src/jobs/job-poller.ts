/**
 * `JobPoller`: creates jobs, records them, and polls them to the end, across reloads and tabs. It
 * uses the parts that live their own lifetimes: job-sender.ts (one creating request),
 * job-polling.ts (one job's polling loop), job-takeover.ts (a job whose sender is gone),
 * poll-cadence.ts (the waits of one job's polling loop), job-tabs.ts (the cross-tab locks and
 * channel), job-listeners.ts (who hears in this tab), job-records.ts (how a record changes).
 *
 * - Cadence per kind (video every few seconds backing off to ~30 s, 3D about every 3 s), slower in
 *   hidden tabs and immediate when the tab shows again; Retry-After is honoured.
 * - Across tabs, one tab polls a job (a Web Lock per job) and posts each update on a
 *   BroadcastChannel; the others listen. When the polling tab closes, its lock is released and a
 *   waiting tab takes over.
 * - `resume()` on page load polls every unfinished job again and sends again, with the same
 *   Idempotency-Key, any job whose creation was cut (a reload mid-upload) or whose answer was
 *   lost: the API replays the original job and charges nothing twice. It waits for the job's
 *   creation lock first, so a job still held by a page going away is taken over the moment that
 *   page lets go, whenever this page asked. A job it cannot send again (its request was never kept,
 *   or the browser no longer has the kept video) ends `failed` with the engine's code
 *   (`interrupted`, `video_gone`), kept in the store, so every element showing it says so.
 * - A succeeded job that is still watched is polled again shortly before its download links
 *   expire, so the links in hand always work.
 * - The bytes of a creating upload (a resend after a reload included) go to `onUploadProgress`
 *   listeners in this tab only, from memory: never written to IndexedDB, never a `watch` change.
 */
import type { CreateOptions, MediaClient, ModelJobInput } from '../client/media-client.js';
import type { UploadProgress } from '../events/upload-progressed.js';
import { JobStore, isTerminal, type JobKind, type JobRecord } from './job-store.js';
import { DEFAULT_CADENCE, type Cadence } from './poll-cadence.js';
import { JobTabs } from './job-tabs.js';
import { Listeners, UploadFeed, distinct } from './job-listeners.js';
import { changeKey, summarize } from './job-records.js';
import { pollLoop, pollOnce, type PollContext } from './job-polling.js';
import { sendJob } from './job-sender.js';
import { takeOverCreating, type TakeOverContext } from './job-takeover.js';

export { DEFAULT_CADENCE, type Cadence } from './poll-cadence.js';

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
  readonly #tabs: JobTabs;
  readonly #listeners = new Listeners<JobRecord>('a job listener');
  readonly #uploads = new UploadFeed();
  readonly #loops = new Map<string, AbortController>();
  readonly #disposed = new AbortController();
  /** What sending, polling and taking over read of this poller. */
  readonly #ctx: PollContext & TakeOverContext;
  /** Jobs this page is waiting to take over (scope and id), so a second resume() waits with the first. */
  readonly #takingOver = new Set<string>();

  constructor(client: MediaClient, options: JobPollerOptions = {}) {
    this.client = client;
    this.store = options.store ?? new JobStore();
    this.#tabs = new JobTabs(options.channel ?? 'mediakit-jobs', (scope, record) => void this.#heard(scope, record));
    this.#ctx = {
      client,
      store: this.store,
      uploads: this.#uploads,
      notify: (r) => this.#notify(r),
      update: (scope, id, change) => this.#update(scope, id, change),
      cadence: { ...DEFAULT_CADENCE, ...options.cadence },
      hiddenFactor: options.hiddenFactor ?? 4,
      margin: options.linkRefreshMarginMs ?? 60_000,
      tabs: this.#tabs,
      watched: (id) => this.#listeners.has(id),
      ensureLoop: (id) => this.#ensureLoop(id),
      restartLoop: (id) => this.#restartLoop(id),
    };
  }

  /**
   * Creates a job and records it. Resolves with the record once the job exists (after the
   * upload); watch it for progress. A refusal (bad input, no credits) leaves no record.
   */
  async create(
    kind: 'video',
    request: Blob,
    options?: CreateOptions & { summary?: JobRecord['summary'] },
  ): Promise<JobRecord>;
  async create(
    kind: 'model',
    request: ModelJobInput,
    options?: CreateOptions & { summary?: JobRecord['summary'] },
  ): Promise<JobRecord>;
  async create(
    kind: JobKind,
    request: Blob | ModelJobInput,
    options: CreateOptions & { summary?: JobRecord['summary'] } = {},
  ): Promise<JobRecord> {
    const scope = await this.#scope(options.signal);
    const key = options.idempotencyKey ?? crypto.randomUUID();
    const now = Date.now();
    const record: JobRecord = {
      id: key,
      scope,
      kind,
      idempotencyKey: key,
      summary: options.summary ?? summarize(kind, request),
      createdAt: now,
      updatedAt: now,
      status: 'creating',
      progress: 0,
      request,
    };
    // Held while sending, so another tab's resume() never takes this upload for a cut one.
    return this.#tabs.creating(scope, key, () => sendJob(this.#ctx, record, options));
  }

  /**
   * Calls `listener` with the job's record now and once per change, polling it (or listening to
   * the tab that does) until it ends. A change is a new status, progress, handle, error, output or
   * link expiry; a poll that only re-signs the same links is not one. Returns the function that
   * stops watching.
   */
  watch(id: string, listener: JobListener): () => void {
    // The same record reaches a watcher by several paths (the store on watch, the loop's start,
    // a poll, another tab's post): each listener hears a given state once.
    const deliver = distinct(listener, changeKey);
    let watching = true;
    const remove = this.#listeners.add(id, deliver);
    void this.#scope()
      .then((scope) => this.store.get(scope, id))
      .then((r) => r && watching && deliver(r))
      .catch(() => undefined);
    this.#ensureLoop(id);
    return () => {
      if (!watching) return;
      watching = false;
      if (remove()) {
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
    return this.#uploads.listen(id, listener);
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
    return pollOnce(this.#ctx, record, signal);
  }

  /** Drops a job from this browser's list (the job itself is not cancelled: the API has no cancel). */
  async forget(id: string): Promise<void> {
    await this.store.delete(await this.#scope(), id);
  }

  /**
   * On page load: prunes old finished jobs, polls every unfinished job to its end, and takes over
   * every job still being created whose sender is gone (a reload cut its upload, or its answer was
   * lost): once no tab holds its creation lock, it is sent again with its key, or, where it cannot
   * be, ends `failed` saying why. Resolves with this user's jobs (as read, before any takeover).
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
      if (record.status === 'creating' && !record.handle)
        this.#takeOver(record, signal ?? this.#disposed.signal).catch((err: unknown) => {
          if (!(signal ?? this.#disposed.signal).aborted)
            console.warn('[mediakit] could not send a job again; it stays for the next visit', err);
        });
    }
    return records;
  }

  /** Stops polling and listening (the page is going away, or tests). */
  dispose(): void {
    this.#disposed.abort();
    for (const c of this.#loops.values()) c.abort();
    this.#loops.clear();
    this.#listeners.clear();
    this.#uploads.clear();
    this.#tabs.close();
  }

  #scope(signal?: AbortSignal): Promise<string> {
    return this.client.scope({ signal: signal ?? this.#disposed.signal });
  }

  /** A record another tab posted. */
  async #heard(scope: string, record: JobRecord): Promise<void> {
    if (scope !== (await this.#scope().catch(() => undefined))) return;
    this.#notify(record);
    // A job created in another tab while we waited: poll it (or wait for that tab's lock).
    if (record.handle && !isTerminal(record.status) && this.#listeners.has(record.id)) this.#ensureLoop(record.id);
  }

  /** Once no tab holds the job's creation lock (a page going away holds it until gone): job-takeover.ts. */
  async #takeOver(record: JobRecord, signal: AbortSignal): Promise<void> {
    const { scope, id } = record;
    const key = `${scope}\n${id}`;
    if (this.#takingOver.has(key)) return;
    this.#takingOver.add(key);
    try {
      await this.#tabs.takeOver(scope, id, signal, () => takeOverCreating(this.#ctx, scope, id, signal));
    } finally {
      this.#takingOver.delete(key);
    }
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
        this.#tabs.polling(scope, id, signal, () => pollLoop(this.#ctx, scope, id, signal)),
      )
      .catch(() => undefined)
      .finally(() => {
        if (this.#loops.get(id) === controller) this.#loops.delete(id);
      });
  }

  async #update(scope: string, id: string, change: (r: JobRecord) => JobRecord): Promise<JobRecord | undefined> {
    const next = await this.store.patch(scope, id, change);
    if (next) {
      this.#tabs.post(scope, next);
      this.#notify(next);
    }
    return next;
  }

  #notify(record: JobRecord): void {
    this.#listeners.emit(record.id, record);
  }
}
