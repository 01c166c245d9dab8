/**
 * `JobController`: how an element creates or adopts a job and renders it. It keeps `record` (the
 * job as last seen) and `upload` (bytes sent, also while a job adopted after a reload is sent
 * again) current, requests a host update on every change, and dispatches mk-upload-progressed,
 * mk-job-created, mk-job-progressed, mk-succeeded and mk-failed from the host. `creating` says whether a creation (the checks and the upload)
 * is under way; an element's RequestController owns the send around it (its key, its abort, the
 * 429 countdown), so the creation is a plain awaited call rather than a @lit/task Task: the Task
 * added nothing a RequestController does not, and as a lazy chunk's import it cost the uploader's
 * page a 2.7 KiB gzip chunk of its own (Task imports `@lit/reactive-element` by its bare name).
 *
 * Leaving the page stops the watching and aborts an upload in progress (checked a microtask
 * later, so moving the element in the DOM changes nothing); coming back watches the job again.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { reasonOf, type ModelJob } from '../api/index.js';
import { JobEvent, jobEventDetail, type ModelResult } from '../events/job-events.js';
import { FailedEvent, SucceededEvent } from '../events/outcome.js';
import { UploadProgressedEvent, type UploadProgress } from '../events/upload-progressed.js';
import type { CreateOptions, MediaClient, ModelJobInput } from '../client/media-client.js';
import { JobPoller } from './job-poller.js';
import { isTerminal, type JobKind, type JobRecord } from './job-store.js';

type Host = ReactiveControllerHost & HTMLElement;

export interface StartOptions {
  /** Reuse this key (the same request sent again is never charged twice). */
  idempotencyKey?: string;
  /** What the job list shows for it (file name, prompt, quality). */
  summary?: JobRecord['summary'];
  /** Told before the client waits out a 429 by itself. */
  onWait?: CreateOptions['onWait'];
  /** Aborting it cancels the upload, as `cancel()` does (a RequestController's send signal). */
  signal?: AbortSignal;
}

export interface JobControllerOptions {
  kind: JobKind;
  /** The client to use (read when a job starts, so an element can change its endpoint). */
  client: () => MediaClient;
  /** Default: the page's poller for that client. */
  poller?: (client: MediaClient) => JobPoller;
}

export class JobController<K extends JobKind = JobKind> implements ReactiveController {
  readonly host: Host;
  /** The job as last seen, or undefined before one is created or adopted. */
  record: JobRecord | undefined;
  /** Progress of the upload in flight: this controller's own, or the resend of the job it shows. Undefined when none is. */
  upload: UploadProgress | undefined;
  readonly #options: JobControllerOptions;
  /** The creation under way (checks and upload), to abort it. */
  #creating: AbortController | undefined;
  #poller: JobPoller | undefined;
  #stopWatching: (() => void) | undefined;
  #lastStatus: JobRecord['status'] | undefined;
  /** Adopted after a reload while unfinished: its end, when it comes, happened while away. */
  #awayPending = false;

  constructor(host: Host, options: JobControllerOptions & { kind: K }) {
    this.host = host;
    this.#options = options;
    host.addController(this);
  }

  /** Whether a job is being created (checked and uploaded) by `start()` now. */
  get creating(): boolean {
    return this.#creating !== undefined;
  }

  /** Whether the job is still running (created or being created, not finished). */
  get active(): boolean {
    return this.creating || (this.record !== undefined && !isTerminal(this.record.status));
  }

  /** Creates a job; resolves with its record after the upload (or rejects with the refusal). */
  async start(request: K extends 'video' ? Blob : ModelJobInput, options: StartOptions = {}): Promise<JobRecord> {
    this.#unwatch();
    this.record = undefined;
    this.#lastStatus = undefined;
    this.#awayPending = false;
    this.upload = undefined;
    const { signal: outer, idempotencyKey, summary, onWait } = options;
    // A second start replaces the first, whose upload stops (its key makes a later retry a replay).
    this.#creating?.abort();
    const creating = (this.#creating = new AbortController());
    const stop = () => creating.abort(outer!.reason);
    outer?.addEventListener('abort', stop, { once: true });
    if (outer?.aborted) stop();
    this.host.requestUpdate();
    try {
      const poller = this.#pollerNow();
      const call = {
        signal: creating.signal,
        onProgress: (p: UploadProgress) => this.#uploaded(p),
        ...(idempotencyKey ? { idempotencyKey } : {}),
        ...(summary ? { summary } : {}),
        ...(onWait ? { onWait } : {}),
      };
      creating.signal.throwIfAborted();
      const record =
        this.#options.kind === 'video'
          ? await poller.create('video', request as Blob, call)
          : await poller.create('model', request as ModelJobInput, call);
      this.#show(record);
      this.#watch(record.id);
      return record;
    } finally {
      outer?.removeEventListener('abort', stop);
      if (this.#creating === creating) this.#creating = undefined;
      this.host.requestUpdate();
    }
  }

  /** Shows and follows a job created earlier (by id, from the store). */
  adopt(id: string, options: { resumed?: boolean } = {}): void {
    this.#unwatch();
    this.record = undefined;
    this.upload = undefined;
    this.#lastStatus = undefined;
    this.#awayPending = options.resumed === true;
    this.#watch(id);
  }

  /** Stops showing a job (it goes on; the store keeps it). */
  clear(): void {
    this.#creating?.abort();
    this.#unwatch();
    this.record = undefined;
    this.upload = undefined;
    this.#lastStatus = undefined;
    this.#awayPending = false;
    this.host.requestUpdate();
  }

  /** Aborts an upload in progress (nothing is charged for an upload that did not finish). */
  cancel(): void {
    this.#creating?.abort();
  }

  /** Polls now for fresh download links (before a download after a long pause). */
  async refresh(): Promise<JobRecord | undefined> {
    if (!this.record) return undefined;
    return this.#pollerNow().refresh(this.record.id);
  }

  hostConnected(): void {
    if (this.record && !this.#stopWatching) this.#watch(this.record.id);
  }

  hostDisconnected(): void {
    queueMicrotask(() => {
      if (this.host.isConnected) return;
      this.#creating?.abort();
      this.#unwatch();
    });
  }

  /** A succeeded model job's URL (absolute, against the client's endpoint), stats and seed, for mk-succeeded. */
  #modelResult(record: JobRecord): ModelResult | undefined {
    const job =
      record.kind === 'model' && record.status === 'succeeded' ? (record.job as ModelJob | undefined) : undefined;
    if (!job?.output) return undefined;
    return {
      url: new URL(job.output.model_url, this.#options.client().endpoint + '/').href,
      stats: job.output.stats,
      seed: job.seed,
    };
  }

  #pollerNow(): JobPoller {
    const client = this.#options.client();
    if (this.#poller?.client !== client) this.#poller = (this.#options.poller ?? JobPoller.for)(client);
    return this.#poller;
  }

  #watch(id: string): void {
    this.#unwatch();
    const poller = this.#pollerNow();
    const stopRecords = poller.watch(id, (r) => this.#show(r));
    // A job still being created (sent again after a reload) reports its bytes apart from its record.
    const stopBytes = poller.onUploadProgress(id, (p) => this.#uploaded(p));
    this.#stopWatching = () => {
      stopRecords();
      stopBytes();
    };
  }

  #uploaded(progress: UploadProgress | undefined): void {
    this.upload = progress;
    if (progress) this.host.dispatchEvent(new UploadProgressedEvent(progress));
    this.host.requestUpdate();
  }

  #unwatch(): void {
    this.#stopWatching?.();
    this.#stopWatching = undefined;
  }

  #show(record: JobRecord): void {
    const before = this.#lastStatus;
    const moved = this.record === undefined || this.record.progress !== record.progress || record.status !== before;
    this.record = record;
    this.#lastStatus = record.status;
    if (!moved) return;
    // Adopted unfinished after a reload: an end shown first, or arriving with the first answers,
    // happened while away, whether the poller or the store answered first.
    const whileAway = this.#awayPending && isTerminal(record.status);
    if (before !== undefined || isTerminal(record.status)) this.#awayPending = false;
    const model = this.#modelResult(record);
    const extra = {
      whileAway,
      refunded: record.status === 'failed' && record.handle !== undefined,
      ...(model ? { model } : {}),
    };
    if (before === undefined && record.status !== 'creating')
      this.host.dispatchEvent(new JobEvent('mk-job-created', record, extra));
    if (record.status === 'succeeded' && before !== 'succeeded')
      this.host.dispatchEvent(new SucceededEvent(jobEventDetail(record, extra)));
    else if ((record.status === 'failed' || record.status === 'expired') && before !== record.status) {
      const reason = reasonOf(-1, record.error?.code ?? record.status);
      const params = record.error?.params ?? {};
      this.host.dispatchEvent(
        new FailedEvent({ ...jobEventDetail(record, { ...extra, reason, params }), reason, params }),
      );
    } else if (!isTerminal(record.status)) this.host.dispatchEvent(new JobEvent('mk-job-progressed', record));
    this.host.requestUpdate();
  }
}
