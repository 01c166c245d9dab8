/**
 * `JobRunController`: the one job flow of the job elements (<model-generator>,
 * <video-to-3d-uploader>). It sends a job; adopts one by id or handle (from `job-id`, a recent
 * card, a value's), `resumed` when this browser knew it unfinished; opens a recent job (the value
 * is cleared, `change`); on the first read of this browser's job list shows the job asked for
 * (`job-id`), else, only where `resumesUnfinished(host)` and over nothing the user is doing, the
 * unfinished one a reload cut; keeps the recent list in step with the job shown; and shows a value
 * set from outside: a kept result as it is, with no job and no API call, else its job, followed by
 * its handle (added to this browser's job store and polled once when this browser never saw it).
 *
 * What differs is configured: the job kind, the engine (job-engine.ts: the job bridge, the request
 * controller, how a record becomes the value and what of it is kept) and when it loads (as the
 * element connects, or with its first file or job), and how a value's kept result is shown. This
 * half is all a page's first load holds: what needs the engine waits for it.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { MediaClient } from '../../client/media-client.js';
import type { JobController } from '../../jobs/job-controller.js';
import { isTerminal } from '../../jobs/job-status.js';
import type { JobKind, JobRecord } from '../../jobs/job-store.js';
import { JobHistoryController, resumesUnfinished, type ResumeHost } from './job-history.js';
import type { RequestController, SendOptions } from './request-controller.js';
import type { ResultValueBase, ResultValueController } from './result-value.js';

/** What sends and follows jobs (job-engine.ts makes it). */
export interface JobEngine<K extends JobKind = JobKind, V extends ResultValueBase = ResultValueBase> {
  jobs: JobController<K>;
  request: RequestController;
  /** A job is being sent. */
  busy(): boolean;
  /** Sends a job for `input` through the request controller; resolves once the job exists, rejects as the send does. */
  send(
    input: Parameters<JobController<K>['start']>[0],
    summary: JobRecord['summary'],
    options?: SendOptions,
  ): Promise<JobRecord>;
  /** Adopts the job `id` (`known`: this browser's record of it); `refresh`: one it saw succeed is asked for again. */
  adopt(id: string, known: JobRecord | undefined, refresh?: boolean): void;
  /**
   * Follows a value's job while `current()`: its record in this browser's list (made and polled
   * once when it never saw it), adopted; `refresh` as for `adopt`.
   */
  follow(value: V, current: () => boolean, refresh?: boolean): Promise<void>;
}

type Host = ReactiveControllerHost & HTMLElement & ResumeHost & { jobId: string; value: string };

export interface JobRunOptions<V extends ResultValueBase, K extends JobKind, E extends JobEngine<K, V>> {
  kind: K;
  client(): MediaClient;
  /** The element's value. */
  results: ResultValueController<V>;
  /** Loads the engine (on first use, or as the element connects). */
  load(run: JobRunController<V, K, E>): Promise<E>;
  /** Shows a value's kept result (no job, no API call), once the engine is there; else the host reads `kept`. */
  showKept?(value: V, engine: E): void;
  /** A job is about to be sent or shown, or none: the host drops what the last one left. */
  onShow?(): void;
  /** A value's job could not be followed (no session, offline): the value stays as it is. */
  onFollowFailed?(error: unknown): void;
  /** The user is at work on something (a file chosen): no unfinished job is resumed over it. */
  busy?(): boolean;
  /** This device's jobs were read (after the one to show was chosen). */
  onRestored?(records: readonly JobRecord[]): void;
  /** Adopting a job this browser saw succeed asks once whether it still exists (and gets fresh links). */
  refreshFinished?: boolean;
}

export class JobRunController<
  V extends ResultValueBase,
  K extends JobKind = JobKind,
  E extends JobEngine<K, V> = JobEngine<K, V>,
> implements ReactiveController {
  readonly host: Host;
  readonly history: JobHistoryController;
  /** What sends and follows jobs, once made or loaded. */
  run: E | undefined;
  /** A value set from outside whose result is kept: shown as it is, with no job. */
  kept: V | undefined;
  /** The element's value. */
  readonly results: ResultValueController<V>;
  readonly #o: JobRunOptions<V, K, E>;
  #loading: Promise<E> | undefined;
  /** The job of a value set from outside, followed by its handle; `commit`: its end is a new result (it was running). */
  #following: { handle: string; commit: boolean } | undefined;
  /** Counts what was shown, so a slower earlier answer never lands over a later choice. */
  #shown = 0;

  constructor(host: Host, options: JobRunOptions<V, K, E>) {
    this.host = host;
    this.#o = options;
    this.results = options.results;
    this.history = new JobHistoryController(host, {
      kind: options.kind,
      client: options.client,
      onRestored: (records) => this.#restored(records),
    });
    host.addController(this);
  }

  /** The job shown, as last seen. */
  get record(): JobRecord | undefined {
    return this.run?.jobs.record;
  }

  /** A job is being sent. */
  get busy(): boolean {
    return !!this.run?.busy();
  }

  /** A value's job is followed (before and while it shows). */
  get following(): boolean {
    return this.#following !== undefined;
  }

  /** Whether `record` is the job of a value set from outside: undefined if not, else whether its end is a new result. */
  follows(record: JobRecord): boolean | undefined {
    const f = this.#following;
    return record.handle !== undefined && f?.handle === record.handle ? f.commit : undefined;
  }

  /** The engine, loaded once (a failed load is tried again on the next call). */
  running(): Promise<E> {
    if (this.run) return Promise.resolve(this.run);
    return (this.#loading ??= this.#o.load(this).then(
      (engine) => (this.run ??= engine),
      (err: unknown) => ((this.#loading = undefined), Promise.reject(err)),
    ));
  }

  hostUpdate(): void {
    this.history.track(this.record);
  }

  /** Sends a job for `input` (the host checked it); resolves once the job exists, rejects as the send does. */
  async send(...args: Parameters<JobEngine<K, V>['send']>): Promise<JobRecord> {
    return (this.run ?? (await this.running())).send(...args);
  }

  /** Shows and follows a job by id or handle (known on this device or not) instead of what is shown. */
  adopt(id: string): void {
    const shown = this.forget();
    this.#with((run) => shown === this.#shown && run.adopt(id, this.history.find(id), this.#o.refreshFinished));
  }

  /** Opens a recent job from the list: the value is cleared (`change`), and the job shown becomes the value once it has succeeded. */
  open(id: string): void {
    this.results.remove();
    this.adopt(id);
  }

  /** Stops showing the job (it goes on, and stays in the list). */
  clear(): void {
    this.forget();
    this.run?.jobs.clear();
  }

  /**
   * Shows a value set from outside (the host stopped what ran): a kept result as it is, with no job
   * and no API call; else (running, or its files not kept) its job, followed by its handle.
   */
  restore(value: V): void {
    const shown = this.#shown;
    if (value.status === 'succeeded' && value.asset) {
      this.kept = value;
      const { showKept } = this.#o;
      if (showKept) void this.running().then((run) => shown === this.#shown && showKept(value, run));
      this.host.requestUpdate();
      return;
    }
    const handle = value.job;
    if (!handle) return;
    this.#following = { handle, commit: value.status === 'running' };
    this.host.requestUpdate();
    const current = () => shown === this.#shown;
    this.running()
      .then((run) => run.follow(value, current, this.#o.refreshFinished))
      .catch((err: unknown) => {
        if (!current()) return;
        this.#following = undefined;
        this.#o.onFollowFailed?.(err);
        this.host.requestUpdate();
      });
  }

  /** Runs `fn` with the engine: at once when it is there, else once loaded. */
  #with(fn: (run: E) => unknown): void {
    if (this.run) fn(this.run);
    else void this.running().then(fn);
  }

  /** Forgets what was shown (a kept result, a value's job) and tells the host (`onShow`); answers the new count. */
  forget(): number {
    this.kept = undefined;
    this.#following = undefined;
    this.#o.onShow?.();
    return ++this.#shown;
  }

  /**
   * This device's jobs were read: show the one asked for, else (a standalone element only,
   * `resumesUnfinished`) resume an unfinished one, over nothing the user or the site is doing.
   */
  #restored(records: readonly JobRecord[]): void {
    const { host } = this;
    // A value set from outside is shown rather than the job asked for or left unfinished.
    const free = !this.kept && !this.#following;
    const unfinished = resumesUnfinished(host) ? records.find((r) => !isTerminal(r.status)) : undefined;
    if (free && host.jobId) this.adopt(host.jobId);
    else if (free && unfinished && !host.value)
      this.#with(
        (run) =>
          host.value || run.jobs.record || run.busy() || this.#o.busy?.() || run.adopt(unfinished.id, unfinished),
      );
    this.#o.onRestored?.(records);
  }
}
