import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { styleProps } from '../../internal/style-props.js';
import { TaskStatus } from '@lit/task';
import { COSTS } from '../../api/index.js';
import { validateVideo, type CheckedVideo } from '../../client/validate.js';
import { JobController } from '../../jobs/job-controller.js';
import { JobPoller } from '../../jobs/job-poller.js';
import { isTerminal, type JobRecord } from '../../jobs/job-store.js';
import type { VideoJob } from '../../api/index.js';
import { PhaseTimer } from '../../internal/perf.js';
import { AnnouncerController } from '../shared/announcer.js';
import { ProductElement } from '../shared/product-element.js';
import { AwayController } from '../shared/away.js';
import { CreditsController, renderCost } from '../shared/credits.js';
import type { ErrorPanelOptions } from '../shared/error-panel.js';
import { FileIntakeController } from '../shared/file-intake.js';
import { LocalizeController } from '../shared/localize.js';
import { sharedStrings, type SharedStrings } from '../shared/strings.js';
import { elementStyles, viewerFrame } from '../shared/styles.js';
import { limitsLine } from '../shared/limits.js';
import type { Advice } from './frame-checks.js';
import { uploaderStrings, type UploaderStrings } from './strings.js';
import { uploaderStyles } from './video-to-3d-uploader.styles.js';
import { safeUrl } from '../../internal/safe-url.js';
import { isAbort } from '../../internal/small.js';

void sharedStrings;
void uploaderStrings;

export type UploaderStatus = 'idle' | 'checking' | 'ready' | 'uploading' | 'resending' | 'queued' | 'processing' | 'succeeded' | 'failed' | 'expired';
const PHASES: readonly UploaderStatus[] = ['idle', 'checking', 'ready', 'uploading', 'resending', 'queued', 'processing', 'succeeded', 'failed', 'expired'];
type Strings = UploaderStrings & SharedStrings;

/**
 * @summary From a walkthrough video to a Gaussian-splat scene: checks the video before spending, uploads it, follows the job across reloads and tabs, and shows the scene.
 * @tag video-to-3d-uploader
 *
 * Form value (with `name`): the job handle, once the job is created.
 *
 * @slot top-up - Shown when the session has too few credits (a link or button to the site's top-up page).
 *
 * @event mk-file-select - A video was chosen, dropped or pasted; cancel it to veto the file.
 * @event mk-upload-progress - Bytes of the upload, or of its resend after a reload, went out (`loaded`, `total`, `bytesPerSecond`, `secondsLeft`).
 * @event mk-job-created - The job exists (also after adopting one).
 * @event mk-job-progress - The job moved (queued, processing, progress).
 * @event mk-job-succeeded - The scene is ready; `detail.job.output` has the download links, `detail.whileAway` says whether it finished while the page was closed.
 * @event mk-job-failed - The job failed or its result expired; `detail.refunded` says whether the 20 credits came back.
 *
 * @csspart base - The card around everything.
 * @csspart drop-zone - The area that takes a dropped video.
 * @csspart choose-button - The button that opens the file picker.
 * @csspart confirm-button - Upload and start.
 * @csspart cancel-button - Cancels the upload (not offered while resending).
 * @csspart thumbnail - The first frame of the chosen video.
 * @csspart progress - The progress bar.
 * @csspart cost - The cost line.
 * @csspart error - The error panel.
 * @csspart viewer - The <splat-viewer> showing the result.
 * @csspart history - The list of recent scenes.
 * @csspart tips - The filming tips.
 * @csspart advice - Hints from the sampled frames (too dark, blurry, a cut).
 * @csspart download-ply - The link to the .ply file.
 * @csspart download-zip - The link to the .zip file.
 * @csspart refund - The line that says the credits came back.
 * @csspart wait - The countdown while the service is busy.
 * @csspart announcer - The polite live region.
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
 * @cssstate uploading - The video is being sent.
 * @cssstate resending - An interrupted upload or a lost answer is being sent again (never charged twice).
 * @cssstate queued - Waiting for a worker.
 * @cssstate processing - The scene is being built.
 * @cssstate succeeded - The scene is shown.
 * @cssstate failed - The job failed (refunded).
 * @cssstate expired - The result was deleted upstream.
 */
export class VideoTo3dUploader extends ProductElement {
  static override styles = [elementStyles, viewerFrame, uploaderStyles];

  /** A job to show and follow (its id from `mk-job-created`, or its handle). */
  @property({ attribute: 'job-id' }) jobId = '';

  /** Notify (and mark the tab title) when a job ends while the page is hidden; permission is asked on the first upload. Default false. */
  @property({ type: Boolean }) notify = false;

  /** Open the camera on phones (`environment` or `user`) instead of the file list. Default none. */
  @property() capture: string | undefined;

  /** Overrides of single strings, in any language: `{ vtTitle: 'Scan your room' }`. */
  declare strings: Partial<Strings> | undefined;


  @state() private _file: File | undefined;
  @state() private _checked: CheckedVideo | undefined;
  @state() private _checking = false;
  @state() private _thumb: string | undefined;
  @state() private _advice: Advice[] = [];
  @state() private _error: unknown;
  @state() private _notice = '';
  @state() private _history: JobRecord[] = [];
  @state() private _scene: string | undefined;
  @state() private _sceneCached = false;
  @state() private _sceneError: unknown;
  @state() private _waitUntil = 0;
  @state() private _away = false;

  readonly #t = new LocalizeController<Strings>(this);
  readonly #announce = new AnnouncerController(this);
  readonly #away = new AwayController(this);
  readonly #credits = new CreditsController(this, () => this.mediaClient());
  readonly #jobs = new JobController(this, { kind: 'video', client: () => this.mediaClient() });
  readonly #intake = new FileIntakeController(this, {
    accept: 'video/mp4,video/quicktime,.mp4,.mov,.m4v',
    onFiles: ([file]) => void this.#check(file!),
    enabled: () => !this.isDisabled && !this.#busy(),
    pageWide: () => this.pasteGlobal,
    capture: () => this.capture,
  });

  #status: UploaderStatus = 'idle';
  #key: string | undefined;
  #starting = false;
  #checkAbort: AbortController | undefined;
  #restored = false;
  #sceneFor = '';
  #ticker: ReturnType<typeof setInterval> | undefined;
  readonly #perf = new PhaseTimer('video-to-3d-uploader');

  /** Where the element is: `idle`, `checking`, `ready`, `uploading`, `resending`, `queued`, `processing`, `succeeded`, `failed`, `expired`. */
  get status(): UploaderStatus {
    return this.#status;
  }

  /** The job as last seen (status, progress, output links), or undefined. */
  get job(): JobRecord | undefined {
    return this.#jobs.record;
  }

  constructor() {
    super();
    this.addEventListener('mk-job-succeeded', (e) => {
      this._away = e.detail.whileAway;
      this.#away.finished(this.#t.term('vtNotifyTitle'), String(e.detail.summary['name'] ?? ''));
    });
    this.addEventListener('mk-job-failed', (e) => this.#away.finished(this.#t.term('vtNotifyFailedTitle'), e.detail.error?.message ?? ''));
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener('focusin', this.#onFocusIn);
    document.addEventListener('focusin', this.#onPageFocusIn);
    this.#ticker = setInterval(() => {
      if (this.#status === 'queued' || this.#status === 'processing' || this._waitUntil > Date.now()) this.requestUpdate();
    }, 1000);
    const idle = globalThis.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 200));
    idle(() => void loadPanel().then((m) => (this.#panel = m)));
    if (!this.#restored) {
      this.#restored = true;
      void this.#restore();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('focusin', this.#onFocusIn);
    document.removeEventListener('focusin', this.#onPageFocusIn);
    clearInterval(this.#ticker);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('jobId') && this.jobId && this.hasUpdated) this.#adopt(this.jobId);
    const before = this.#status;
    this.#status = this.#derive();
    if (before !== this.#status) this.#phaseChanged(before);
    const record = this.#jobs.record;
    if (record) {
      const i = this._history.findIndex((r) => r.id === record.id);
      if (i >= 0 && this._history[i] !== record) this._history = this._history.map((r) => (r.id === record.id ? record : r));
      else if (i < 0 && record.status !== 'creating') this._history = [record, ...this._history];
    }
    if (record && (record.status === 'succeeded' || record.status === 'expired') && this.#sceneFor !== record.id) void this.#loadScene(record);
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.setPhase(PHASES, this.#status);
  }

  // ---------------------------------------------------------------- public methods

  /** Takes a video as if the user had chosen it (fires `mk-file-select`, then checks it). */
  selectFile(file: File): void {
    this.#intake.offer([file], 'property');
  }

  /** Uploads the checked video and starts the job (what the confirm button does). A second call while one runs does nothing. */
  async start(): Promise<void> {
    if (!this._file || !this._checked || this.#starting || this.#busy() || this.isDisabled) return;
    this.#starting = true;
    this.#away.askPermission();
    this._error = undefined;
    this._notice = '';
    this.#announce.resetProgress();
    // One key per chosen file: a retry after a lost answer replays the job instead of charging again.
    const key = (this.#key ??= crypto.randomUUID());
    const file = this._file;
    try {
      await this.#jobs.start(file, {
        idempotencyKey: key,
        summary: { name: file.name, bytes: file.size, seconds: Math.round(this._checked.durationSeconds) },
        onWait: ({ seconds }) => (this._waitUntil = Date.now() + seconds * 1000),
      });
      this.#key = undefined;
      this._file = undefined;
      this._checked = undefined;
      this.syncForm();
    } catch (err) {
      if (this.#jobs.creation.status === TaskStatus.ERROR && isAbort(err)) this._notice = this.#t.term('vtCancelled');
      else if (!isAbort(err)) this._error = err;
    } finally {
      this.#starting = false;
      this._waitUntil = 0;
    }
  }

  /** Cancels the upload in progress (costs nothing). A job already created goes on. */
  cancel(): void {
    // A cancelled phase is not a timing: the site's monitoring never sees it.
    this.#perf.clear();
    this.#checkAbort?.abort();
    if (this.#jobs.creation.status === TaskStatus.PENDING) this.#jobs.cancel();
  }

  /** Back to the start: forgets the chosen file and stops showing the job (which goes on, and stays in the list). */
  reset(): void {
    this.cancel();
    this.#jobs.clear();
    this.#clearFile();
    this._error = undefined;
    this._notice = '';
    this.#clearScene();
    this.syncForm();
  }

  // ---------------------------------------------------------------- form association

  protected formValue(): string | null {
    return this.#jobs.record?.handle ?? null;
  }

  protected requiredMessage(): string {
    return this.#t.term('vtChoose');
  }

  protected resetValue(): void {
    this.reset();
  }

  // ---------------------------------------------------------------- internals

  /** Whether the user's focus was last inside this element (a removed button keeps it so). */
  #engaged = false;
  #onFocusIn = () => (this.#engaged = true);
  #onPageFocusIn = (e: FocusEvent) => {
    if (!e.composedPath().includes(this)) this.#engaged = false;
  };

  #busy(): boolean {
    return this.#starting || this.#jobs.creation.status === TaskStatus.PENDING;
  }

  #derive(): UploaderStatus {
    if (this.#busy()) return 'uploading';
    const record = this.#jobs.record;
    if (record) return record.status === 'creating' ? 'resending' : record.status;
    if (this._checking) return 'checking';
    if (this._checked) return 'ready';
    return 'idle';
  }

  #phaseChanged(before: UploaderStatus): void {
    // User Timing: validate, upload, queue, process, first-frame (README "Telemetry").
    const now = this.#status;
    if (now === 'checking') this.#perf.start('validate');
    if (before === 'checking') this.#perf.end('validate');
    if (now === 'uploading' || now === 'resending') this.#perf.start('upload');
    // A resend counts its quarters from zero again, as its bytes do.
    if (now === 'resending') this.#announce.resetProgress();
    if (before === 'uploading' || before === 'resending') this.#perf.end('upload');
    if (now === 'queued') this.#perf.start('queue');
    if (before === 'queued') this.#perf.end('queue');
    if (now === 'processing') this.#perf.start('process');
    // A job can go from queued straight to its end between two polls: then only queue is measured.
    if (before === 'processing' || now === 'succeeded' || now === 'failed' || now === 'expired') this.#perf.end('process', { status: now });
    if (now === 'succeeded') this.#perf.start('first-frame');
    const t = this.#t;
    const say: Partial<Record<UploaderStatus, string>> = {
      checking: t.term('vtChecking'),
      ready: t.term('vtReadyTitle'),
      resending: t.term('vtResending'),
      queued: t.term('vtQueued'),
      processing: t.term('vtProcessing'),
      succeeded: t.term('vtSucceeded'),
    };
    const text = say[this.#status];
    if (text) this.#announce.say(text);
    if (this.#status === 'succeeded' || this.#status === 'failed' || this.#status === 'expired') this.syncForm();
    // Focus follows the end of a phase: to the result, or to what to do next.
    const focusTo: Partial<Record<UploaderStatus, string>> = { ready: '[part~="confirm-button"]', succeeded: '.result-title', failed: '.failed button', expired: '.expired button' };
    const selector = focusTo[this.#status];
    // Only for a user who is working with this element: a job ending in the background never takes
    // the focus from whatever they are doing elsewhere on the page.
    if (selector && this.#engaged) {
      void this.updateComplete.then(() => (this.renderRoot.querySelector(selector!) as HTMLElement | null)?.focus());
    }
  }

  async #check(file: File): Promise<void> {
    this.#checkAbort?.abort();
    const abort = (this.#checkAbort = new AbortController());
    this.#clearFile();
    this.#jobs.clear();
    this.#clearScene();
    this._error = undefined;
    this._notice = '';
    this._file = file;
    this._checking = true;
    try {
      const checked = await validateVideo(file, abort.signal);
      if (abort.signal.aborted) return;
      this._checked = checked;
      this._checking = false;
      // The frame checks load with the first chosen video, not with the page.
      const { inspectFrames } = await import('./frame-checks.js');
      const report = await inspectFrames(file, checked.durationSeconds, abort.signal);
      if (abort.signal.aborted) return;
      this._advice = report.advice;
      if (report.thumbnail) this._thumb = URL.createObjectURL(report.thumbnail);
    } catch (err) {
      if (abort.signal.aborted) return;
      this._checking = false;
      this._file = undefined;
      this._error = err;
    }
  }

  #clearFile(): void {
    if (this._thumb) URL.revokeObjectURL(this._thumb);
    this._thumb = undefined;
    this._file = undefined;
    this._checked = undefined;
    this._checking = false;
    this._advice = [];
    this.#key = undefined;
  }

  #clearScene(): void {
    // The viewer may still be reading the blob URL: revoke it once the viewer is gone from the page.
    const url = this._scene;
    if (url) setTimeout(() => URL.revokeObjectURL(url), 30_000);
    this._scene = undefined;
    this._sceneCached = false;
    this._sceneError = undefined;
    this._away = false;
    this.#sceneFor = '';
  }

  async #restore(): Promise<void> {
    try {
      const poller = JobPoller.for(this.mediaClient());
      const records = (await poller.resume()).filter((r) => r.kind === 'video');
      this._history = records;
      if (this.jobId) this.#adopt(this.jobId);
      else if (!this.#jobs.record && !this._file && !this.#busy()) {
        const unfinished = records.find((r) => !isTerminal(r.status));
        if (unfinished) this.#jobs.adopt(unfinished.id, { resumed: true });
      }
    } catch (err) {
      console.warn('[mediakit] could not read the job list', err);
    }
  }

  #adopt(id: string): void {
    const known = this._history.find((r) => r.id === id || r.handle === id);
    this.#clearFile();
    this.#clearScene();
    this.#jobs.adopt(known?.id ?? id, { resumed: known !== undefined && !isTerminal(known.status) });
    // A finished job from an earlier visit: ask once whether it still exists (and get fresh links).
    if (known?.status === 'succeeded') void JobPoller.for(this.mediaClient()).refresh(known.id).catch(() => undefined);
  }

  /** The scene: from this device's cache, else downloaded (and kept) through the proxy. */
  async #loadScene(record: JobRecord): Promise<void> {
    this.#sceneFor = record.id;
    const output = (record.job as VideoJob | undefined)?.output;
    try {
      const { resultCache } = await import('../shared/result-cache.js');
      let blob = await resultCache.get(record.scope, record.id);
      this._sceneCached = blob !== undefined;
      if (!blob && output && record.status === 'succeeded') {
        const client = this.mediaClient();
        const fresh = record.linksExpireAt !== undefined && record.linksExpireAt < client.serverNow() + 5000 ? await this.#jobs.refresh() : record;
        const url = (fresh?.job as VideoJob | undefined)?.output?.ply_url ?? output.ply_url;
        blob = await client.download(url);
        await resultCache.put(record.scope, record.id, blob);
      }
      if (!blob || this.#sceneFor !== record.id) return;
      // The viewer (and three.js behind it) load only now, when there is a scene to show.
      await import('../../viewers/splat-viewer/define.js');
      if (this.#sceneFor !== record.id) return;
      this._scene = URL.createObjectURL(blob);
    } catch (err) {
      if (this.#sceneFor === record.id) this._sceneError = err;
    }
  }

  // ---------------------------------------------------------------- rendering

  protected override render() {
    const t = this.#t;
    return html`<section part="base" class="card" aria-labelledby="title" lang=${this.#t.resolved} dir=${this.#t.dir}>
      <header class="head">
        <h2 id="title">${t.term('vtTitle')}</h2>
        ${this.#status === 'idle' || this.#status === 'ready' || this.#status === 'checking' ? renderCost(t, COSTS.videoJob, this.#credits.remaining, this.topUpHref || undefined) : nothing}
      </header>
      ${this.#renderPhase()}
      ${this._error ? this.#errorPanel(this._error, { onChoose: () => this.#intake.open(), onRetry: () => void this.start(), onRestart: () => this.reset(), topUpHref: this.topUpHref || undefined }) : nothing}
      ${this._notice ? html`<p class="notice" role="status">${this._notice}</p>` : nothing}
      ${this.#status === 'idle' || this.#status === 'ready' ? this.#renderTips() : nothing}
      ${this.#renderHistory()}
      ${this.#announce.render()}
    </section>`;
  }

  #renderPhase() {
    switch (this.#status) {
      case 'idle':
        return this.#renderIdle();
      case 'checking':
        return html`<div class="checking"><p>${this.#t.term('vtChecking')}</p>${this.#bar(undefined, this.#t.term('vtChecking'))}<p class="muted">${this._file?.name}</p></div>`;
      case 'ready':
        return this.#renderReady();
      case 'uploading':
        return this.#renderUploading(false);
      case 'resending':
        return this.#renderUploading(true);
      case 'queued':
      case 'processing':
        return this.#renderProcessing();
      case 'succeeded':
        return this.#renderSucceeded();
      case 'failed':
        return this.#renderFailed();
      case 'expired':
        return html`<div class="expired"><p>${this.#t.term('vtExpired')}</p>${this._scene ? this.#renderViewer() : nothing}
          <div class="actions"><button type="button" class="primary" @click=${() => this.reset()}>${this.#t.term('vtStartAnother')}</button></div></div>`;
    }
  }

  #renderIdle() {
    const t = this.#t;
    return html`<div part="drop-zone" class="drop ${this.#intake.dragging ? 'dragging' : ''}">
        <svg viewBox="0 0 24 24" aria-hidden="true"><path fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round" d="M3 7.5A1.5 1.5 0 0 1 4.5 6h9A1.5 1.5 0 0 1 15 7.5v9a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 3 16.5zM15 10.5l5.2-3a.5.5 0 0 1 .8.4v8.2a.5.5 0 0 1-.8.4l-5.2-3"/></svg>
        ${this.#intake.render(t.term('vtChoose'), { describedBy: 'limits' })}
        <p class="muted">${this.#intake.dragging ? t.term('dropActive') : t.term('dropHere')}</p>
        ${limitsLine(t.term('vtLimits'))}
      </div>`;
  }

  #renderTips() {
    const t = this.#t;
    return html`<details class="tips" part="tips">
      <summary>${t.term('vtTipsTitle')}</summary>
      <ul>
        <li>${t.term('vtTip1')}</li>
        <li>${t.term('vtTip2')}</li>
        <li>${t.term('vtTip3')}</li>
        <li>${t.term('vtTip4')}</li>
      </ul>
    </details>`;
  }

  #renderReady() {
    const t = this.#t;
    const c = this._checked!;
    const f = t.f;
    const adviceKey = { dark: 'vtAdviceDark', bright: 'vtAdviceBright', blurry: 'vtAdviceBlurry', cut: 'vtAdviceCut' } as const;
    return html`<div class="ready">
      <div class="preview">
        ${this._thumb ? html`<img part="thumbnail" src=${this._thumb} alt=${t.term('vtThumbAlt', { name: this._file?.name ?? '' })} />` : html`<div part="thumbnail" class="thumb-empty" aria-hidden="true"></div>`}
        <div class="facts-wrap">
          <p class="file-name">${this._file?.name}</p>
          <dl class="facts" part="facts">
            <div><dt>${t.term('vtFactDuration')}</dt><dd>${f.clock(c.durationSeconds)}</dd></div>
            <div><dt>${t.term('vtFactResolution')}</dt><dd>${c.width}×${c.height}</dd></div>
            <div><dt>${t.term('vtFactSize')}</dt><dd>${f.bytes(c.bytes)}</dd></div>
            <div><dt>${t.term('vtFactFormat')}</dt><dd>${c.container.toUpperCase()}</dd></div>
          </dl>
        </div>
      </div>
      ${this._advice.length
        ? html`<div class="advice" part="advice">
            <h3>${t.term('vtAdviceTitle')}</h3>
            <ul>${this._advice.map((a) => html`<li data-advice=${a}>${t.term(adviceKey[a])}</li>`)}</ul>
            <p class="muted">${t.term('vtAdviceGoOn')}</p>
          </div>`
        : nothing}
      <div class="actions">
        <button type="button" part="confirm-button" class="primary" ?disabled=${this.isDisabled || (this.#credits.remaining ?? Infinity) < COSTS.videoJob} @click=${() => void this.start()}>
          ${t.term('vtConfirm', { cost: COSTS.videoJob })}
        </button>
        ${this.#intake.render(t.term('chooseAnother'), { primary: false })}
      </div>
    </div>`;
  }

  /**
   * The upload, or its resend after a reload (the bytes come from the poller that sends it). A
   * resend has no cancel button: its video is kept on this device and the job may already exist
   * upstream (the first upload's answer was lost), so a cancel could neither promise "nothing
   * charged" nor stop the next visit from sending it again.
   */
  #renderUploading(resend: boolean) {
    const t = this.#t;
    const u = this.#jobs.upload;
    const fraction = u && u.total > 0 ? u.loaded / u.total : 0;
    const percent = Math.round(fraction * 100);
    if (u) this.#announce.progress(fraction, (p) => t.term('vtUploadMilestone', { percent: p }));
    const left = u?.secondsLeft !== undefined ? t.term('timeLeft', { seconds: u.secondsLeft }) : '';
    const sent = u ? t.term('sentOf', { loaded: u.loaded, total: u.total }) : '';
    const waiting = this._waitUntil > Date.now() ? Math.ceil((this._waitUntil - Date.now()) / 1000) : 0;
    const name = resend ? String(this.#jobs.record?.summary['name'] ?? '') : (this._file?.name ?? '');
    // Before the first bytes of a resend (or after one that failed and waits for the next visit), no amount is known.
    const value = !u && resend ? t.term('vtResendingShort') : t.term(resend ? 'vtResendValue' : 'vtUploadValue', { percent, sent, left });
    return html`<div class="stage">
      <p><strong>${t.term(resend ? 'vtResendingShort' : 'vtUploading')}</strong> <span class="muted">${name}</span></p>
      ${this.#bar(u ? fraction : undefined, value)}
      ${u ? html`<p class="muted nums">${sent}${u.bytesPerSecond > 0 ? html` · ${t.term('rate', { bytesPerSecond: u.bytesPerSecond })}` : nothing}${left ? html` · ${left}` : nothing}</p>` : nothing}
      ${resend ? html`<p class="notice">${t.term('vtResending')}</p>` : nothing}
      ${waiting ? html`<p class="notice" part="wait">${t.term('waitingRetry', { seconds: waiting })}</p>` : nothing}
      ${resend ? nothing : html`<div class="actions"><button type="button" part="cancel-button" class="secondary" @click=${() => this.cancel()}>${t.term('cancel')}</button></div>`}
    </div>`;
  }

  #renderProcessing() {
    const t = this.#t;
    const r = this.#jobs.record!;
    const queued = r.status === 'queued';
    const percent = Math.round(r.progress);
    const elapsed = (Date.now() - r.createdAt) / 1000;
    return html`<div class="stage">
      <p><strong>${queued ? t.term('vtQueued') : t.term('vtProcessing')}</strong> ${queued ? nothing : html`<span class="nums">${t.f.percent(percent / 100)}</span>`}</p>
      ${this.#bar(queued ? undefined : percent / 100, queued ? t.term('vtQueued') : t.term('vtProcessingValue', { percent }))}
      <p class="muted nums">${t.term('elapsed', { seconds: elapsed })}${r.summary['name'] ? html` · ${r.summary['name']}` : nothing}</p>
      <p class="notice">${t.term('vtCloseOk')}</p>
    </div>`;
  }

  #renderSucceeded() {
    const t = this.#t;
    const output = (this.#jobs.record?.job as VideoJob | undefined)?.output;
    return html`<div class="result">
      <h3 class="result-title" tabindex="-1">${this._away ? t.term('vtSucceededAway') : t.term('vtSucceeded')}</h3>
      ${this.#renderViewer()}
      ${this._sceneCached ? html`<p class="muted">${t.term('vtCached')}</p>` : nothing}
      <div class="actions">
        ${output && safeUrl(output.ply_url) && safeUrl(output.archive_url)
          ? html`<a class="button primary" part="download-ply" href=${output.ply_url} download>${t.term('vtDownloadPly')}</a>
              <a class="button secondary" part="download-zip" href=${output.archive_url} download>${t.term('vtDownloadZip')}</a>`
          : nothing}
        <button type="button" class="secondary" @click=${() => this.reset()}>${t.term('vtStartAnother')}</button>
      </div>
    </div>`;
  }

  #renderViewer() {
    if (this._sceneError) return this.#errorPanel(this._sceneError, { onRetry: () => this.#retryScene() });
    if (!this._scene) return html`<div class="viewer-wait" part="viewer">${this.#bar(undefined, this.#t.term('vtLoadingScene'))}<p class="muted">${this.#t.term('vtLoadingScene')}</p></div>`;
    return html`<splat-viewer part="viewer" loading="eager" @mk-viewer-load=${() => this.#perf.end('first-frame')} src=${this._scene} alt=${this.#t.term('vtSceneAlt', { name: String(this.#jobs.record?.summary['name'] ?? '') })} lang=${this.#t.resolved}></splat-viewer>`;
  }

  #retryScene(): void {
    const record = this.#jobs.record;
    this.#clearScene();
    if (record) void this.#loadScene(record);
  }

  #renderFailed() {
    const t = this.#t;
    const r = this.#jobs.record!;
    // Its own panel, not the kit's provider error: that one says "nothing was charged", and here
    // the charge was made and refunded.
    return html`<div part="error" class="error failed" role="alert">
      <svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 7v6M12 16.5v.5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>
      <div class="error-text">
        <strong class="error-title">${t.term('vtFailed')}</strong>
        ${r.error?.message ? html`<span class="error-hint">${r.error.message}</span>` : nothing}
        ${r.handle ? html`<span class="refund" part="refund">${t.term('vtRefunded', { cost: COSTS.videoJob })}</span>` : nothing}
      </div>
      <div class="actions"><button type="button" class="primary" @click=${() => { this.reset(); void this.updateComplete.then(() => this.#intake.open()); }}>${t.term('vtTryAnother')}</button></div>
    </div>`;
  }

  #renderHistory() {
    const t = this.#t;
    const current = this.#jobs.record?.id;
    const list = this._history.filter((r) => r.id !== current && r.status !== 'creating').slice(0, 8);
    if (!list.length) return nothing;
    const label = { queued: 'vtStatusQueued', processing: 'vtStatusProcessing', succeeded: 'vtStatusSucceeded', failed: 'vtStatusFailed', expired: 'vtStatusExpired', creating: 'vtStatusCreating' } as const;
    return html`<details class="history" part="history" ?open=${this.#status === 'idle'}>
      <summary>${t.term('vtRecent')}</summary>
      <ul>
        ${list.map(
          (r) => html`<li>
            <span class="h-name">${r.summary['name'] ?? r.id.slice(0, 8)}</span>
            <span class="muted">${new Intl.DateTimeFormat(t.resolved, { dateStyle: 'medium', timeStyle: 'short' }).format(r.createdAt)} · ${t.term(label[r.status])}</span>
            <button type="button" class="link" aria-label=${`${t.term('vtOpen')}: ${r.summary['name'] ?? ''}`} @click=${() => this.#adopt(r.id)}>${t.term('vtOpen')}</button>
          </li>`,
        )}
      </ul>
    </details>`;
  }

  #panel: Panel | undefined;

  #errorPanel(error: unknown, options: ErrorPanelOptions) {
    if (!this.#panel) {
      void loadPanel().then((m) => ((this.#panel = m), this.requestUpdate()));
      return nothing;
    }
    return this.#panel.renderErrorPanel(this.#t, error, options);
  }

  #bar(fraction: number | undefined, valueText: string) {
    const pct = fraction === undefined ? undefined : Math.round(Math.max(0, Math.min(1, fraction)) * 100);
    return html`<div part="progress" class="meter ${pct === undefined ? 'indeterminate' : ''}" role="progressbar" aria-label=${valueText.split(':')[0]!}
      aria-valuemin="0" aria-valuemax="100" aria-valuenow=${pct ?? nothing} aria-valuetext=${valueText}>
      <div style=${styleProps(pct === undefined ? {} : { inlineSize: `${pct}%` })}></div>
    </div>`;
  }
}

type Panel = typeof import('../shared/error-panel.js');
let panel: Promise<Panel> | undefined;
/** The error panel and its words load after the element shows (on idle), not with the page. */
const loadPanel = () => (panel ??= import('../shared/error-panel.js'));

declare global {
  interface HTMLElementTagNameMap {
    'video-to-3d-uploader': VideoTo3dUploader;
  }
}
