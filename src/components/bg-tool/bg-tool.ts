import type { PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { LIMITS, type ImageToolFormat, type ImageToolSize } from '../../api/index.js';
import { SucceededEvent, type ImageSucceededDetail } from '../../events/outcome.js';
import { CreditsController } from '../shared/credits.js';
import { FileIntakeController } from '../shared/file-intake.js';
import { LocalizeController } from '../shared/localize.js';
import { PhaseController } from '../shared/phase-controller.js';
import { PhaseTimingsController } from '../shared/phase-timings.js';
import { ProductElement } from '../shared/product-element.js';
import { RequestController, type SendContext } from '../shared/request-controller.js';
import { ResultValueController } from '../shared/result-value.js';
import { PHOTO_ACCEPT } from '../shared/photo-fit.js';
import { photoFitStrings } from '../shared/photo-fit-strings.js';
import { sharedStrings } from '../shared/strings.js';
import { elementStyles } from '../shared/styles.js';
import type { FieldFacts } from '../shared/field.js';
import { bgToolStyles } from './bg-tool.styles.js';
import { BgCard } from './card.js';
import { BgImage } from './image.js';
import { hex6 } from './colour.js';
import { BgOutcome, phaseOf, phaseSay, resultFile, withoutUrl } from './outcome.js';
import type { BgRequest } from './run.js';
import { bgStrings } from './strings.js';
import { focusFor, PHASES, type BgToolStatus, type Strings } from './types.js';
import { UrlField } from './url-field.js';
import type { BgToolValue } from './value.js';

export type { BgToolResult, BgToolStatus } from './types.js';
export type { BgToolValue } from './value.js';

/**
 * @summary Background removal for one image: picker, drop, paste or URL; size, format, background colour and crop; a before/after slider; download, copy, run again; the result as a form value.
 * @tag bg-tool
 *
 * Form value (with `name`): the `value` JSON under `name`, and the processed image as a `File` (PNG or JPG) under `${name}-file`, for servers that take plain multipart forms. `required` makes the form invalid until there is a result.
 *
 * Value (`value`, a JSON string; `result`, the same parsed): `{ v: 1, kind: 'background-removal', status: 'succeeded', asset: { url, type, bytes, id? } | null, created, width, height, format: 'png' | 'jpg', options: { size, format, bgColor, crop }, charged }`. `asset` is null until the image is kept (the `assetHandler`, else the proxy's result store; `keep="none"`: never). Setting a value with a kept `asset` fetches that image (not the API: no credit; with no cookies outside the endpoint's results path) and shows it as a result, without the before/after comparison, which needs the original; bytes that are not the image type the value declares are shown by the URL alone and are no `file`. A kept image that is gone (404, 410) says so, with the value's facts and "Start over".
 *
 * @slot top-up - Shown when the session has too few credits (a link or button to the site's top-up page).
 *
 * @event mk-file-selected - An image was chosen, dropped or pasted; cancel it to veto the image.
 * @event mk-sent - The request left (`detail.idempotencyKey`).
 * @event mk-succeeded - The background was removed: `detail.idempotencyKey`, `blob`, `width`, `height`, `format`, `charged`, `remaining` (from the response). Not for a value set from outside.
 * @event mk-failed - The request failed: `detail.idempotencyKey`, `reason`, `params`, `refunded` (false: a failure is never charged).
 * @event input - The value changed: a new result, not kept yet.
 * @event change - A result was committed (once it is kept, or keeping was not possible), or the user removed it ("Use another image", a new image).
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
 * @csspart drop-zone - The area that takes a dropped image.
 * @csspart choose-button - Opens the file picker.
 * @csspart url-input - The image address field.
 * @csspart options - The options (size, format, background, crop).
 * @csspart photo-fit - What was done to the chosen image to make it fit ("Converted from HEIC, 48 MP to 12 MP, …").
 * @csspart cost - The cost line.
 * @csspart primary-button - Removes the background (again).
 * @csspart compare - The before/after comparison.
 * @csspart slider - The comparison handle (role=slider).
 * @csspart facts - Size, dimensions, format and charge of the result.
 * @csspart download - Downloads the result.
 * @csspart keep - The line saying the result is being saved, was saved, or could not be.
 * @csspart keep-retry - Tries saving the result again after it failed.
 * @csspart copy-button - Copies the result to the clipboard (where the browser allows).
 * @csspart progress - The progress bar while the background is being removed.
 * @csspart wait - The countdown while the service asks to wait (429).
 * @csspart error - The error panel.
 * @csspart announcer - The polite live region.
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
 * @cssstate sending - The background is being removed.
 * @cssstate succeeded - The result is shown (and is the form value), fresh or from a value.
 * @cssstate failed - The call failed or was refused (nothing charged), or a value's kept image could not be fetched.
 */
export class BgTool extends ProductElement<BgToolValue> {
  static override styles = [elementStyles, bgToolStyles];

  readonly #t = new LocalizeController<Strings>(this, sharedStrings, photoFitStrings, bgStrings);
  readonly #credits = new CreditsController(this, () => this.mediaClient());
  readonly #request = new RequestController(this);
  readonly #phase = new PhaseController<BgToolStatus>(this, {
    phases: PHASES,
    derive: () => phaseOf(this.#request.busy, this.#image, this.#outcome, !!this.results.value),
    states: (names, now) => this.setPhase(names, now),
    announcer: this.announce,
    say: (now) => phaseSay(this.#t, now, this.#outcome),
    focus: focusFor,
  });
  // User Timing `process` (README "Performance timings"); the image's check measures `validate`.
  readonly #timings = new PhaseTimingsController(this, {
    tag: 'bg-tool',
    phase: () => this.status,
    spans: { process: ['sending'] },
  });
  /** The original and its check (why it was refused; a request's failure is the outcome's). */
  readonly #image = new BgImage(this, () => void import('./run.js').catch(() => undefined));
  /** The last result, until the image changes; why the last request failed; what the last copy said. */
  readonly #outcome = new BgOutcome(this, () => this.mediaClient().endpoint);
  /** The address field: what it holds, and whether the last address was refused. */
  readonly #url = new UrlField(this);
  protected readonly results = new ResultValueController<BgToolValue>(this, {
    kind: 'background-removal',
    check: () => import('./value.js').then((m) => m.check),
    client: () => this.mediaClient(),
    // A value from outside replaces whatever runs or shows (no event), then its kept image is fetched.
    show: (value) => {
      this.#clear();
      if (value) void this.#outcome.restore(value);
    },
  });
  readonly #intake = new FileIntakeController(this, {
    accept: PHOTO_ACCEPT,
    onFiles: ([file]) => {
      this.#startOver();
      void this.#image.check(file!);
    },
    enabled: () => !this.isDisabled && !this.#request.busy,
    pageWide: () => this.pasteGlobal,
    capture: () => this.capture,
  });
  readonly #card = new BgCard(this, {
    t: this.#t,
    credits: this.#credits,
    request: this.#request,
    image: this.#image,
    outcome: this.#outcome,
    url: this.#url,
    intake: this.#intake,
    announce: this.announce,
    results: () => this.results,
    startOver: () => this.#startOver(),
  });

  /** Output size: `auto`, `preview` (at most 0.25 MP) or `full`. Default `auto`. */
  @property() size: ImageToolSize = 'auto';

  /** Output format: `png` (transparent) or `jpg`. Default `png`. */
  @property() format: ImageToolFormat = 'png';

  /** Background colour as `#rrggbb`, or `none` for transparency. Default `none`. */
  @property({ attribute: 'bg-color' }) bgColor = 'none';

  /** Crop to the subject's bounding box. Default false. */
  @property({ type: Boolean }) crop = false;

  /** Open the camera on phones (`environment` or `user`) instead of the file list. Default none. */
  @property() capture: string | undefined;

  /** Overrides of single strings, in any language: `{ bgTitle: 'Product photo' }`. */
  declare strings: Partial<Strings> | undefined;

  /** The last non-`none` colour, so unticking "none" brings it back. */
  @state() private _colour = '#ffffff';

  /** Where the element is: `idle`, `ready`, `sending`, `succeeded`, `failed`. */
  get status(): BgToolStatus {
    return this.#phase.phase;
  }

  /** The result as a File (PNG or JPG; also the form's `${name}-file`), or null (also for a value's kept picture whose bytes are not the image it declares). */
  get file(): File | null {
    const result = this.#outcome.result;
    return result?.blob ? resultFile(result, this.#image.source) : null;
  }

  /** Also waits for the image views when an image or a result is shown before they loaded. */
  protected override async getUpdateComplete(): Promise<boolean> {
    const done = await super.getUpdateComplete();
    return (await this.#card.settle()) ? super.getUpdateComplete() : done;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Other options are another request: a new key, so it is never mistaken for a replay.
    if (changed.has('size') || changed.has('format') || changed.has('bgColor') || changed.has('crop'))
      this.#request.forget();
    if (changed.has('bgColor') && this.bgColor !== 'none' && LIMITS.imageTools.bgColorPattern.test(this.bgColor))
      this._colour = hex6(this.bgColor);
  }

  // ---------------------------------------------------------------- public methods

  /** Takes an image as if the user had chosen it (fires `mk-file-selected`, then checks it). */
  selectFile(file: File): void {
    this.#intake.offer([file], 'property');
  }

  /** Takes an image by its address; the service fetches it. */
  selectUrl(url: string): void {
    const address = this.#url.check(url);
    if (address === undefined) return;
    this.#startOver();
    this.#image.useUrl(address);
  }

  /** Removes the background with the current options (what the run button does). A second call while one runs does nothing. The main action's verb, `start()`, on every element. */
  async start(): Promise<void> {
    const { source, checking } = this.#image;
    if (!source || checking || this.#request.busy || this.isDisabled) return;
    this.#outcome.begin();
    const { size, format, crop, bgColor } = this;
    const request: BgRequest = { image: source, size, format, crop, bgColor };
    // #send shows the outcome; a failure keeps the key, so trying again replays instead of charging twice.
    await this.#request.send((context) => this.#send(request, context)).catch(() => undefined);
  }

  /** Stops waiting for the request out (no failure, no event): back to `ready`. Its key is kept, so starting again replays it instead of charging twice. */
  cancel(): void {
    this.#request.cancel();
  }

  /** Copies the result to the clipboard as PNG (where the browser allows it). */
  copy(): Promise<boolean> {
    return this.#outcome.copy(this.#t, this.announce);
  }

  /** Back to the start: forgets the image, the result and the value (no event: the user did not remove it). */
  reset(): void {
    this.#clear();
    this.results.clear();
  }

  /** The request; its outcome is in before the send ends, so `busy` never drops with neither (no `ready` between). */
  async #send(request: BgRequest, context: SendContext): Promise<void> {
    try {
      // What sends and makes the value loads with the first image (the image's warm-up above).
      const { removeBackground, toValue, files, place } = await import('./run.js');
      const result = await removeBackground(this.mediaClient(), request, context);
      this.#outcome.show(result);
      this.results.commit(toValue(result, request), files(resultFile(result, request.image)), place);
      const detail: ImageSucceededDetail = { idempotencyKey: context.key, ...withoutUrl(result) };
      this.dispatchEvent(new SucceededEvent(detail));
    } catch (err) {
      // A cancel (a reset, the element leaving the page) is neither a failure nor a timing.
      if (context.signal.aborted) this.#timings.clear();
      else this.#outcome.fail(err);
      throw err;
    }
  }

  /** Stops what runs and forgets the image, the result, the failure and the address; the value is the caller's. Another image is another request: a new key. */
  #clear(): void {
    this.#request.cancel();
    this.#image.clear();
    this.#outcome.clear();
    this.#request.forget();
    this.#url.clear();
  }

  /** The user starts over (another image, another address, "Use another image"): a result they had is removed (`change`). */
  readonly #startOver = () => (this.#clear(), this.results.remove());

  // ---------------------------------------------------------------- what the base asks for: the form's file and messages, field mode, the card

  protected override formFile(): File | null {
    return this.file;
  }

  protected requiredMessage(): string {
    return this.#t.term('bgRequired');
  }

  protected resetValue(): void {
    this.reset();
  }

  protected override fieldFacts(): FieldFacts {
    return this.#card.fieldFacts();
  }

  protected override renderCard() {
    return this.#card.render(this.isDisabled, this._colour);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bg-tool': BgTool;
  }
}
