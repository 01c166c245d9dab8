import type { PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import type { FormValue } from '../../internal/form-associated.js';
import type { Invalid } from '../../internal/form-validity.js';
import type { HeadshotStyle, VariantSlot } from '../../api/index.js';
import type { HeadshotSlot } from '../../events/outcome.js';
import { CreditsController } from '../shared/credits.js';
import { LocalizeController } from '../shared/localize.js';
import { ProductElement } from '../shared/product-element.js';
import { RequestController } from '../shared/request-controller.js';
import { ResultValueController } from '../shared/result-value.js';
import { photoFitStrings } from '../shared/photo-fit-strings.js';
import { sharedStrings } from '../shared/strings.js';
import { elementStyles } from '../shared/styles.js';
import type { FieldFacts } from '../shared/field.js';
import { HeadshotBatch } from './batch.js';
import { StudioCard } from './card.js';
import { headshotStyles } from './headshot-studio.styles.js';
import { PhotoIntake } from './intake.js';
import { headshotStrings } from './strings.js';
import { slotsOf, variantsConverter } from './types.js';
import type { HeadshotStatus, Strings } from './types.js';
import type { HeadshotValue } from './value.js';
import { loadValueKit, valueKit } from './value-kit.js';

export type { HeadshotStatus } from './types.js';
export type { HeadshotValue, HeadshotVariantValue } from './value.js';

/**
 * @summary Professional headshots from one selfie: photo by picker, drop, paste or live camera, checks before spending, four styles, a 2x2 result grid with per-slot retry, downloads, and the batch with the chosen headshot as a value a site can save and re-open.
 * @tag headshot-studio
 *
 * Value (`value`, shape 1; `result` is the same parsed): `{ v: 1, kind: "headshot", status: "succeeded", asset, created, style, variants: [{ slot, style, status, asset, width, height }], chosen, charged }`, where each variant's `asset` is its kept PNG and `asset` is the chosen one's (null until chosen). Setting it shows that grid from the kept URLs, with no API call.
 *
 * Form value (with `name`): `value`, the JSON of the batch (`kind: "headshot"`, its kept variants, the chosen slot; README "Saving results"), and once a headshot is chosen, that PNG as a `File` under `${name}-file`. `required` asks for a chosen headshot.
 *
 * @slot top-up - Shown when the session has too few credits (a link or button to the site's top-up page).
 *
 * @event mk-file-selected - A photo was chosen, dropped, pasted or taken; cancel it to veto the photo.
 * @event mk-sent - A batch, or the retry of one slot, left (`detail.idempotencyKey`).
 * @event mk-succeeded - A batch (or one retried slot) came back with a headshot: `detail.idempotencyKey`, `style`, `headshots`, `slots`, `charged`, `remaining` (from the response).
 * @event mk-failed - A batch (or one retried slot) failed: `detail.idempotencyKey`, `reason`, `params`, `refunded` (false: nothing was charged).
 * @event mk-headshot-chosen - The user chose one headshot (`detail.slot`, `file`); it is now the value's `chosen` and `file`.
 * @event input - The value changed (a batch or a retried slot came back, a headshot was chosen) before it is kept.
 * @event change - A result was committed (the batch done, a retried slot landed, a headshot chosen), once its PNGs are kept; or the user removed it ("Use another photo", "Change style or versions").
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
 * @csspart drop-zone - The area that takes a dropped photo.
 * @csspart choose-button - Opens the file picker.
 * @csspart camera-button - Opens the live camera.
 * @csspart camera - The live preview with its framing guide.
 * @csspart capture-button - Takes the photo.
 * @csspart photo - The chosen selfie.
 * @csspart photo-fit - What was done to the photo to make it fit ("Converted from HEIC, 48 MP to 12 MP, …").
 * @csspart advice - Hints about the photo (never blocking).
 * @csspart styles - The style picker.
 * @csspart slots - The choice of versions.
 * @csspart cost - The cost line.
 * @csspart primary-button - Makes the headshots.
 * @csspart results - The 2x2 grid.
 * @csspart result - One slot of the grid (also `succeeded`, `failed` or `loading`).
 * @csspart retry-button - Retries one failed slot.
 * @csspart download - Every download: one headshot, and all of them.
 * @csspart download-all - Beside `download`: downloads all as one zip.
 * @csspart choose-result - Chooses one headshot as the value.
 * @csspart charged - What the last answer charged (for a restored value: what the photo was charged).
 * @csspart keep - The line saying the headshots are being kept, were kept, or could not be.
 * @csspart keep-retry - Tries keeping them again.
 * @csspart progress - The progress bars (the photo being checked, a slot being made).
 * @csspart wait - The countdown while the service asks to wait (429).
 * @csspart error - The error panel.
 * @csspart announcer - The polite live region.
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
 * @cssstate sending - Headshots are being made (a batch or one retried slot).
 * @cssstate succeeded - Every requested headshot is there (also a restored value).
 * @cssstate partial - Some slots failed (not charged); each can be retried.
 * @cssstate failed - Nothing came back (every slot failed, or the request was refused).
 * @cssstate camera - The live camera is open.
 */
export class HeadshotStudio extends ProductElement<HeadshotValue> {
  static override styles = [elementStyles, headshotStyles];

  readonly #t = new LocalizeController<Strings>(this, sharedStrings, photoFitStrings, headshotStrings);
  readonly #credits = new CreditsController(this, () => this.mediaClient());
  readonly #request = new RequestController(this);
  readonly #batch = new HeadshotBatch(this, {
    request: this.#request,
    client: () => this.mediaClient(),
    onAnswer: (a) => valueKit((kit) => kit.answered(this, this.results, this.#batch, a)),
  });
  protected readonly results = new ResultValueController<HeadshotValue>(this, {
    kind: 'headshot',
    client: () => this.mediaClient(),
    check: () => loadValueKit().then((kit) => kit.check),
    // A value from outside: whatever runs is dropped without events, then its grid is shown from the kept URLs.
    show: (value) => {
      this.#stop();
      if (value) this.#batch.restore(value);
    },
  });
  /** The selfie, and every way it comes in. */
  readonly #in = new PhotoIntake(this, {
    // Dropped, pasted, picked or taken: the user is working here (focus may follow the phases) unless focus is elsewhere on the page.
    onPhoto: () => (this.#card.engage(), this.#startOver(false), void loadValueKit().catch(() => undefined)),
    enabled: () => !this.isDisabled && !this.#batch.working,
    pageWide: () => this.pasteGlobal,
    capture: () => this.capture,
    onCameraOpen: (open) => this.setState('camera', open),
    onTaken: () => this.announce.say(this.#t.term('hsCaptured')),
  });
  readonly #card = new StudioCard(this, {
    t: this.#t,
    credits: this.#credits,
    request: this.#request,
    photo: this.#in.photo,
    batch: this.#batch,
    intake: this.#in,
    announce: this.announce,
    results: () => this.results,
    setPhase: (names, now) => this.setPhase(names, now),
    startOver: (keepPhoto) => this.#startOver(keepPhoto),
  });

  /** The style to make: `corporate`, `business-casual`, `bewerbung` or `creative`. Default `corporate`. */
  @property({ attribute: 'headshot-style' }) headshotStyle: HeadshotStyle = 'corporate';

  /** Which slots to make, as "0,1,2,3" in the attribute. Default all four. */
  @property({ converter: variantsConverter }) variants: VariantSlot[] = [0, 1, 2, 3];

  /** Open the camera on phones (`environment` or `user`) instead of the file list; the camera button's live preview (and its phone-camera fallback) uses this one too (else `user`). Default none. */
  @property() capture: string | undefined;

  /** Overrides of single strings, in any language: `{ hsTitle: 'Your profile photo' }`. */
  declare strings: Partial<Strings> | undefined;

  /** Where the element is: `idle`, `ready`, `sending`, `succeeded`, `partial`, `failed`. */
  get status(): HeadshotStatus {
    return this.#card.phase;
  }

  /** The slots of the current batch: status, PNG blob and size, or the failure message. */
  get headshots(): HeadshotSlot[] {
    return this.#batch.headshots;
  }

  /** The chosen headshot as a PNG `File` (the form's `${name}-file`), or null; for a restored value, once fetched from its kept URL. */
  get file(): File | null {
    return this.#batch.chosenFile();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Another style or other versions: the next batch is another request, with its own Idempotency-Key.
    if (changed.has('headshotStyle') || changed.has('variants')) this.#batch.forgetKey();
  }

  // ---------------------------------------------------------------- public methods

  /** Takes a photo as if the user had chosen it (fires `mk-file-selected`, then checks it). */
  selectFile(file: File): void {
    this.#in.files.offer([file], 'property');
  }

  /** Opens the live camera (call from a user gesture); where there is none, the phone's camera (`capture`, else `user`). */
  async openCamera(): Promise<void> {
    await this.#in.openCamera();
  }

  /** Takes the photo from the live camera: offered like a chosen file (`mk-file-selected`, source `camera`), then checked. */
  async takePhoto(): Promise<void> {
    await this.#in.takePhoto();
  }

  /** Makes the chosen slots in the chosen style (what the generate button does). A second call while one runs does nothing. The main action's verb, `start()`, on every element. */
  async start(): Promise<void> {
    const slots = slotsOf(this.variants);
    const file = this.#in.photo.file;
    if (!file || this.#in.photo.checking || this.#batch.working || this.isDisabled || !slots.length) return;
    await this.#batch.make(file, this.headshotStyle, slots);
  }

  /** Stops waiting for the batch or retries out (no failure, no event): back to the choices. The keys are kept, so starting again replays them instead of charging twice. */
  cancel(): void {
    this.#request.cancel();
  }

  /** Makes one failed slot again (`variants: [slot]`), charged only if it succeeds. Needs the selfie: not on a restored value until a new photo is chosen. */
  async retry(slot: VariantSlot): Promise<void> {
    const file = this.#in.photo.file;
    if (file && !this.isDisabled) await this.#batch.retry(file, slot);
  }

  /** Chooses one succeeded headshot: the value's `chosen` and `file` (fires `input`, `change`, then `mk-headshot-chosen`). */
  choose(slot: VariantSlot): void {
    if (!this.#batch.choose(slot)) return;
    this.announce.say(this.#t.term('hsChosenSay', { slot: this.#t.term(`hsSlot${slot}`) }));
    valueKit((kit) => kit.commitChoice(this, this.results, this.#batch));
  }

  /** Every succeeded headshot of the batch as one zip of PNGs (made in the browser). */
  async toZip(): Promise<Blob> {
    return this.#batch.zip();
  }

  /** Downloads every succeeded headshot as one zip. */
  async downloadAll(): Promise<void> {
    await this.#batch.download();
  }

  /** Back to the start: forgets the photo, the results, the choice and the value (no event, as a form reset). */
  reset(): void {
    this.results.clear();
    this.#stop();
  }

  protected override formFile(): File | null {
    return this.#batch.chosenFile();
  }

  protected override validate(value: FormValue): Invalid | null {
    // The form carries the batch before a choice, but `required` asks for a chosen headshot.
    if (this.required && this.results.value?.chosen === null)
      return { flags: { valueMissing: true }, message: this.requiredMessage() };
    return super.validate(value);
  }

  protected requiredMessage(): string {
    return this.#t.term('hsRequired');
  }

  protected resetValue(): void {
    this.reset();
  }

  // ---------------------------------------------------------------- the value

  /** Drops the photo, the results, the camera and what runs, without events (the value is left as it is). */
  #stop(): void {
    this.#card.clearTimings();
    this.#in.stopCamera();
    this.#batch.clear();
    this.#in.photo.clear();
  }

  /** The user starts over ("Use another photo", another photo, "Change style or versions"): the result is gone. */
  #startOver(keepPhoto: boolean): void {
    this.results.remove();
    if (keepPhoto) this.#batch.clearResults();
    else this.#stop();
  }

  // ---------------------------------------------------------------- rendering

  /** Field mode's dialog closed: the camera goes off (its light would stay on with nothing shown). */
  protected override fieldClosed(): void {
    this.#in.stopCamera();
  }

  protected override fieldFacts(): FieldFacts {
    return this.#card.fieldFacts();
  }

  /** Also waits for the results grid when a batch is shown before it loaded. */
  protected override async getUpdateComplete(): Promise<boolean> {
    const done = await super.getUpdateComplete();
    return (await this.#card.settle()) ? super.getUpdateComplete() : done;
  }

  protected override renderCard() {
    return this.#card.render(this.isDisabled);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'headshot-studio': HeadshotStudio;
  }
}
