import type { PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { COSTS } from '../../api/index.js';
import type { JobRecord } from '../../jobs/job-store.js';
import { CreditsController } from '../shared/credits.js';
import { FileIntakeController } from '../shared/file-intake.js';
import { ErrorPanelController, LazyModuleController } from '../shared/lazy-panel.js';
import { LocalizeController } from '../shared/localize.js';
import { ProductElement } from '../shared/product-element.js';
import { ResultValueController } from '../shared/result-value.js';
import { sharedStrings } from '../shared/strings.js';
import { elementStyles } from '../shared/styles.js';
import type { FieldFacts } from '../shared/field.js';
import { VideoCheckController } from './check.js';
import { renderCard } from './card.js';
import { UploaderJobs } from './jobs.js';
import { uploaderStrings } from './strings.js';
import type { Strings, UploaderStatus } from './types.js';
import { checkScene, type SceneValue } from './value.js';
import { uploaderStyles } from './video-to-3d-uploader.styles.js';

export type { SceneValue, UploaderStatus } from './types.js';

// Loaded with the first video chosen or job shown (a visitor who never picks one loads neither):
// the views after `idle` here, and the job engine with the scene (jobs.ts).
const loadViews = () => import('./views.js');

/**
 * @summary From a walkthrough video to a Gaussian-splat scene: checks the video before spending, uploads it, follows the job across reloads and tabs, and shows the scene.
 * @tag video-to-3d-uploader
 *
 * Form value (with `name`): `value`, the scene as JSON: `{ v: 1, kind: 'scene', status, asset, job?, created, name }` (`SceneValue`).
 *
 * A video over 1080p, over 3 minutes or over 500 MB is made to fit on this device after the user's
 * one confirmation ("Convert and upload"): scaled to fit 1920x1080 in its orientation, trimmed to a
 * range of at most 3 minutes (the first 3:00 unless the user or `trim` says otherwise), re-encoded
 * at a bitrate that fits, its sound dropped, as H.264 MP4 (`converting`, then `uploading`). Where
 * this browser cannot decode the video or encode H.264, it is refused with advice for the device.
 * `trim`: the range to send, `{ start, end }` in seconds of the chosen video, read and set from code
 * (clamped into the video and to 3 minutes; undefined when the video needs no trim).
 *
 * @slot top-up - Shown when the session has too few credits (a link or button to the site's top-up page).
 *
 * @event mk-file-selected - A video was chosen, dropped or pasted; cancel it to veto the file.
 * @event mk-upload-progressed - Bytes of the upload, or of its resend after a reload, went out (`loaded`, `total`, `bytesPerSecond`, `secondsLeft`).
 * @event mk-sent - The job's creating request left (`detail.idempotencyKey`).
 * @event mk-job-created - The job exists (also after adopting one).
 * @event mk-job-progressed - The job moved (queued, processing, progress).
 * @event mk-succeeded - The scene is ready (`detail` is the job's record, with `idempotencyKey`); `detail.job.output` has the download links, `detail.whileAway` says whether it finished while the page was closed.
 * @event mk-failed - The job failed or its result expired, or its creating request was refused: `detail.idempotencyKey`, `reason`, `params`; `detail.refunded` says whether the 20 credits came back; a job's failure also carries its record.
 * @event input - `value` changed while working (the job was created: a running value).
 * @event change - A scene was committed (the job succeeded, after its PLY was kept), or the user removed it (start another, a new video, a recent scene opened).
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
 * @csspart drop-zone - The area that takes a dropped video.
 * @csspart choose-button - The button that opens the file picker.
 * @csspart primary-button - Upload and start (or convert and upload).
 * @csspart fit - What is done to a video to make it fit the limits.
 * @csspart trim - The range to send of a video over 3 minutes (two range inputs over a filmstrip).
 * @csspart filmstrip - The frames under the trim range.
 * @csspart converting - The conversion's progress.
 * @csspart cancel-button - Cancels the upload (not offered while resending).
 * @csspart thumbnail - The first frame of the chosen video.
 * @csspart progress - The progress bar.
 * @csspart cost - The cost line.
 * @csspart error - The error panel.
 * @csspart viewer - The <splat-viewer> showing the result.
 * @csspart history - The list of recent scenes.
 * @csspart tips - The filming tips.
 * @csspart advice - Hints from the sampled frames (too dark, blurry, a cut).
 * @csspart download - Every download link (the .ply and the .zip).
 * @csspart download-ply - Beside `download`: the link to the .ply file.
 * @csspart download-zip - Beside `download`: the link to the .zip file.
 * @csspart refund - The line that says the credits came back.
 * @csspart wait - The countdown while the service is busy.
 * @csspart announcer - The polite live region.
 * @csspart keep - The line that says the scene is being saved, was saved, or could not be.
 * @csspart keep-retry - Tries saving the scene again.
 *
 * @cssproperty --mk-accent - Accent colour (buttons, progress). Default #2f5bea.
 * @cssproperty --mk-surface - Card background.
 * @cssproperty --mk-border - Borders.
 * @cssproperty --mk-radius - Corner radius. Default 12px.
 * @cssproperty --mk-space - Spacing unit. Default 8px.
 * @cssproperty --mk-focus-ring - Focus ring colour.
 * @cssproperty --mk-viewer-height - Height of the scene viewer. Default 360px.
 *
 * @cssstate idle - Nothing chosen yet.
 * @cssstate checking - The video is being read.
 * @cssstate ready - Checked and waiting for confirmation.
 * @cssstate converting - The video is being made to fit on this device (before the upload; cancelling costs nothing).
 * @cssstate uploading - The video is being sent.
 * @cssstate resending - An interrupted upload or a lost answer is being sent again (never charged twice).
 * @cssstate queued - Waiting for a worker.
 * @cssstate processing - The scene is being built.
 * @cssstate succeeded - The scene is shown.
 * @cssstate failed - The job failed (refunded).
 * @cssstate expired - The result was deleted upstream.
 */
export class VideoTo3dUploader extends ProductElement<SceneValue> {
  static override styles = [elementStyles, uploaderStyles];

  /** A job to show and follow (its id from `mk-job-created`, or its handle). */
  @property({ attribute: 'job-id' }) jobId = '';

  /**
   * Whether, with no value and no `job-id`, the element shows this browser's unfinished job (the one
   * a reload cut): `auto` does on a plain page, never in field mode or as a named control in a form
   * (a document's field shows only the job it started or its value names); `none` never does.
   * Default `auto`.
   */
  @property() resume: 'auto' | 'none' = 'auto';

  /** Notify (and mark the tab title) when a job ends while the page is hidden; permission is asked on the first upload. Default false. */
  @property({ type: Boolean }) notify = false;

  /** Open the camera on phones (`environment` or `user`) instead of the file list. Default none. */
  @property() capture: string | undefined;

  /** Overrides of single strings, in any language: `{ vtTitle: 'Scan your room' }`. */
  declare strings: Partial<Strings> | undefined;

  @state() private _error: unknown;
  @state() private _notice = '';

  readonly #t = new LocalizeController<Strings>(this, sharedStrings, uploaderStrings);
  readonly #credits = new CreditsController(this, () => this.mediaClient());
  readonly #video: VideoCheckController = new VideoCheckController(this, () =>
    Promise.all([this.#views.load(), this.#jobs.running()]),
  );
  protected readonly results: ResultValueController<SceneValue> = new ResultValueController<SceneValue>(this, {
    kind: 'scene',
    client: () => this.mediaClient(),
    check: () => Promise.resolve(checkScene),
    show: (value) => (this.cancel(), this.#clear(), value && this.#jobs.restore(value)),
  });
  // The job flow (send, adopt, resume, history, the value) and the phases it shows.
  readonly #jobs: UploaderJobs = new UploaderJobs(this, {
    t: this.#t,
    announce: this.announce,
    client: () => this.mediaClient(),
    results: this.results,
    video: this.#video,
    states: (names, now) => this.setPhase(names, now),
  });
  readonly #panel = new ErrorPanelController(this);
  readonly #views = new LazyModuleController(this, loadViews, { idle: false, styles: (m) => m.styles });
  readonly #intake = new FileIntakeController(this, {
    accept: 'video/mp4,video/quicktime,.mp4,.mov,.m4v',
    onFiles: ([file]) => (
      this.#actions.reset(),
      void this.#video.check(file!).catch((err: unknown) => (this._error = err))
    ),
    enabled: () => !this.isDisabled && !this.#jobs.busy,
    pageWide: () => this.pasteGlobal,
    capture: () => this.capture,
  });

  /**
   * The range of a video over 3 minutes that is sent, `{ start, end }` in seconds (the first 3:00
   * by default); undefined when the chosen video needs no trim. Set it to choose another range: it
   * is kept inside the video and to at most 3 minutes.
   */
  get trim(): { start: number; end: number } | undefined {
    return this.#video.fit?.trim;
  }

  set trim(range: { start: number; end: number } | undefined) {
    if (range) this.#video.fit?.setTrim(range.start, range.end);
  }

  /** Where the element is: `idle`, `checking`, `ready`, `converting`, `uploading`, `resending`, `queued`, `processing`, `succeeded`, `failed`, `expired`. */
  get status(): UploaderStatus {
    return this.#jobs.phases.phase;
  }

  /** The job as last seen (status, progress, output links), or undefined. */
  get job(): JobRecord | undefined {
    return this.#jobs.record;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('jobId') && this.jobId && this.hasUpdated) this.#jobs.adopt(this.jobId);
  }

  /** Also waits for the code of the phase's view when it is still loading, so a resolved element shows its phase. */
  protected override async getUpdateComplete(): Promise<boolean> {
    const done = await super.getUpdateComplete();
    if (this.status === 'idle' || this.#views.module) return done;
    await this.#views.load().catch(() => undefined);
    return super.getUpdateComplete();
  }

  // ---------------------------------------------------------------- public methods

  /** Takes a video as if the user had chosen it (fires `mk-file-selected`, then checks it). */
  selectFile(file: File): void {
    this.#intake.offer([file], 'property');
  }

  /**
   * Uploads the checked video and starts the job (what the confirm button does); a video that breaks
   * a limit is converted first (once: a retry sends the same converted file with the same
   * Idempotency-Key). A second call while one runs does nothing; one cut by a reset or a value set says nothing.
   */
  async start(): Promise<void> {
    const { file, checked, fit } = this.#video;
    if (!file || !checked || fit?.converting || this.#jobs.busy || this.isDisabled) return;
    this._error = undefined;
    this._notice = '';
    await this.#jobs.upload((error, notice) => (error ? (this._error = error) : (this._notice = notice)));
  }

  /** Cancels the upload in progress (costs nothing). A job already created goes on. */
  cancel(): void {
    // A cancelled phase is not a timing: the site's monitoring never sees it.
    this.#jobs.timings.clear();
    this.#video.cancel();
    this.#jobs.run?.request.cancel();
  }

  /** Back to the start: forgets the chosen file, the value (no event) and the job shown (which goes on, and stays in the list). */
  reset(): void {
    this.cancel();
    this.#clear();
    this.results.clear();
  }

  // ---------------------------------------------------------------- form association

  protected requiredMessage(): string {
    return this.#t.term('vtChoose');
  }

  protected resetValue(): void {
    this.reset();
  }

  /** Nothing shown: no job, no video (a new one gets a new Idempotency-Key), no scene, no message. */
  #clear(): void {
    this.#jobs.clear();
    this._error = undefined;
    this._notice = '';
  }

  // ---------------------------------------------------------------- rendering

  readonly #actions = {
    start: () => void this.start(),
    cancel: () => this.cancel(),
    reset: () => (this.results.remove(), this.reset()),
    tryAnother: () => (this.#actions.reset(), void this.updateComplete.then(() => this.#intake.open())),
    retryScene: () => this.#jobs.run?.scene.retry(this.job),
    setTrim: (start: number, end: number, moved: 'start' | 'end') => this.#video.fit?.setTrim(start, end, moved),
  };

  protected override fieldFacts(): FieldFacts {
    return this.#jobs.fieldFacts(this.#t, this._error);
  }

  protected override renderCard() {
    return renderCard({
      ...this.#actions,
      t: this.#t,
      status: this.status,
      video: this.#video,
      jobs: this.#jobs,
      results: this.results,
      confirmOff: this.isDisabled || (this.#credits.remaining ?? Infinity) < COSTS.videoJob,
      intake: this.#intake,
      panel: this.#panel,
      announce: this.announce,
      error: this._error,
      notice: this._notice,
      credits: this.#credits.remaining,
      topUpHref: this.topUpHref || undefined,
      views: () => this.#views.module,
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'video-to-3d-uploader': VideoTo3dUploader;
  }
}
