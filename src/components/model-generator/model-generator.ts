import type { PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { COSTS, type ModelQuality } from '../../api/index.js';
import type { JobRecord } from '../../jobs/job-store.js';
import { CreditsController } from '../shared/credits.js';
import { ErrorPanelController, LazyModuleController } from '../shared/lazy-panel.js';
import { LocalizeController } from '../shared/localize.js';
import { ProductElement } from '../shared/product-element.js';
import { ResultValueController } from '../shared/result-value.js';
import { photoFitStrings } from '../shared/photo-fit-strings.js';
import { sharedStrings } from '../shared/strings.js';
import { elementStyles } from '../shared/styles.js';
import type { FieldFacts } from '../shared/field.js';
import { ModelJobsController } from './jobs.js';
import { modelGeneratorStyles } from './model-generator.styles.js';
import { PhotoListController } from './photo-list.js';
import { requestFor, sayLeft } from './request.js';
import { modelGeneratorStrings } from './strings.js';
import type { ModelValue } from './value.js';
import { renderCard } from './views.js';
import type { FormView, ModelGeneratorMode, ModelGeneratorStatus, Strings } from './types.js';

export type { ModelGeneratorMode, ModelGeneratorStatus } from './types.js';
export type { ModelValue } from './value.js';

/**
 * @summary From 1-6 photos or a short description to a 3D model (GLB): checks the input before spending, follows the job across reloads, shows the model turning with its statistics and turntable video, and makes it again by seed.
 * @tag model-generator
 *
 * Form value (with `name`): `value`, the JSON of the model made (shape 1, kind `model`, README "Saving results"): `status` `running` with the `job` handle while it is made, then `succeeded` with `asset` (the GLB, kept where it lasts), `turntable`, `poster` (prompt mode's reference image), `mode`, `prompt` or `images`, `seed`, `quality`, `removeBackground` and `stats`. Setting it shows that model with no API call (a running job, or one whose files were not kept, is followed by its handle).
 *
 * @slot top-up - Shown when the session has too few credits (a link or button to the site's top-up page).
 *
 * @event mk-file-selected - A photo was chosen, dropped, pasted or taken; cancel it to veto the photo.
 * @event mk-sent - The job's creating request left (`detail.idempotencyKey`).
 * @event mk-job-created - The job exists (also after adopting one).
 * @event mk-job-progressed - The job moved (queued, processing, progress).
 * @event mk-succeeded - The model is ready (`detail` is the job's record, with `idempotencyKey`); `detail.model` holds `url` (the GLB), `stats` and `seed`; `detail.whileAway` says whether it finished while the page was closed.
 * @event mk-failed - The job failed, or its creating request was refused: `detail.idempotencyKey`, `reason`, `params`; `detail.refunded` says whether the 2 credits came back; a job's failure also carries its record.
 * @event input - The value changed while working: a job started (a `running` value), or it failed (the value is empty).
 * @event change - A model was committed (a job succeeded or was chosen, its files kept), once each; or the user went back to change the input (the value is empty).
 * @event mk-assets-released - After a `change`, the kept files the value no longer names (`detail.assets`, `detail.reason`: `replaced` or `removed`), for a site to delete what it stored; never for a value set from outside.
 * @event mk-expand-requested - Field mode is about to open the whole tool in its dialog (`detail.reason`: `create`, `open`, `replace`); cancel it to show the tool in your own modal.
 *
 * @csspart field - Field mode (`appearance="field"`): the compact box.
 * @csspart field-preview - Field mode: the result's picture.
 * @csspart field-title - Field mode: what the element makes.
 * @csspart field-detail - Field mode: what made the result.
 * @csspart field-status - Field mode: nothing yet, in progress, saving, saved.
 * @csspart field-create - Field mode: opens the tool when there is no result.
 * @csspart field-open - Field mode: opens the tool on the result.
 * @csspart field-replace - Field mode: opens the tool at its start, keeping the result until a new one is made.
 * @csspart field-remove - Field mode: removes the result.
 * @csspart dialog - Field mode: the modal dialog around the whole tool.
 * @csspart dialog-close - Field mode: the dialog's Done button.
 * @csspart base - The card around everything.
 * @csspart tabs - The tab list (photos / description).
 * @csspart drop-zone - The area that takes dropped photos.
 * @csspart choose-button - Opens the file picker.
 * @csspart camera-button - Opens the camera (touch devices).
 * @csspart photos - The list of chosen photos.
 * @csspart photo - One chosen photo.
 * @csspart photo-fit - What was done to a photo to make it fit ("Converted from HEIC, 48 MP to 12 MP, …").
 * @csspart prompt - The description field.
 * @csspart counter - The character counter.
 * @csspart quality - The quality choice.
 * @csspart cost - The cost line.
 * @csspart primary-button - Starts the job.
 * @csspart cancel-button - Cancels sending.
 * @csspart progress - The progress bar.
 * @csspart reference - The reference image (description mode).
 * @csspart error - The error panel.
 * @csspart viewer - The <glb-viewer> showing the model.
 * @csspart stats - The statistics table.
 * @csspart turntable - The turntable video.
 * @csspart seed - The seed of the model shown.
 * @csspart download - The GLB download link (the kept file's lasting URL for a value set from outside).
 * @csspart keep - The line that says the model is being saved, was saved, or could not be.
 * @csspart keep-retry - Tries saving the model again after it failed.
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
 * @cssstate sending - The job is being sent.
 * @cssstate resending - A job whose answer was lost is sent again (never charged twice).
 * @cssstate queued - Waiting for a worker.
 * @cssstate processing - The model is being made.
 * @cssstate succeeded - The model is shown.
 * @cssstate failed - The job failed (refunded).
 */
export class ModelGenerator extends ProductElement<ModelValue> {
  static override styles = [elementStyles, modelGeneratorStyles];

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

  /**
   * Whether, with no value and no `job-id`, the element shows this browser's unfinished job (the one
   * a reload cut): `auto` does on a plain page, never in field mode or as a named control in a form
   * (a document's field shows only the job it started or its value names); `none` never does.
   * Default `auto`.
   */
  @property() resume: 'auto' | 'none' = 'auto';

  /** Notify (and mark the tab title) when a job ends while the page is hidden; permission is asked on the first start. Default false. */
  @property({ type: Boolean }) notify = false;

  /** Open the camera on phones (`environment` or `user`) instead of the file list; the camera button on touch devices opens this one too (else `environment`). Default none. */
  @property() capture: string | undefined;

  /** Overrides of single strings, in any language: `{ mgTitle: 'Make your product in 3D' }`. */
  declare strings: Partial<Strings> | undefined;

  @state() private _error: unknown;
  @state() private _notice = '';

  readonly #t = new LocalizeController<Strings>(this, sharedStrings, photoFitStrings, modelGeneratorStrings);
  readonly #credits = new CreditsController(this, () => this.mediaClient());
  readonly #photos: PhotoListController = new PhotoListController(this, {
    t: this.#t,
    announce: this.announce,
    // Other photos are another input: the next send gets a new Idempotency-Key.
    onChange: () => this.#run.request?.forget(),
    onError: (err) => (this._error = err),
    enabled: () => !this.isDisabled && this.mode === 'photos' && !this.#run.showing,
    pageWide: () => this.pasteGlobal,
    capture: () => this.capture,
  });
  protected readonly results = new ResultValueController<ModelValue>(this, {
    kind: 'model',
    client: () => this.mediaClient(),
    check: () => import('./value-check.js').then((m) => m.check),
    show: (value) => this.#run.stop(value),
  });
  // The job flow (send, adopt, resume, history, the value), the model shown and its turntable, the phases.
  readonly #run: ModelJobsController = new ModelJobsController(this, {
    t: this.#t,
    announce: this.announce,
    photos: this.#photos,
    results: this.results,
    client: () => this.mediaClient(),
    states: (names, now) => this.setPhase(names, now),
    onFail: (err, cancelled) => (cancelled ? (this._notice = this.#t.term('mgCancelled')) : (this._error = err)),
    onShow: () => ((this._error = undefined), (this._notice = '')),
  });
  readonly #panel = new ErrorPanelController(this);
  // The job shown (progress, result, failure): loaded when the browser is idle after connect, or at once when a job comes first.
  readonly #jobView = new LazyModuleController(this, () => import('./job-view.js'), { styles: (m) => m.styles });
  #milestone = '';

  /** Where the element is: `idle`, `ready`, `sending`, `resending`, `queued`, `processing`, `succeeded`, `failed`. */
  get status(): ModelGeneratorStatus {
    return this.#run.phases.phase;
  }

  /** The job as last seen (status, progress, seed, output with model URL and stats), or undefined. */
  get job(): JobRecord | undefined {
    return this.#run.record;
  }

  /** The photos (Files, or http(s)/data URLs the service fetches), in order. Setting it replaces them and checks each. */
  get images(): (File | string)[] {
    return this.#photos.photos.map((p) => p.source);
  }

  set images(list: readonly (File | string)[]) {
    this.#photos.clear();
    this.#photos.add([...(list ?? [])], false);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('jobId') && this.jobId && this.hasUpdated) this.#run.adopt(this.jobId);
    // Another input is another request: the next send gets a new Idempotency-Key.
    if ((['prompt', 'mode', 'quality', 'seed', 'removeBackground'] as const).some((k) => changed.has(k)))
      this.#run.request?.forget();
    this.#milestone = sayLeft(this.prompt, this.#milestone, (left) =>
      this.announce.say(this.#t.term('mgCharsLeft', { left })),
    );
  }

  /** Adds a photo as if the user had chosen it (fires `mk-file-selected`, then checks it); `images` replaces them all. */
  selectFile(file: File): void {
    this.#photos.intake.offer([file], 'property');
  }

  /** Starts the job with the current input (what the generate button does). Refusals show before anything is sent; a second call while one runs does nothing. */
  async start(): Promise<void> {
    if (this.isDisabled || this.#run.showing) return;
    this._error = undefined;
    try {
      const { mode, prompt, quality, seed, removeBackground } = this;
      const input = requestFor({ mode, prompt, quality, seed, removeBackground, photos: this.#photos });
      if (input) await this.#run.start(input);
    } catch (err) {
      this._error = err;
    }
  }

  /** Cancels sending (costs nothing). A job already created goes on and stays in the list. */
  cancel(): void {
    this.#run.cancel();
  }

  /** Back to the start: forgets photos, description, the value and the job shown (which goes on, and stays in the list). No event. */
  reset(): void {
    this.results.clear();
    this.#run.stop();
  }

  /** Makes the last model again: with its seed (the same model), or with `{ variation: true }` a new seed. */
  async again(options: { variation?: boolean } = {}): Promise<void> {
    await this.#run.again(options.variation === true);
  }

  protected requiredMessage(): string {
    return this.#t.term('mgGenerate', { cost: COSTS.modelJob });
  }

  protected resetValue(): void {
    this.reset();
  }

  readonly #actions = {
    set: (patch: Parameters<FormView['set']>[0]) => Object.assign(this, patch).updateComplete,
    start: () => void this.start(),
    onCancel: () => this.cancel(),
    reset: () => this.reset(),
    onAgain: (variation: boolean) => void this.again({ variation }),
    // Back to the form with the same photos or description, focus on its first control.
    onEdit: () => this.#run.edit(),
  };

  protected override fieldFacts(): FieldFacts {
    return this.#run.fieldFacts(this._error);
  }

  /** Also waits for the job view when a job is shown before it loaded. */
  protected override async getUpdateComplete(): Promise<boolean> {
    const done = await super.getUpdateComplete();
    if (this.#jobView.module || !this.#run.showing) return done;
    await this.#jobView.load().catch(() => undefined);
    return super.getUpdateComplete();
  }

  protected override renderCard() {
    const { mode, prompt, quality, seed, removeBackground } = this;
    return renderCard(
      {
        ...this.#actions,
        t: this.#t,
        input: { mode, prompt, quality, seed, removeBackground },
        topUpHref: this.topUpHref || undefined,
        disabled: this.isDisabled,
        status: this.status,
        credits: this.#credits.remaining,
        error: this._error,
        notice: this._notice,
        panel: this.#panel,
        keep: this.results.render(this.#t),
        photos: this.#photos,
        run: this.#run,
        announce: this.announce,
      },
      this.#jobView.module,
    );
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'model-generator': ModelGenerator;
  }
}
