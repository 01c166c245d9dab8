import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { COSTS, LIMITS, type ImageToolFormat, type ImageToolSize } from '../../api/index.js';
import { validateImageUrl } from '../../client/validate-input.js';
import { ImageReadyEvent } from '../../events/image-ready.js';
import { AnnouncerController } from '../shared/announcer.js';
import { ProductElement } from '../shared/product-element.js';
import { CreditsController, renderCost } from '../shared/credits.js';
import { renderErrorPanel } from '../shared/error-panel.js';
import { FileIntakeController } from '../shared/file-intake.js';
import { LocalizeController } from '../shared/localize.js';
import { sharedStrings, type SharedStrings } from '../shared/strings.js';
import { elementStyles } from '../shared/styles.js';
import { limitsLine } from '../shared/limits.js';
import { bgToolStyles } from './bg-tool.styles.js';
import { CompareController } from './compare.js';
import { BgImage } from './image.js';
import { hex6, renderOptions } from './options-view.js';
import { renderBefore, renderResult } from './result-view.js';
import { BgRunController } from './run.js';
import { bgStrings, type BgStrings } from './strings.js';
import { focusFirst } from '../../internal/small.js';

void sharedStrings;
void bgStrings;

export type BgToolStatus = 'idle' | 'ready' | 'working' | 'succeeded' | 'failed';
const PHASES: readonly BgToolStatus[] = ['idle', 'ready', 'working', 'succeeded', 'failed'];
type Strings = BgStrings & SharedStrings;

export interface BgToolResult {
  blob: Blob;
  url: string;
  width: number;
  height: number;
  format: ImageToolFormat;
  charged: number;
  remaining: number;
}

/**
 * @summary Background removal for one image: picker, drop, paste or URL; size, format, background colour and crop; a before/after slider; download, copy, run again; the result as a form value.
 * @tag bg-tool
 *
 * Form value (with `name`): the processed image as a `File` (PNG or JPG). `required` makes the form invalid until there is one.
 *
 * @slot top-up - Shown when the session has too few credits (a link or button to the site's top-up page).
 *
 * @event mk-file-select - An image was chosen, dropped or pasted; cancel it to veto the image.
 * @event mk-image-ready - The background was removed: `detail.blob`, `width`, `height`, `format`, `charged`, `remaining` (from the response).
 *
 * @csspart base - The card around everything.
 * @csspart drop-zone - The area that takes a dropped image.
 * @csspart choose-button - Opens the file picker.
 * @csspart url-input - The image address field.
 * @csspart options - The options (size, format, background, crop).
 * @csspart cost - The cost line.
 * @csspart run-button - Removes the background (again).
 * @csspart compare - The before/after comparison.
 * @csspart slider - The comparison handle (role=slider).
 * @csspart facts - Size, dimensions, format and charge of the result.
 * @csspart download-button - Downloads the result.
 * @csspart copy-button - Copies the result to the clipboard (where the browser allows).
 * @csspart wait - The countdown while the service asks to wait (429).
 * @csspart error - The error panel.
 *
 * @cssproperty --mk-accent - Accent colour. Default #2f5bea.
 * @cssproperty --mk-surface - Card background.
 * @cssproperty --mk-border - Borders.
 * @cssproperty --mk-radius - Corner radius. Default 12px.
 * @cssproperty --mk-space - Spacing unit. Default 8px.
 * @cssproperty --mk-focus-ring - Focus ring colour.
 * @cssproperty --mk-compare-height - Height of the comparison. Default 360px.
 *
 * @cssstate idle - No image yet.
 * @cssstate ready - An image, waiting for the options.
 * @cssstate working - The background is being removed.
 * @cssstate succeeded - The result is shown (and is the form value).
 * @cssstate failed - The call failed or was refused (nothing charged).
 */
export class BgTool extends ProductElement {
  static override styles = [elementStyles, bgToolStyles];

  /** Output size: `auto`, `preview` (at most 0.25 MP) or `full`. Default `auto`. */
  @property() size: ImageToolSize = 'auto';

  /** Output format: `png` (transparent) or `jpg`. Default `png`. */
  @property() format: ImageToolFormat = 'png';

  /** Background colour as `#rrggbb`, or `none` for transparency. Default `none`. */
  @property({ attribute: 'bg-color' }) bgColor = 'none';

  /** Crop to the subject's bounding box. Default false. */
  @property({ type: Boolean }) crop = false;

  /** Overrides of single strings, in any language: `{ bgTitle: 'Product photo' }`. */
  declare strings: Partial<Strings> | undefined;

  @state() private _urlText = '';
  @state() private _urlInvalid = false;
  @state() private _notice = '';
  /** The last non-`none` colour, so unticking "none" brings it back. */
  @state() private _colour = '#ffffff';

  readonly #t = new LocalizeController<Strings>(this);
  readonly #announce = new AnnouncerController(this);
  readonly #credits = new CreditsController(this, () => this.mediaClient());
  readonly #compare = new CompareController(this);
  /** The original and its check (why it was refused; a request's failure is the run controller's). */
  readonly #image = new BgImage(this);
  readonly #request = new BgRunController(this, {
    client: () => this.mediaClient(),
    onResult: (result) => this.#resultIn(result),
  });
  readonly #intake = new FileIntakeController(this, {
    accept: 'image/jpeg,image/png,image/webp',
    onFiles: ([file]) => {
      this.#clear();
      void this.#image.check(file!);
    },
    enabled: () => !this.isDisabled && !this.#request.busy,
    pageWide: () => this.pasteGlobal,
  });

  #status: BgToolStatus = 'idle';

  /** Where the element is: `idle`, `ready`, `working`, `succeeded`, `failed`. */
  get status(): BgToolStatus {
    return this.#status;
  }

  /** The last result (blob, dimensions, format, what it charged), or undefined. */
  get result(): Omit<BgToolResult, 'url'> | undefined {
    if (!this.#request.result) return undefined;
    const { url: _url, ...rest } = this.#request.result;
    return rest;
  }

  /** The result as a File (also the form value), or null. */
  get value(): File | null {
    return this.formValue();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Other options are another request: a new key, so it is never mistaken for a replay.
    if (changed.has('size') || changed.has('format') || changed.has('bgColor') || changed.has('crop')) this.#request.forgetKey();
    if (changed.has('bgColor') && this.bgColor !== 'none' && LIMITS.imageTools.bgColorPattern.test(this.bgColor)) this._colour = hex6(this.bgColor);
    const before = this.#status;
    this.#status = this.#derive();
    if (before !== this.#status) this.#phaseChanged(before);
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.setPhase(PHASES, this.#status);
  }

  // ---------------------------------------------------------------- public methods

  /** Takes an image as if the user had chosen it (fires `mk-file-select`, then checks it). */
  selectFile(file: File): void {
    this.#intake.offer([file], 'property');
  }

  /** Takes an image by its address; the service fetches it. */
  selectUrl(url: string): void {
    try {
      validateImageUrl(url.trim(), 'image_url');
    } catch {
      this._urlInvalid = true;
      return;
    }
    this.#clear();
    this._urlInvalid = false;
    this.#image.useUrl(url.trim());
  }

  /** Removes the background with the current options (what the run button does). A second call while one runs does nothing. The main action's verb, `start()`, on every element. */
  async start(): Promise<void> {
    const { source, checking } = this.#image;
    if (!source || checking || this.#request.busy || this.isDisabled) return;
    this._notice = '';
    await this.#request.run({ image: source, size: this.size, format: this.format, crop: this.crop, bgColor: this.bgColor });
  }

  /** Copies the result to the clipboard as PNG (where the browser allows it). */
  async copy(): Promise<boolean> {
    const result = this.#request.result;
    if (!result) return false;
    try {
      const png = result.format === 'png' ? result.blob : await toPng(result.blob);
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': png })]);
      this._notice = this.#t.term('bgCopied');
      this.#announce.say(this._notice);
      return true;
    } catch {
      this._notice = this.#t.term('bgCopyFailed');
      this.#announce.say(this._notice);
      return false;
    }
  }

  /** Back to the start: forgets the image and the result. */
  reset(): void {
    this.#request.cancel();
    this.#image.cancel();
    this.#clear();
    this._urlText = '';
    this._urlInvalid = false;
    this.syncForm();
  }

  // ---------------------------------------------------------------- form association

  protected formValue(): File | null {
    const r = this.#request.result;
    if (!r) return null;
    const source = this.#image.source;
    const base = source instanceof File ? source.name.replace(/\.[^.]+$/, '') : 'image';
    return new File([r.blob], `${base}-no-background.${r.format === 'jpg' ? 'jpg' : 'png'}`, { type: r.blob.type || (r.format === 'jpg' ? 'image/jpeg' : 'image/png') });
  }

  protected requiredMessage(): string {
    return this.#t.term('bgRequired');
  }

  protected resetValue(): void {
    this.reset();
  }

  // ---------------------------------------------------------------- internals

  #derive(): BgToolStatus {
    if (this.#request.busy) return 'working';
    const { source, checking, error } = this.#image;
    if ((error || this.#request.error) && source) return 'failed';
    if (this.#request.result) return 'succeeded';
    if (source && !checking) return 'ready';
    return 'idle';
  }

  #phaseChanged(before: BgToolStatus): void {
    if (this.#status === 'working') this.#announce.say(this.#t.term('bgWorking'));
    const focusTo: Partial<Record<BgToolStatus, string>> = {
      ready: '[part~="run-button"]',
      succeeded: '.result-title',
      failed: '[part~="error"] button, [part~="error"] a, [part~="run-button"]',
    };
    const selector = focusTo[this.#status];
    if (selector && (before === 'working' || (this.#status === 'ready' && before === 'idle'))) {
      void this.updateComplete.then(() => focusFirst(this.renderRoot, selector));
    }
  }

  #resultIn({ blob, width, height, format, charged, remaining }: BgToolResult): void {
    this.syncForm();
    this.dispatchEvent(new ImageReadyEvent({ blob, width, height, format, charged, remaining }));
    this.#announce.say(this.#t.term('bgDoneSay', { width, height, format: format.toUpperCase(), bytes: blob.size }));
  }

  #clear(): void {
    this.#image.clear();
    this.#request.clear();
    this._notice = '';
  }

  #setColour(colour: string): void {
    this._colour = colour;
    this.bgColor = colour;
  }

  // ---------------------------------------------------------------- rendering

  protected override render() {
    const t = this.#t;
    const { source, checking } = this.#image;
    const result = this.#request.result;
    const error = this.#image.error ?? this.#request.error;
    const wait = this.#request.waitSeconds;
    return html`<section part="base" class="card" aria-labelledby="title" lang=${t.resolved} dir=${t.dir}>
      <header class="head">
        <h2 id="title">${t.term('bgTitle')}</h2>
        ${source ? renderCost(t, COSTS.imageTool, this.#credits.remaining, this.topUpHref || undefined) : nothing}
      </header>
      ${source ? nothing : this.#renderIntake()}
      ${checking ? html`<p>${t.term('bgChecking')}</p>` : nothing}
      ${result ? this.#renderResult() : source && !checking ? renderBefore(t, this.#image, () => this.reset()) : nothing}
      ${source && !checking ? this.#renderOptions() : nothing}
      ${wait ? html`<p class="notice" part="wait">${t.term('waitingRetry', { seconds: wait })}</p>` : nothing}
      ${error
        ? renderErrorPanel(t, error, { onChoose: () => this.#intake.open(), onRetry: source ? () => void this.start() : undefined, onRestart: () => this.reset(), topUpHref: this.topUpHref || undefined })
        : nothing}
      ${this.#announce.render()}
    </section>`;
  }

  #renderIntake() {
    const t = this.#t;
    return html`<div part="drop-zone" class="drop ${this.#intake.dragging ? 'dragging' : ''}" data-validity-anchor>
        <svg viewBox="0 0 24 24" aria-hidden="true"><rect x="3" y="4" width="18" height="16" rx="2" fill="none" stroke="currentColor" stroke-width="1.6"/><circle cx="9" cy="10" r="2" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M4 18l5-5 4 4 3-3 4 4" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/></svg>
        ${this.#intake.render(t.term('bgChoose'), { describedBy: 'limits' })}
        <p class="muted">${this.#intake.dragging ? t.term('dropActive') : t.term('dropHere')}</p>
        ${limitsLine(t.term('bgLimits'))}
      </div>
      <div class="url-row">
        <label for="url">${t.term('bgUrlLabel')}</label>
        <div class="row">
          <input id="url" part="url-input" type="url" inputmode="url" autocomplete="off" placeholder="https://" .value=${this._urlText}
            aria-invalid=${this._urlInvalid ? 'true' : 'false'} aria-describedby=${this._urlInvalid ? 'url-error' : nothing} ?disabled=${this.isDisabled}
            @input=${(e: Event) => ((this._urlText = (e.target as HTMLInputElement).value), (this._urlInvalid = false))}
            @keydown=${(e: KeyboardEvent) => e.key === 'Enter' && (e.preventDefault(), this.selectUrl(this._urlText))} />
          <button type="button" class="secondary" ?disabled=${this.isDisabled || !this._urlText.trim()} @click=${() => this.selectUrl(this._urlText)}>${t.term('bgUrlUse')}</button>
        </div>
        ${this._urlInvalid ? html`<p class="invalid" id="url-error">${t.term('bgUrlInvalid')}</p>` : nothing}
      </div>`;
  }

  #renderOptions() {
    const t = this.#t;
    const working = this.#request.busy;
    const again = !!this.#request.result;
    const short = (this.#credits.remaining ?? Infinity) < COSTS.imageTool;
    return html`${renderOptions({
        t,
        disabled: working || this.isDisabled,
        size: this.size,
        format: this.format,
        bgColor: this.bgColor,
        colour: this._colour,
        crop: this.crop,
        onSize: (size) => (this.size = size),
        onFormat: (format) => (this.format = format),
        onNone: (none) => (this.bgColor = none ? 'none' : this._colour),
        onColour: (colour) => this.#setColour(colour),
        onCrop: (crop) => (this.crop = crop),
      })}
      <div class="actions">
        <button type="button" part="run-button" class="primary" aria-describedby=${again ? 'again-note' : nothing} ?disabled=${working || this.isDisabled || short} @click=${() => void this.start()}>
          ${again ? t.term('bgRunAgain', { cost: COSTS.imageTool }) : t.term('bgRun', { cost: COSTS.imageTool })}
        </button>
        ${working ? html`<div class="meter indeterminate" role="progressbar" aria-label=${t.term('bgWorking')}><div></div></div>` : nothing}
      </div>
      ${again ? html`<p class="muted" id="again-note">${t.term('bgRunAgainNote')}</p>` : nothing}`;
  }

  #renderResult() {
    return renderResult({
      t: this.#t,
      result: this.#request.result!,
      image: this.#image,
      compare: this.#compare,
      fileName: this.formValue()?.name ?? 'image.png',
      busy: this.#request.busy,
      notice: this._notice,
      onCopy: () => void this.copy(),
      onNew: () => this.reset(),
    });
  }
}

async function toPng(blob: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
  bitmap.close();
  return canvas.convertToBlob({ type: 'image/png' });
}

declare global {
  interface HTMLElementTagNameMap {
    'bg-tool': BgTool;
  }
}
