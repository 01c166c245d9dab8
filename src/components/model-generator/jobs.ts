/**
 * `ModelJobsController`: what <model-generator> adds to the kit's one job flow (JobRunController:
 * send, adopt, resume, history, the value). What was sent is kept for "same again" (its seed) and
 * "variation" (a new seed), and the first photo's thumbnail for its history card; a succeeded
 * job's model is loaded (ModelResultController), or a value's kept model shown from its URL, and
 * its turntable video plays while it is on screen (TurntableController). With `notify`, a user who
 * is not looking hears when the job ends (LazyAwayController). The element's phase is the job
 * flow's (sending, the job's, a kept model's) or its input's; announced, focused and timed
 * (PhaseController, PhaseTimingsController).
 */
import type { ReactiveControllerHost } from 'lit';
import type { ModelJob } from '../../api/index.js';
import type { MediaClient, ModelJobInput } from '../../client/media-client.js';
import { jobDetail } from '../../events/job-events.js';
import { focusFirst, isAbort } from '../../internal/small.js';
import type { AnnouncerController } from '../shared/announcer.js';
import type { FieldFacts } from '../shared/field.js';
import type { ResumeHost } from '../shared/job-history.js';
import { JobRunController } from '../shared/job-run.js';
import { LazyAwayController } from '../shared/lazy-away.js';
import type { LocalizeController } from '../shared/localize.js';
import { PhaseController } from '../shared/phase-controller.js';
import { PhaseTimingsController } from '../shared/phase-timings.js';
import type { RequestController } from '../shared/request-controller.js';
import type { ResultValueController } from '../shared/result-value.js';
import { ModelResultController } from './model-result.js';
import type { PhotoListController } from './photo-list.js';
import { absoluteUrl, againInput, inputOf, promptReady, summaryOf } from './request.js';
import { TurntableController } from './turntable.js';
import { shownModel } from './shown-model.js';
import {
  focusAfter,
  PHASES,
  SAY,
  SPANS,
  type JobView,
  type ModelGeneratorMode,
  type ModelGeneratorStatus,
  type Strings,
} from './types.js';
import { inputOfValue, keepable, summaryOfValue, toValue, type ModelValue } from './value.js';

type Host = ReactiveControllerHost &
  HTMLElement &
  ResumeHost & {
    notify: boolean;
    jobId: string;
    mode: ModelGeneratorMode;
    prompt: string;
    value: string;
    readonly renderRoot: ParentNode;
  };

/** What the job view shows of the job, from here. */
type ShownJob = Pick<JobView, 'record' | 'model' | 'result' | 'waitSeconds' | 'away' | 'prompt' | 'canAgain'> &
  Pick<JobView, 'absolute' | 'announce' | 'turntable'>;

export interface ModelJobsOptions {
  t: LocalizeController<Strings>;
  announce: AnnouncerController;
  client(): MediaClient;
  photos: PhotoListController;
  /** The element's value. */
  results: ResultValueController<ModelValue>;
  /** Shows the phase (the element's custom states). */
  states(names: readonly ModelGeneratorStatus[], now: ModelGeneratorStatus): void;
  /** Sending failed (the request, not the job); `cancelled` when the user cancelled it. */
  onFail(error: unknown, cancelled: boolean): void;
  /** A job is about to be sent or shown, or none: the host drops what the last one left (its error, its notice). */
  onShow(): void;
}

export class ModelJobsController extends JobRunController<ModelValue, 'model'> {
  declare readonly host: Host;
  readonly result: ModelResultController;
  readonly phases: PhaseController<ModelGeneratorStatus>;
  // User Timing: validate, upload, queue, process, first-frame (README "Performance timings").
  readonly timings: PhaseTimingsController<ModelGeneratorStatus>;
  /** Plays the result's turntable video while it is on screen. */
  readonly turntable: TurntableController;
  /** The request last sent from here (undefined after a reset or an adopted job). */
  lastInput: ModelJobInput | undefined;
  /** The job shown ended while the page was closed (its mk-succeeded said `whileAway`). */
  away = false;
  readonly #o: ModelJobsOptions;
  readonly #notifier: LazyAwayController;

  constructor(host: Host, options: ModelJobsOptions) {
    const { t, client, results } = options;
    super(host, {
      kind: 'model',
      client,
      results,
      // The engine (sending, polling) loads as the element connects: a page's first load holds none of it.
      load: async (run) =>
        (await import('../shared/job-engine.js')).jobEngine(host, run, {
          kind: 'model',
          client,
          running: () => this.phases.phase === 'queued' || this.phases.phase === 'processing',
          results,
          toValue,
          keep: (record) => keepable(record, client()),
          summary: summaryOfValue,
        }),
      onShow: () => {
        options.onShow();
        this.timings.clear();
        this.result.clear();
        this.away = false;
      },
      onFollowFailed: (err) => options.onFail(err, false),
      onRestored: (records) => void this.result.readThumbs(records.slice(0, 8)).catch(() => undefined),
    });
    this.#o = options;
    this.result = new ModelResultController(host);
    this.turntable = new TurntableController(host);
    this.#notifier = new LazyAwayController(host, (e, jobErrorText) =>
      e.type === 'mk-succeeded'
        ? [t.term('mgNotifyTitle'), String(e.detail.summary['prompt'] ?? '')]
        : [t.term('mgNotifyFailedTitle'), jobErrorText(t, e.detail.error)],
    );
    this.phases = new PhaseController<ModelGeneratorStatus>(host, {
      phases: PHASES,
      derive: () => this.phase(host.mode === 'prompt' ? promptReady(host.prompt) : options.photos.ready),
      states: options.states,
      announcer: options.announce,
      say: (now) => (now in SAY ? t.term(SAY[now as keyof typeof SAY]) : undefined),
      focus: focusAfter,
      freeFocus: true,
    });
    this.timings = new PhaseTimingsController(host, {
      tag: 'model-generator',
      phase: () => this.phases.phase,
      spans: { validate: () => options.photos.blocker() === 'checking', ...SPANS },
      endOn: { 'first-frame': 'mk-viewer-loaded' },
    });
    host.addEventListener('mk-succeeded', (e) => {
      const record = jobDetail(e);
      if (!record) return;
      this.away = record.whileAway;
      host.requestUpdate();
    });
  }

  /** Sends, with one Idempotency-Key per input (RequestController); undefined until the engine loaded. */
  get request(): RequestController | undefined {
    return this.run?.request;
  }

  hostConnected(): void {
    // The engine loads as the element connects (its first render never waits for it).
    void this.running().catch(() => undefined);
  }

  /** A job (running or finished) or a kept model is on screen, or a job is being sent. */
  get showing(): boolean {
    return this.busy || this.record !== undefined || this.kept !== undefined || this.following;
  }

  /** The host's phase: sending, else the shown job's (or kept model's), else `ready` or `idle` as its input is checked or not. */
  phase(inputReady: boolean): ModelGeneratorStatus {
    if (this.busy) return 'sending';
    const record = this.record;
    if (record)
      return record.status === 'creating' ? 'resending' : record.status === 'expired' ? 'failed' : record.status;
    if (this.kept) return 'succeeded';
    // A value's job before its first answer.
    if (this.following) return 'queued';
    return inputReady ? 'ready' : 'idle';
  }

  /** An answer's URL made absolute against the client's endpoint, or '' when it may not be rendered. */
  readonly absolute = (url: string): string => absoluteUrl(url, this.#o.client().endpoint);

  override hostUpdate(): void {
    super.hostUpdate();
    const record = this.record;
    if (record?.status === 'succeeded' && !this.result.has(record))
      void this.result.load(record, this.#o.client(), () => this.run!.jobs.refresh());
    const kept = this.kept?.asset?.url;
    if (!record && kept && !this.result.has(kept)) void this.result.show(kept);
  }

  /** Sends a job for `input` (the host checked it). */
  async start(input: ModelJobInput): Promise<void> {
    const { photos } = this.#o;
    this.#notifier.askPermission();
    this.forget();
    this.#o.announce.resetProgress();
    const first = input.mode === 'image' ? photos.photos[0]?.source : undefined;
    try {
      const record = await this.send(input, summaryOf(input, photos));
      this.lastInput = input;
      void this.result.keepThumb(record, first);
    } catch (err) {
      this.#o.onFail(err, isAbort(err));
    }
  }

  /** Cancels sending (costs nothing); a job already created goes on and stays in the list. */
  cancel(): void {
    if (!this.busy) return;
    // A cancelled phase is not a timing: the site's monitoring never sees it.
    this.timings.clear();
    this.request?.cancel();
  }

  /** Makes the shown model again (a new request, so a new key): with its seed, or for a variation with a new one. */
  async again(variation: boolean): Promise<void> {
    const seed = (this.record?.job as ModelJob | undefined)?.seed ?? this.kept?.seed;
    const input = this.busy ? undefined : againInput(this.lastInput, this.record, variation, seed);
    if (!input) return;
    this.request?.forget();
    await this.start(input);
  }

  /** Opens a recent job from the list (the value is cleared, `change`). */
  override open(id: string): void {
    this.lastInput = undefined;
    super.open(id);
  }

  /** Shows and follows a job by id or handle (known on this device or not). */
  override adopt(id: string): void {
    this.lastInput = undefined;
    super.adopt(id);
  }

  /** Stops showing the job (it goes on, and stays in the list); `forget` also forgets the request last sent. */
  override clear(forget = false): void {
    super.clear();
    if (forget) this.lastInput = undefined;
  }

  /**
   * Stops what runs and forgets photos, description and the job shown (which goes on, in the list),
   * as the host's `reset()` does; then shows `then`, a value set from outside.
   */
  stop(then?: ModelValue | null): void {
    this.request?.cancel();
    this.clear(true);
    this.#o.photos.clear();
    this.host.prompt = '';
    this.request?.forget();
    if (!then) return;
    // "Same again" needs the request: only a description can be sent again without its photos.
    if (then.status === 'succeeded' && then.asset) this.lastInput = inputOfValue(then);
    this.restore(then);
  }

  /** Back to the form with the same photos or description (the job goes on, in the list), focus on its first control: the user let the model go. */
  edit(): void {
    this.#o.results.remove();
    this.clear();
    void this.host.updateComplete.then(() => focusFirst(this.host.renderRoot, '[role="tab"][aria-selected="true"]'));
  }

  /** What field mode's box says of the element. */
  fieldFacts(error: unknown): FieldFacts {
    const { t, results } = this.#o;
    const v = results.value;
    const status = this.phases.phase;
    return {
      t,
      title: t.term('mgTitle'),
      detail: v ? v.prompt || t.term('mgModelFromPhotos', { count: v.images ?? 1 }) : undefined,
      preview: v?.poster?.url,
      icon: 'model',
      busy: ['sending', 'resending', 'queued', 'processing'].includes(status),
      failed: status === 'failed',
      jobError: this.record?.error?.code,
      error: error ?? this.result.error,
    };
  }

  /** What the job view shows of the job: the job, its model (its URLs made absolute, its turntable), its progress announcer, a 429 countdown, the description it was made from, and whether it can be made again. */
  view(): ShownJob {
    const record = this.record;
    return {
      record,
      model: shownModel(record, this.kept, this.result, this.absolute),
      absolute: this.absolute,
      announce: this.#o.announce,
      turntable: this.turntable.ref,
      result: this.result,
      waitSeconds: this.request?.waitSeconds ?? 0,
      away: this.away,
      prompt: String(record?.summary['prompt'] ?? this.kept?.prompt ?? this.lastInput?.prompt ?? ''),
      // Its request is known: sent from here, or a description kept with the record or the value.
      canAgain: this.lastInput !== undefined || inputOf(record) !== undefined,
    };
  }
}
