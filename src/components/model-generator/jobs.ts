/**
 * `ModelJobsController`: the job <model-generator> shows and the sending of a new one, put
 * together from the shared controllers it owns. A send goes through the RequestController (one
 * Idempotency-Key per input, so a double click or a retry after a lost answer is charged once; the
 * abort; the 429 countdown; the page's one ticker for the elapsed clock) to the JobController;
 * what was sent is kept for "same again" (its seed) and "variation" (a new seed), and the first
 * photo's thumbnail for its history card. A job is adopted by id or handle (from `job-id`, a
 * history card, or the unfinished one a reload left); the JobHistoryController's list is kept in
 * step, and a succeeded job's model is loaded (ModelResultController) and its turntable video
 * plays while it is on screen (TurntableController). With `notify`, a user who is not looking
 * hears when the job ends (AwayController, loaded only once `notify` is set).
 *
 * The element's value follows the job shown (value.ts): a running value once the job exists, and
 * the succeeded one committed (its files kept) when it succeeds. A value set from outside is shown
 * as it is when its model is kept (no job, no API call), else its job is followed by its handle.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ModelJob } from '../../api/index.js';
import type { MediaClient, ModelJobInput } from '../../client/media-client.js';
import { JobController } from '../../jobs/job-controller.js';
import { jobDetail } from '../../events/job-events.js';
import { isTerminal, type JobRecord } from '../../jobs/job-store.js';
import { focusFirst, isAbort } from '../../internal/small.js';
import type { AnnouncerController } from '../shared/announcer.js';
import type { AwayController } from '../shared/away.js';
import { jobErrorText } from '../shared/job-error.js';
import { JobHistoryController, resumesUnfinished, type ResumeHost } from '../shared/job-history.js';
import type { LocalizeController } from '../shared/localize.js';
import { RequestController } from '../shared/request-controller.js';
import type { ResultValueController } from '../shared/result-value.js';
import { ModelResultController } from './model-result.js';
import type { PhotoListController } from './photo-list.js';
import { absoluteUrl, againInput, inputOf, summaryOf } from './request.js';
import { TurntableController } from './turntable.js';
import { shownModel } from './shown-model.js';
import type { JobView, ModelGeneratorStatus, Strings } from './types.js';
import { inputOfValue, keepable, recordFor, toValue, type ModelValue } from './value.js';

type Host = ReactiveControllerHost &
  HTMLElement &
  ResumeHost & { notify: boolean; jobId: string; prompt: string; readonly renderRoot: ParentNode };

export interface ModelJobsOptions {
  t: LocalizeController<Strings>;
  announce: AnnouncerController;
  client(): MediaClient;
  photos: PhotoListController;
  /** The element's value. */
  results: ResultValueController<ModelValue>;
  /** A job is queued or processing: its elapsed clock ticks. */
  running(): boolean;
  /** Sending failed (the request, not the job); `cancelled` when the user cancelled it. */
  onFail(error: unknown, cancelled: boolean): void;
  /** A job is about to be sent or shown, or none: the host drops what the last one left (its timings, its error, its notice). */
  onShow(): void;
}

export class ModelJobsController implements ReactiveController {
  readonly host: Host;
  readonly jobs: JobController<'model'>;
  readonly request: RequestController;
  readonly history: JobHistoryController;
  readonly result: ModelResultController;
  /** Plays the result's turntable video while it is on screen. */
  readonly turntable: TurntableController;
  /** The request last sent from here (undefined after a reset or an adopted job). */
  lastInput: ModelJobInput | undefined;
  /** The job shown ended while the page was closed (its mk-succeeded said `whileAway`). */
  away = false;
  /** A value set from outside whose model is kept: shown as it is, with no job. */
  restored: ModelValue | undefined;
  readonly #o: ModelJobsOptions;
  #notifier: AwayController | undefined;
  /** The job of a value set from outside, followed by its handle; `commit`: its end is a new result (it was running). */
  #following: { handle: string; commit: boolean } | undefined;

  constructor(host: Host, options: ModelJobsOptions) {
    this.host = host;
    this.#o = options;
    const { t, client } = options;
    this.jobs = new JobController(host, { kind: 'model', client });
    this.request = new RequestController(host, { running: options.running });
    this.history = new JobHistoryController(host, {
      kind: 'model',
      client,
      onRestored: (records) => this.#restored(records),
    });
    this.result = new ModelResultController(host);
    this.turntable = new TurntableController(host);
    host.addController(this);
    host.addEventListener('mk-job-created', (e) => {
      // A running job is the value (a finished one adopted commits when it succeeds, just after).
      if (!e.detail.handle || isTerminal(e.detail.status) || this.#follows(e.detail)) return;
      // Cleared first: the last model's keeping, if still out, must not land over this job's value.
      options.results.clear();
      options.results.update(toValue(e.detail));
    });
    host.addEventListener('mk-succeeded', (e) => {
      const record = jobDetail(e);
      if (!record) return;
      this.away = record.whileAway;
      this.#notifier?.finished(t.term('mgNotifyTitle'), String(record.summary['prompt'] ?? ''));
      if (!this.#follows(record) || this.#following?.commit) this.#commit(record);
      host.requestUpdate();
    });
    host.addEventListener('mk-failed', (e) => {
      // A job's end; a refused request made none (its failure is the error panel's).
      const record = jobDetail(e);
      if (!record) return;
      this.#notifier?.finished(t.term('mgNotifyFailedTitle'), jobErrorText(t, record.error));
      // A job started or chosen here: its running value is gone. A value set from outside stays the site's.
      if (!this.#follows(record) && options.results.value?.job === record.handle) options.results.update(null);
    });
  }

  /** The job shown, as last seen. */
  get record(): JobRecord | undefined {
    return this.jobs.record;
  }

  /** A job (running or finished) or a kept model is on screen, or a job is being sent. */
  get showing(): boolean {
    return this.request.busy || this.jobs.record !== undefined || this.restored !== undefined || !!this.#following;
  }

  /** The host's phase: sending, else the shown job's (or kept model's), else `ready` or `idle` as its input is checked or not. */
  phase(inputReady: boolean): ModelGeneratorStatus {
    if (this.request.busy) return 'sending';
    const record = this.jobs.record;
    if (record)
      return record.status === 'creating' ? 'resending' : record.status === 'expired' ? 'failed' : record.status;
    if (this.restored) return 'succeeded';
    // A value's job before its first answer.
    if (this.#following) return 'queued';
    return inputReady ? 'ready' : 'idle';
  }

  /** An answer's URL made absolute against the client's endpoint, or '' when it may not be rendered. */
  readonly absolute = (url: string): string => absoluteUrl(url, this.#o.client().endpoint);

  hostUpdate(): void {
    if (this.host.notify && !this.#notifier)
      void import('../shared/away.js').then((m) => (this.#notifier ??= new m.AwayController(this.host)));
    const record = this.jobs.record;
    this.history.track(record);
    if (record?.status === 'succeeded' && !this.result.has(record))
      void this.result.load(record, this.#o.client(), () => this.jobs.refresh());
    const kept = this.restored?.asset?.url;
    if (!record && kept && !this.result.has(kept)) void this.result.show(kept);
  }

  /**
   * Shows a value set from outside (the host stopped what ran): a kept model as it is, with no job
   * and no API call; else (running, or its files not kept) its job, followed by its handle.
   */
  restore(value: ModelValue): void {
    if (value.status === 'succeeded' && value.asset) {
      this.restored = value;
      // "Same again" needs the request: only a description can be sent again without its photos.
      this.lastInput = inputOfValue(value);
      this.host.requestUpdate();
      return;
    }
    const handle = value.job!;
    this.#following = { handle, commit: value.status === 'running' };
    this.host.requestUpdate();
    const resumed = value.status === 'running';
    recordFor(value, this.#o.client()).then(
      (id) => void (this.#following?.handle === handle && this.jobs.adopt(id, { resumed })),
      (err: unknown) => {
        if (this.#following?.handle !== handle) return;
        this.#following = undefined;
        this.#o.onFail(err, false);
        this.host.requestUpdate();
      },
    );
  }

  /** Sends a job for `input` (the host checked it). */
  async send(input: ModelJobInput): Promise<void> {
    const { photos } = this.#o;
    this.#notifier?.askPermission();
    this.#forgetShown();
    this.#o.announce.resetProgress();
    const summary = summaryOf(input, photos);
    const first = input.mode === 'image' ? photos.photos[0]?.source : undefined;
    try {
      const record = await this.request.send(({ key, signal, onWait }) =>
        this.jobs.start(input, { idempotencyKey: key, signal, summary, onWait }),
      );
      this.lastInput = input;
      void this.result.keepThumb(record, first);
    } catch (err) {
      this.#o.onFail(err, isAbort(err));
    }
  }

  /** Makes the shown model again (a new request, so a new key): with its seed, or for a variation with a new one. */
  async again(variation: boolean): Promise<void> {
    const seed = (this.jobs.record?.job as ModelJob | undefined)?.seed ?? this.restored?.seed;
    const input = this.request.busy ? undefined : againInput(this.lastInput, this.jobs.record, variation, seed);
    if (!input) return;
    this.request.forget();
    await this.send(input);
  }

  /** Opens a recent job from the list, as every job element does: the value is cleared (`change`), and the job shown becomes the value once it has succeeded. */
  open(id: string): void {
    this.#o.results.remove();
    this.adopt(id);
  }

  /** Shows and follows a job by id or handle (known on this device or not). */
  adopt(id: string): void {
    const known = this.history.find(id);
    this.#forgetShown();
    this.lastInput = undefined;
    this.jobs.adopt(known?.id ?? id, { resumed: known !== undefined && !isTerminal(known.status) });
  }

  /** Stops showing the job (it goes on, and stays in the list); `forget` also forgets the request last sent. */
  clear(forget = false): void {
    this.#forgetShown();
    this.jobs.clear();
    if (forget) this.lastInput = undefined;
  }

  /**
   * Stops what runs and forgets photos, description and the job shown (which goes on, in the list),
   * as the host's `reset()` does; then shows `then`, a value set from outside.
   */
  stop(then?: ModelValue | null): void {
    this.request.cancel();
    this.clear(true);
    this.#o.photos.clear();
    this.host.prompt = '';
    this.request.forget();
    if (then) this.restore(then);
  }

  /** Back to the form with the same photos or description (the job goes on, in the list), focus on its first control: the user let the model go. */
  edit(): void {
    this.#o.results.remove();
    this.clear();
    void this.host.updateComplete.then(() => focusFirst(this.host.renderRoot, '[role="tab"][aria-selected="true"]'));
  }

  /** What the job view shows of the job: the job, its model (its URLs made absolute, its turntable), its progress announcer, a 429 countdown, the description it was made from, and whether it can be made again. */
  view(): Pick<
    JobView,
    | 'record'
    | 'model'
    | 'result'
    | 'waitSeconds'
    | 'away'
    | 'prompt'
    | 'canAgain'
    | 'absolute'
    | 'announce'
    | 'turntable'
  > {
    const record = this.jobs.record;
    return {
      record,
      model: shownModel(record, this.restored, this.result, this.absolute),
      absolute: this.absolute,
      announce: this.#o.announce,
      turntable: this.turntable.ref,
      result: this.result,
      waitSeconds: this.request.waitSeconds,
      away: this.away,
      prompt: String(record?.summary['prompt'] ?? this.restored?.prompt ?? this.lastInput?.prompt ?? ''),
      // Its request is known: sent from here, or a description kept with the record or the value.
      canAgain: this.lastInput !== undefined || inputOf(record) !== undefined,
    };
  }

  /** Whether `record` is the job of a value set from outside. */
  #follows(record: JobRecord): boolean {
    return record.handle !== undefined && this.#following?.handle === record.handle;
  }

  /** A job succeeded here (or was chosen): its value is committed, its files kept. */
  #commit(record: JobRecord): void {
    if (!record.handle || !record.job) return;
    const { files, place } = keepable(record, this.#o.client());
    this.#o.results.commit(toValue(record), files, place);
  }

  #forgetShown(): void {
    this.#o.onShow();
    this.result.clear();
    this.away = false;
    this.restored = undefined;
    this.#following = undefined;
  }

  /**
   * This device's jobs were read: show the one asked for, else (a standalone element only,
   * `resumesUnfinished`) resume an unfinished one; read the cards' thumbnails.
   */
  #restored(records: readonly JobRecord[]): void {
    // A value set from outside is shown rather than the job asked for or left unfinished.
    const free = !this.restored && !this.#following;
    if (free && this.host.jobId) this.adopt(this.host.jobId);
    else if (free && !this.jobs.record && !this.request.busy && resumesUnfinished(this.host)) {
      const unfinished = records.find((r) => !isTerminal(r.status));
      if (unfinished) this.jobs.adopt(unfinished.id, { resumed: true });
    }
    void this.result.readThumbs(records.slice(0, 8)).catch(() => undefined);
  }
}
