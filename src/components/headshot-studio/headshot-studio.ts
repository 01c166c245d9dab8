import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { headshotCharge, LIMITS, type HeadshotStyle, type VariantSlot } from '../../api/index.js';
import { HeadshotChooseEvent } from '../../events/headshot-choose.js';
import { HeadshotsReadyEvent, type HeadshotSlot } from '../../events/headshots-ready.js';
import { PhaseTimer } from '../../internal/perf.js';
import { AnnouncerController } from '../shared/announcer.js';
import { ProductElement } from '../shared/product-element.js';
import { CreditsController, renderCost } from '../shared/credits.js';
import { renderErrorPanel } from '../shared/error-panel.js';
import { FileIntakeController } from '../shared/file-intake.js';
import { LocalizeController } from '../shared/localize.js';
import { sharedStrings, type SharedStrings } from '../shared/strings.js';
import { elementStyles } from '../shared/styles.js';
import { limitsLine } from '../shared/limits.js';
import { CameraController } from './camera.js';
import { headshotStyles } from './headshot-studio.styles.js';
import { renderReady } from './choices-view.js';
import { HeadshotBatch } from './batch.js';
import { HeadshotPhoto } from './photo.js';
import { renderResults } from './results-view.js';
import { headshotStrings, type HeadshotStrings } from './strings.js';
import { focusFirst } from '../../internal/small.js';

void sharedStrings;
void headshotStrings;

export type HeadshotStatus = 'idle' | 'ready' | 'working' | 'succeeded' | 'partial' | 'failed';
const PHASES: readonly HeadshotStatus[] = ['idle', 'ready', 'working', 'succeeded', 'partial', 'failed'];
const SLOTS = LIMITS.headshot.slots;
type Strings = HeadshotStrings & SharedStrings;

const variantsConverter = {
  fromAttribute: (v: string | null): VariantSlot[] => [...new Set((v ?? '').split(/[\s,]+/).map(Number).filter((n) => (SLOTS as readonly number[]).includes(n)))].sort() as VariantSlot[],
  toAttribute: (v: VariantSlot[]) => v.join(','),
};

/**
 * @summary Professional headshots from one selfie: photo by picker, drop, paste or live camera, checks before spending, four styles, a 2x2 result grid with per-slot retry, downloads, and the chosen headshot as the form value.
 * @tag headshot-studio
 *
 * Form value (with `name`): the chosen headshot as a PNG `File`.
 *
 * @slot top-up - Shown when the session has too few credits (a link or button to the site's top-up page).
 *
 * @event mk-file-select - A photo was chosen, dropped, pasted or taken; cancel it to veto the photo.
 * @event mk-headshots-ready - A batch (or one retried slot) came back: `detail.headshots`, `charged`, `remaining` (from the response).
 * @event mk-headshot-choose - The user chose one headshot (`detail.slot`, `file`); it is now the form value.
 *
 * @csspart base - The card around everything.
 * @csspart drop-zone - The area that takes a dropped photo.
 * @csspart choose-button - Opens the file picker.
 * @csspart camera-button - Opens the live camera.
 * @csspart camera - The live preview with its framing guide.
 * @csspart capture-button - Takes the photo.
 * @csspart photo - The chosen selfie.
 * @csspart advice - Hints about the photo (never blocking).
 * @csspart styles - The style picker.
 * @csspart slots - The choice of versions.
 * @csspart cost - The cost line.
 * @csspart generate-button - Makes the headshots.
 * @csspart results - The 2x2 grid.
 * @csspart result - One slot of the grid (also `succeeded`, `failed` or `loading`).
 * @csspart retry-button - Retries one failed slot.
 * @csspart download-button - Downloads one headshot.
 * @csspart download-all - Downloads all as one zip.
 * @csspart choose-result - Chooses one headshot as the value.
 * @csspart charged - What the last answer charged.
 * @csspart wait - The countdown while the service asks to wait (429).
 * @csspart error - The error panel.
 *
 * @cssproperty --mk-accent - Accent colour (buttons, chosen outline). Default #2f5bea.
 * @cssproperty --mk-surface - Card background.
 * @cssproperty --mk-border - Borders.
 * @cssproperty --mk-radius - Corner radius. Default 12px.
 * @cssproperty --mk-space - Spacing unit. Default 8px.
 * @cssproperty --mk-focus-ring - Focus ring colour.
 *
 * @cssstate idle - No photo yet.
 * @cssstate ready - A checked photo, waiting for the choice of style and versions.
 * @cssstate working - Headshots are being made (a batch or one retried slot).
 * @cssstate succeeded - Every requested headshot is there.
 * @cssstate partial - Some slots failed (not charged); each can be retried.
 * @cssstate failed - Nothing came back (every slot failed, or the request was refused).
 * @cssstate camera - The live camera is open.
 */
export class HeadshotStudio extends ProductElement {
  static override styles = [elementStyles, headshotStyles];

  /** The style to make: `corporate`, `business-casual`, `bewerbung` or `creative`. Default `corporate`. */
  @property({ attribute: 'headshot-style' }) headshotStyle: HeadshotStyle = 'corporate';

  /** Which slots to make, as "0,1,2,3" in the attribute. Default all four. */
  @property({ converter: variantsConverter }) variants: VariantSlot[] = [0, 1, 2, 3];

  /** Overrides of single strings, in any language: `{ hsTitle: 'Your profile photo' }`. */
  declare strings: Partial<Strings> | undefined;

  @state() private _chosen: VariantSlot | undefined;

  readonly #t = new LocalizeController<Strings>(this);
  readonly #announce = new AnnouncerController(this);
  readonly #credits = new CreditsController(this, () => this.mediaClient());
  readonly #camera = new CameraController(this);
  /** The selfie and its checks (why it was refused; a batch's failure is the batch controller's). */
  readonly #photo = new HeadshotPhoto(this);
  readonly #batch = new HeadshotBatch(this, {
    client: () => this.mediaClient(),
    onAnswer: (a) => this.dispatchEvent(new HeadshotsReadyEvent({ ...a, headshots: this.#batch.headshots })),
  });
  readonly #intake = new FileIntakeController(this, {
    accept: 'image/jpeg,image/png,image/webp',
    onFiles: ([file]) => {
      this.reset();
      void this.#photo.check(file!);
    },
    enabled: () => !this.isDisabled && !this.#batch.working,
    pageWide: () => this.pasteGlobal,
  });

  #status: HeadshotStatus = 'idle';
  readonly #perf = new PhaseTimer('headshot-studio');

  /** Where the element is: `idle`, `ready`, `working`, `succeeded`, `partial`, `failed`. */
  get status(): HeadshotStatus {
    return this.#status;
  }

  /** The slots of the current batch: status, PNG blob and size, or the failure message. */
  get headshots(): HeadshotSlot[] {
    return this.#batch.headshots;
  }

  /** The chosen headshot (also the form value), or null. */
  get value(): File | null {
    return this.formValue();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('headshotStyle') || changed.has('variants')) this.#batch.forgetKey();
    const before = this.#status;
    this.#status = this.#derive();
    if (before !== this.#status) this.#phaseChanged(before);
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.setPhase(PHASES, this.#status);
    this.setState('camera', this.#camera.open);
  }

  // ---------------------------------------------------------------- public methods

  /** Takes a photo as if the user had chosen it (fires `mk-file-select`, then checks it). */
  selectFile(file: File): void {
    this.#intake.offer([file], 'property');
  }

  /** Opens the live camera (call from a user gesture); where there is none, the phone camera picker. */
  async openCamera(): Promise<void> {
    if (!CameraController.supported) return this.#camera.pick();
    await this.#camera.start();
    await this.updateComplete;
    (this.renderRoot.querySelector(this.#camera.state === 'on' ? '[part~="capture-button"]' : '[part~="camera-button"]') as HTMLElement | null)?.focus();
  }

  /** Takes the photo from the live camera and checks it. */
  async capture(): Promise<void> {
    const file = await this.#camera.take();
    if (!file) return;
    this.#announce.say(this.#t.term('hsCaptured'));
    this.#intake.offer([file], 'camera');
  }

  /** Makes the chosen slots in the chosen style (what the generate button does). A second call while one runs does nothing. The main action's verb, `start()`, on every element. */
  async start(): Promise<void> {
    const slots = this.#slots();
    const file = this.#photo.file;
    if (!file || this.#photo.checking || this.#batch.working || this.isDisabled || !slots.length) return;
    this._chosen = undefined;
    const made = this.#batch.make(file, this.headshotStyle, slots);
    this.syncForm();
    await made;
  }

  /** Makes one failed slot again (`variants: [slot]`), charged only if it succeeds. */
  async retry(slot: VariantSlot): Promise<void> {
    const file = this.#photo.file;
    if (!file || this.isDisabled || !(await this.#batch.retry(file, slot))) return;
    await this.updateComplete;
    (this.renderRoot.querySelector(`[data-slot="${slot}"] h4`) as HTMLElement | null)?.focus();
  }

  /** Chooses one succeeded headshot as the form value (fires `mk-headshot-choose`). */
  choose(slot: VariantSlot): void {
    const entry = this.#batch.results.find((r) => r.slot === slot && r.status === 'succeeded');
    if (!entry) return;
    this._chosen = slot;
    this.syncForm();
    const file = this.formValue()!;
    this.#announce.say(this.#t.term('hsChosenSay', { slot: this.#slotName(slot) }));
    this.dispatchEvent(new HeadshotChooseEvent({ slot, style: this.#batch.style, file, width: entry.width ?? 0, height: entry.height ?? 0 }));
  }

  /** Every succeeded headshot of the batch as one zip of PNGs (made in the browser). */
  async toZip(): Promise<Blob> {
    return this.#batch.zip();
  }

  /** Downloads every succeeded headshot as one zip. */
  async downloadAll(): Promise<void> {
    const url = URL.createObjectURL(await this.toZip());
    const a = document.createElement('a');
    a.href = url;
    a.download = `headshots-${this.#batch.style}.zip`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  /** Back to the start: forgets the photo, the results and the choice. */
  reset(): void {
    this.#perf.clear();
    this.#camera.stop();
    this.#batch.clear();
    this.#photo.clear();
    this._chosen = undefined;
    this.syncForm();
  }

  // ---------------------------------------------------------------- form association

  protected formValue(): File | null {
    const entry = this.#batch.results.find((r) => r.slot === this._chosen && r.status === 'succeeded');
    return entry?.blob ? new File([entry.blob], this.#batch.fileName(entry.slot), { type: 'image/png' }) : null;
  }

  protected requiredMessage(): string {
    return this.#t.term('hsRequired');
  }

  protected resetValue(): void {
    this.reset();
  }

  // ---------------------------------------------------------------- internals

  #slots(): VariantSlot[] {
    return SLOTS.filter((s) => this.variants.includes(s));
  }

  #slotName(slot: VariantSlot): string {
    return this.#t.term(`hsSlot${slot}`);
  }

  #derive(): HeadshotStatus {
    const results = this.#batch.results;
    if (this.#batch.working) return 'working';
    if (results.length) {
      const ok = results.filter((r) => r.status === 'succeeded').length;
      return ok === results.length ? 'succeeded' : ok > 0 ? 'partial' : 'failed';
    }
    const { file, checking, error } = this.#photo;
    if ((error || this.#batch.error) && file) return 'failed';
    if (file && !checking) return 'ready';
    return 'idle';
  }

  #phaseChanged(before: HeadshotStatus): void {
    // User Timing `process`: the generation request (the photo goes with it), a batch or one slot's retry (README "Performance timings").
    if (this.#status === 'working') this.#perf.start('process');
    if (before === 'working') this.#perf.end('process', { status: this.#status });
    const t = this.#t;
    const ok = this.#batch.results.filter((r) => r.status === 'succeeded').length;
    if (this.#status === 'ready' && before === 'idle') this.#announce.say(t.term('hsGenerate', { count: this.#slots().length, cost: headshotCharge(this.#slots().length) }));
    if (this.#status === 'working') this.#announce.say(t.term('hsWorking'));
    if (this.#status === 'succeeded' || this.#status === 'partial') this.#announce.say(t.term('hsReady', { ok, total: this.#batch.results.length }));
    // Focus follows the end of a phase: to the next action, the results, or what to do about a failure.
    const focusTo: Partial<Record<HeadshotStatus, string>> = {
      ready: '[part~="generate-button"]',
      succeeded: '.results-title',
      partial: '.results-title',
      failed: '[part~="error"] button, [part~="error"] a, [part~="generate-button"]',
    };
    const selector = focusTo[this.#status];
    if (selector && (before === 'working' || this.#status === 'ready')) {
      void this.updateComplete.then(() => focusFirst(this.renderRoot, selector));
    }
  }

  // ---------------------------------------------------------------- rendering

  protected override render() {
    const t = this.#t;
    const s = this.#status;
    const b = this.#batch;
    const photo = this.#photo;
    const error = photo.error ?? b.error;
    const choosing = s === 'idle' || s === 'ready' || (s === 'failed' && !b.results.length);
    return html`<section part="base" class="card" aria-labelledby="title" lang=${t.resolved} dir=${t.dir}>
      <header class="head">
        <h2 id="title">${t.term('hsTitle')}</h2>
        ${choosing ? renderCost(t, headshotCharge(this.#slots().length), this.#credits.remaining, this.topUpHref || undefined) : nothing}
      </header>
      ${photo.file ? nothing : this.#renderIntake()}
      ${photo.checking ? html`<div class="stage"><p>${t.term('hsChecking')}</p><div class="meter indeterminate" role="progressbar" aria-label=${t.term('hsChecking')}><div></div></div></div>` : nothing}
      ${photo.file && !photo.checking && choosing ? this.#renderReady() : nothing}
      ${error
        ? renderErrorPanel(t, error, {
            onChoose: () => this.#intake.open(),
            onRetry: photo.file ? () => void (b.errorSlot === undefined ? this.start() : this.retry(b.errorSlot)) : undefined,
            onRestart: () => this.reset(),
            topUpHref: this.topUpHref || undefined,
          })
        : nothing}
      ${b.waitSeconds ? html`<p class="notice" part="wait">${t.term('waitingRetry', { seconds: b.waitSeconds })}</p>` : nothing}
      ${b.results.length ? this.#renderResults() : nothing}
      ${this.#announce.render()}
    </section>`;
  }

  #renderIntake() {
    const t = this.#t;
    if (this.#camera.open) return this.#camera.render(t, () => void this.capture());
    return html`<div part="drop-zone" class="drop ${this.#intake.dragging ? 'dragging' : ''}">
      <svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="9" r="4" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M4.5 20c1.2-3.6 4-5.5 7.5-5.5s6.3 1.9 7.5 5.5" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>
      <div class="actions center">
        ${this.#intake.render(t.term('hsChoose'), { describedBy: 'limits' })}
        <button type="button" part="camera-button" class="secondary" ?disabled=${this.isDisabled} @click=${() => void this.openCamera()}>${t.term('hsCamera')}</button>
        ${this.#camera.renderFallback((files) => this.#intake.offer(files, 'camera'))}
      </div>
      <p class="muted">${this.#intake.dragging ? t.term('dropActive') : t.term('dropHere')}</p>
      ${limitsLine(t.term('hsLimits'))}
      ${this.#camera.state === 'denied' ? html`<p class="notice" role="status">${t.term('hsCameraDenied')}</p>` : nothing}
    </div>`;
  }

  #renderReady() {
    const slots = this.#slots();
    const cost = headshotCharge(slots.length);
    return renderReady({
      t: this.#t,
      photo: this.#photo,
      style: this.headshotStyle,
      slots,
      cost,
      disabled: this.isDisabled || !slots.length || (this.#credits.remaining ?? Infinity) < cost,
      slotName: (slot) => this.#slotName(slot),
      onStyle: (style) => (this.headshotStyle = style),
      onSlot: (slot, on) => this.#toggleSlot(slot, on),
      onNewPhoto: () => this.reset(),
      onGenerate: () => void this.start(),
    });
  }

  #renderResults() {
    return renderResults({
      t: this.#t,
      results: this.#batch.results,
      style: this.#batch.style,
      working: this.#status === 'working',
      chosen: this._chosen,
      last: this.#batch.last,
      chargedTotal: this.#batch.chargedTotal,
      retryAllowed: !this.isDisabled && (this.#credits.remaining ?? Infinity) >= headshotCharge(1),
      slotName: (slot) => this.#slotName(slot),
      fileName: (slot) => this.#batch.fileName(slot),
      onChoose: (slot) => this.choose(slot),
      onRetry: (slot) => void this.retry(slot),
      onDownloadAll: () => void this.downloadAll(),
      onAgain: () => this.#again(),
      onReset: () => this.reset(),
    });
  }

  #toggleSlot(slot: VariantSlot, on: boolean): void {
    const now = this.#slots();
    this.variants = on ? [...new Set([...now, slot])].sort() : now.filter((x) => x !== slot);
  }

  #again(): void {
    this.#batch.clearResults();
    this._chosen = undefined;
    this.syncForm();
    void this.updateComplete.then(() => (this.renderRoot.querySelector('[part~="generate-button"]') as HTMLElement | null)?.focus());
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'headshot-studio': HeadshotStudio;
  }
}
