import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { TaskStatus } from '@lit/task';
import { COSTS, LIMITS, type ModelJob, type ModelQuality } from '../../api/index.js';
import type { ModelJobInput } from '../../client/media-client.js';
import { JobController } from '../../jobs/job-controller.js';
import { isTerminal, type JobRecord } from '../../jobs/job-store.js';
import { AnnouncerController } from '../shared/announcer.js';
import { AwayController } from '../shared/away.js';
import { CreditsController, renderCost } from '../shared/credits.js';
import { renderErrorPanel } from '../shared/error-panel.js';
import { FileIntakeController } from '../shared/file-intake.js';
import { LocalizeController } from '../shared/localize.js';
import { ProductElement } from '../shared/product-element.js';
import { sharedStrings, type SharedStrings } from '../shared/strings.js';
import { elementStyles, viewerFrame } from '../shared/styles.js';
import { modelGeneratorStyles } from './model-generator.styles.js';
import { renderJobView } from './job-view.js';
import { renderFormView } from './form-view.js';
import { renderHistory } from './parts.js';
import { ModelHistoryController } from './history.js';
import { ModelResultController } from './model-result.js';
import { ModelRunController } from './run.js';
import { PhotoListController } from './photo-list.js';
import { inputOf, promptReady, requestFor } from './request.js';
import { modelGeneratorStrings, type ModelGeneratorStrings } from './strings.js';
import { ModelTimingsController } from './timings.js';
import { TurntableController } from './turntable.js';
import { safeUrl } from '../../internal/safe-url.js';

void sharedStrings;
void modelGeneratorStrings;

export type ModelGeneratorStatus = 'idle' | 'ready' | 'creating' | 'resending' | 'queued' | 'processing' | 'succeeded' | 'failed';
export type ModelGeneratorMode = 'photos' | 'prompt';
const PHASES: readonly ModelGeneratorStatus[] = ['idle', 'ready', 'creating', 'resending', 'queued', 'processing', 'succeeded', 'failed'];
type Strings = ModelGeneratorStrings & SharedStrings;
const { maxPromptChars } = LIMITS.model;

/**
 * @summary From 1-6 photos or a short description to a 3D model (GLB): checks the input before spending, follows the job across reloads, shows the model turning with its statistics and turntable video, and makes it again by seed.
 * @tag model-generator
 *
 * Form value (with `name`): the model's download URL once it is made (a proxy link that expires; `job.handle` is the lasting reference).
 *
 * @slot top-up - Shown when the session has too few credits (a link or button to the site's top-up page).
 *
 * @event mk-file-select - A photo was chosen, dropped, pasted or taken; cancel it to veto the photo.
 * @event mk-job-created - The job exists (also after adopting one).
 * @event mk-job-progress - The job moved (queued, processing, progress).
 * @event mk-job-succeeded - The model is ready; `detail.model` holds `url` (the GLB), `stats` and `seed`; `detail.whileAway` says whether it finished while the page was closed.
 * @event mk-job-failed - The job failed; `detail.refunded` says whether the 2 credits came back.
 *
 * @csspart base - The card around everything.
 * @csspart tabs - The tab list (photos / description).
 * @csspart drop-zone - The area that takes dropped photos.
 * @csspart choose-button - Opens the file picker.
 * @csspart camera-button - Opens the camera (touch devices).
 * @csspart photos - The list of chosen photos.
 * @csspart photo - One chosen photo.
 * @csspart downscale-button - Makes an oversized photo smaller.
 * @csspart prompt - The description field.
 * @csspart counter - The character counter.
 * @csspart quality - The quality choice.
 * @csspart cost - The cost line.
 * @csspart generate-button - Starts the job.
 * @csspart cancel-button - Cancels sending.
 * @csspart progress - The progress bar.
 * @csspart reference - The reference image (description mode).
 * @csspart error - The error panel.
 * @csspart viewer - The <glb-viewer> showing the model.
 * @csspart stats - The statistics table.
 * @csspart turntable - The turntable video.
 * @csspart seed - The seed of the model shown.
 * @csspart download - The GLB download link.
 * @csspart again-button - Makes the same model again (same seed).
 * @csspart variation-button - Makes a variation (new seed).
 * @csspart history - The list of recent models.
 * @csspart history-card - One recent model.
 *
 * @cssproperty --mk-accent - Accent colour (buttons, progress). Default #2f5bea.
 * @cssproperty --mk-surface - Card background.
 * @cssproperty --mk-border - Borders.
 * @cssproperty --mk-radius - Corner radius. Default 12px.
 * @cssproperty --mk-space - Spacing unit. Default 8px.
 * @cssproperty --mk-focus-ring - Focus ring colour.
 * @cssproperty --mk-viewer-height - Height of the model viewer. Default 360px.
 *
 * @cssstate idle - Nothing usable chosen or typed yet.
 * @cssstate ready - The input is checked; the job can start.
 * @cssstate creating - The job is being sent.
 * @cssstate resending - A job whose answer was lost is sent again (never charged twice).
 * @cssstate queued - Waiting for a worker.
 * @cssstate processing - The model is being made.
 * @cssstate succeeded - The model is shown.
 * @cssstate failed - The job failed (refunded).
 */
export class ModelGenerator extends ProductElement {
  static override styles = [elementStyles, viewerFrame, modelGeneratorStyles];

  /** `photos` (1-6 photos of one object) or `prompt` (a description). Default `photos`. */
  @property({ reflect: true }) mode: ModelGeneratorMode = 'photos';

  /** `fast` (512 px textures), `standard` (1024 px) or `high` (2048 px, more steps). Default `standard`. */
  @property({ reflect: true }) quality: ModelQuality = 'standard';

  /** Pins the seed of every job started here (0 to 4294967295); unset: the service draws one. "Variation" still draws a new one. */
  @property({ type: Number }) seed: number | undefined;

  /** Photos mode: cut each photo out before modelling (the API's `remove_background`). Default false. */
  @property({ type: Boolean, attribute: 'remove-background' }) removeBackground = false;

  /** The description (prompt mode), 3-300 characters. Default empty. */
  @property() prompt = '';

  /** A job to show and follow (its id from `mk-job-created`, or its handle). */
  @property({ attribute: 'job-id' }) jobId = '';

  /** Notify (and mark the tab title) when a job ends while the page is hidden; permission is asked on the first start. Default false. */
  @property({ type: Boolean }) notify = false;

  /** Overrides of single strings, in any language: `{ mgTitle: 'Make your product in 3D' }`. */
  declare strings: Partial<Strings> | undefined;

  @state() private _error: unknown;
  @state() private _notice = '';
  @state() private _away = false;

  readonly #t = new LocalizeController<Strings>(this);
  readonly #announce = new AnnouncerController(this);
  readonly #awayCtl = new AwayController(this);
  readonly #credits = new CreditsController(this, () => this.mediaClient());
  readonly #jobs = new JobController(this, { kind: 'model', client: () => this.mediaClient() });
  readonly #turntable = new TurntableController(this);
  readonly #result = new ModelResultController(this);
  readonly #photos = new PhotoListController(this, {
    t: this.#t,
    announce: this.#announce,
    onChange: () => this.#run.forgetKey(),
    onError: (err) => (this._error = err),
  });
  readonly #run = new ModelRunController(this, {
    jobs: this.#jobs,
    photos: this.#photos,
    result: this.#result,
    running: () => this.#status === 'queued' || this.#status === 'processing',
    onSend: () => {
      this.#awayCtl.askPermission();
      this._error = undefined;
      this._notice = '';
      this.#announce.resetProgress();
      this.#result.clear();
      this._away = false;
    },
    onFail: (err, cancelled) => {
      if (cancelled) this._notice = this.#t.term('mgCancelled');
      else this._error = err;
    },
  });
  readonly #history = new ModelHistoryController(this, {
    client: () => this.mediaClient(),
    result: this.#result,
    onRestored: (records) => {
      if (this.jobId) this.#adopt(this.jobId);
      else if (!this.#jobs.record && !this.#run.busy) {
        const unfinished = records.find((r) => !isTerminal(r.status));
        if (unfinished) this.#jobs.adopt(unfinished.id, { resumed: true });
      }
    },
  });
  readonly #timings = new ModelTimingsController(this, { status: () => this.#status, validating: () => this.#photos.blocker() === 'checking' });
  readonly #intake = new FileIntakeController(this, {
    accept: 'image/jpeg,image/png,image/webp',
    multiple: true,
    onFiles: (files) => this.#photos.add(files),
    enabled: () => !this.isDisabled && this.mode === 'photos' && !this.#showingJob(),
    pageWide: () => this.pasteGlobal,
  });

  #status: ModelGeneratorStatus = 'idle';
  #counterBucket = '';

  /** Where the element is: `idle`, `ready`, `creating`, `resending`, `queued`, `processing`, `succeeded`, `failed`. */
  get status(): ModelGeneratorStatus {
    return this.#status;
  }

  /** The job as last seen (status, progress, seed, output with model URL and stats), or undefined. */
  get job(): JobRecord | undefined {
    return this.#jobs.record;
  }

  /** The photos (Files, or http(s)/data URLs the service fetches), in order. Setting it replaces them and checks each. */
  get images(): (File | string)[] {
    return this.#photos.photos.map((p) => p.source);
  }

  set images(list: readonly (File | string)[]) {
    this.#photos.clear();
    this.#photos.add([...(list ?? [])], false);
  }

  constructor() {
    super();
    this.addEventListener('mk-job-succeeded', (e) => {
      this._away = e.detail.whileAway;
      this.#awayCtl.finished(this.#t.term('mgNotifyTitle'), String(e.detail.summary['prompt'] ?? ''));
    });
    this.addEventListener('mk-job-failed', (e) => this.#awayCtl.finished(this.#t.term('mgNotifyFailedTitle'), e.detail.error?.message ?? ''));
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('jobId') && this.jobId && this.hasUpdated) this.#adopt(this.jobId);
    if (changed.has('prompt') || changed.has('mode') || changed.has('quality') || changed.has('seed') || changed.has('removeBackground')) this.#run.forgetKey();
    if (changed.has('prompt')) this.#counterMilestone();
    const before = this.#status;
    this.#status = this.#derive();
    if (before !== this.#status) this.#phaseChanged(before);
    const record = this.#jobs.record;
    if (record) {
      this.#history.track(record);
      if (record.status === 'succeeded' && !this.#result.has(record)) void this.#result.load(record, this.mediaClient(), () => this.#jobs.refresh());
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.setPhase(PHASES, this.#status);
  }

  // ---------------------------------------------------------------- public methods

  /** Starts the job with the current input (what the generate button does). Refusals show before anything is sent; a second call while one runs does nothing. */
  async start(): Promise<void> {
    if (this.#run.busy || this.isDisabled || this.#showingJob()) return;
    const input = this.#input();
    if (input) await this.#run.run(input);
  }

  /** Cancels sending (costs nothing). A job already created goes on and stays in the list. */
  cancel(): void {
    if (this.#jobs.creation.status !== TaskStatus.PENDING) return;
    this.#timings.clear();
    this.#jobs.cancel();
  }

  /** Back to the start: forgets photos, description and the job shown (which goes on, and stays in the list). */
  reset(): void {
    this.#timings.clear();
    this.cancel();
    this.#jobs.clear();
    this.#result.clear();
    this.#photos.clear();
    this.prompt = '';
    this.#run.forgetKey();
    this.#run.lastInput = undefined;
    this._error = undefined;
    this._notice = '';
    this.syncForm();
  }

  /** Makes the last model again: with its seed (the same model), or with `{ variation: true }` a new seed. */
  async again(options: { variation?: boolean } = {}): Promise<void> {
    if (this.#run.busy) return;
    const input = this.#run.againInput(options.variation === true);
    if (input) await this.#run.run(input);
  }

  // ---------------------------------------------------------------- form association

  protected formValue(): string | null {
    const url = (this.#jobs.record?.job as ModelJob | undefined)?.output?.model_url;
    return (url && this.#jobs.record?.status === 'succeeded' && this.#absolute(url)) || null;
  }

  protected requiredMessage(): string {
    return this.#t.term('mgGenerate', { cost: COSTS.modelJob });
  }

  protected resetValue(): void {
    this.reset();
  }

  // ---------------------------------------------------------------- internals

  /** An answer's URL made absolute against the endpoint, or '' when it is not a link we may render (safeUrl). */
  #absolute(url: string): string {
    const base = new URL(this.mediaClient().endpoint + '/', location.href).href;
    return safeUrl(url, base) === undefined ? '' : new URL(url, base).href;
  }

  /** A job (running or finished) is on screen instead of the form. */
  #showingJob(): boolean {
    return this.#run.busy || this.#jobs.record !== undefined;
  }

  #derive(): ModelGeneratorStatus {
    if (this.#run.busy) return 'creating';
    const record = this.#jobs.record;
    if (record) return record.status === 'creating' ? 'resending' : record.status === 'expired' ? 'failed' : record.status;
    const ready = this.mode === 'prompt' ? promptReady(this.prompt) : this.#photos.ready;
    return ready ? 'ready' : 'idle';
  }

  #phaseChanged(before: ModelGeneratorStatus): void {
    const t = this.#t;
    const say: Partial<Record<ModelGeneratorStatus, string>> = { resending: t.term('mgResending'), queued: t.term('mgQueued'), processing: t.term('mgProcessing'), succeeded: t.term('mgSucceeded') };
    const text = say[this.#status];
    if (text) this.#announce.say(text);
    if (this.#status === 'succeeded' || this.#status === 'failed' || before === 'succeeded') this.syncForm();
    // Focus follows the end of a job: to the result, or to what to do next.
    const focusTo: Partial<Record<ModelGeneratorStatus, string>> = { succeeded: '.result-title', failed: '.failed [part~="error"] button' };
    const selector = focusTo[this.#status];
    if (selector && before !== 'idle' && before !== 'ready') void this.updateComplete.then(() => (this.renderRoot.querySelector(selector) as HTMLElement | null)?.focus());
  }

  /** The request for the current input, or undefined after showing why it cannot be sent. */
  #input(): ModelJobInput | undefined {
    this._error = undefined;
    try {
      return requestFor({ mode: this.mode, prompt: this.prompt, quality: this.quality, seed: this.seed, removeBackground: this.removeBackground, photos: this.#photos });
    } catch (err) {
      this._error = err;
      return undefined;
    }
  }

  #counterMilestone(): void {
    const left = maxPromptChars - [...this.prompt].length;
    const bucket = left < 0 ? 'over' : left === 0 ? '0' : left <= 10 ? '10' : left <= 20 ? '20' : '';
    if (bucket !== this.#counterBucket && bucket) this.#announce.say(this.#t.term('mgCharsLeft', { left }));
    this.#counterBucket = bucket;
  }

  #adopt(id: string): void {
    const known = this.#history.find(id);
    this.#timings.clear();
    this.#result.clear();
    this._away = false;
    this._error = undefined;
    this.#run.lastInput = undefined;
    this.#jobs.adopt(known?.id ?? id, { resumed: known !== undefined && !isTerminal(known.status) });
  }

  // ---------------------------------------------------------------- rendering

  protected override render() {
    const t = this.#t;
    const form = !this.#showingJob();
    return html`<section part="base" class="card" aria-labelledby="title" lang=${t.resolved} dir=${t.dir}>
      <header class="head">
        <h2 id="title">${t.term('mgTitle')}</h2>
        ${form ? renderCost(t, COSTS.modelJob, this.#credits.remaining, this.topUpHref || undefined) : nothing}
      </header>
      ${form ? this.#renderForm() : this.#renderJob()}
      ${this._error ? renderErrorPanel(t, this._error, { onChoose: () => this.#intake.open(), onRetry: () => void this.start(), onRestart: () => this.reset(), topUpHref: this.topUpHref || undefined }) : nothing}
      ${this._notice ? html`<p class="notice" role="status">${this._notice}</p>` : nothing}
      ${this.#renderHistory()}
      ${this.#announce.render()}
    </section>`;
  }

  #renderForm() {
    const c = { t: this.#t, disabled: this.isDisabled, ready: this.#status === 'ready', credits: this.#credits.remaining, photos: this.#photos, intake: this.#intake };
    return renderFormView(this, c);
  }

  #renderJob() {
    const r = this.#jobs.record;
    return renderJobView({
      t: this.#t,
      status: this.#status,
      record: r,
      result: this.#result,
      turntable: this.#turntable.ref,
      announce: this.#announce,
      waitSeconds: this.#run.waitSeconds,
      away: this._away,
      prompt: String(r?.summary['prompt'] ?? this.#run.lastInput?.prompt ?? ''),
      canAgain: this.#run.lastInput !== undefined || inputOf(r) !== undefined,
      absolute: (url) => this.#absolute(url),
      onCancel: () => this.cancel(),
      onAgain: (variation) => void this.again({ variation }),
      onEdit: () => this.#backToForm(),
    });
  }

  /** Back to the form with the same photos or description (the job shown goes on in the list). */
  #backToForm(): void {
    this.#timings.clear();
    this.#jobs.clear();
    this.#result.clear();
    this._away = false;
    this._error = undefined;
    this.syncForm();
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus());
  }

  #renderHistory() {
    return renderHistory(this.#t, this.#history.recent(this.#jobs.record?.id), this.#result.thumbs, !this.#showingJob(), (r) => this.#adopt(r.id));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'model-generator': ModelGenerator;
  }
}
