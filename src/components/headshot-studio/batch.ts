/**
 * One headshot batch of <headshot-studio>: the request for the chosen slots, the per-slot state,
 * the retry of one slot (`variants: [n]`), and what each answer charged (read from the answer).
 * Requests go through the element's RequestController, the batch in one slot and each retried
 * variant in its own, so a lost answer tried again replays its Idempotency-Key and is never charged
 * twice; a 429 wait is counted down by the page's one ticker. An answer's PNGs are decoded by
 * batch-slots.ts, loaded while the first request is out. The files are named and zipped here, and
 * the chosen one is the element's `file`. A batch restored from a value (`restore`) shows the kept
 * PNGs by their URLs and fetches one only when its bytes are needed (the chosen `file`, the zip) or
 * its picture did not load (is it gone?), by the kit's rule for saved files (shared/saved-file.ts).
 */
import type { ReactiveControllerHost } from 'lit';
import { LIMITS, type HeadshotStyle, type VariantSlot } from '../../api/index.js';
import type { MediaClient } from '../../client/media-client.js';
import type { HeadshotChosenDetail } from '../../events/headshot-chosen.js';
import type { HeadshotSlot } from '../../events/outcome.js';
import { isAbort } from '../../internal/small.js';
import type { RequestController } from '../shared/request-controller.js';
import { isSavedFileGone, type SavedFileGone } from '../shared/saved-file-gone.js';
import type { SlotView } from './batch-slots.js';
import type { HeadshotValue } from './value-shape.js';

export type { SlotView } from './batch-slots.js';

export interface BatchAnswer {
  /** The Idempotency-Key the answered request was sent with. */
  idempotencyKey: string;
  style: HeadshotStyle;
  slots: VariantSlot[];
  charged: number;
  remaining: number;
}

export interface BatchOptions {
  /** The element's requests: one Idempotency-Key per input and slot, the abort, the 429 countdown. */
  request: RequestController;
  client: () => MediaClient;
  onAnswer: (answer: BatchAnswer) => void;
}

/** The RequestController slots: the batch, and the retry of each variant. */
const BATCH = 'batch';
const retrySlot = (slot: VariantSlot) => `retry-${slot}`;

export class HeadshotBatch {
  readonly host: ReactiveControllerHost;
  results: SlotView[] = [];
  style: HeadshotStyle = 'corporate';
  /** The failure of the last request, and the slot whose retry it was (undefined: the batch). */
  error: unknown;
  errorSlot: VariantSlot | undefined;
  /** The slot the last request retried (undefined: it was a batch). */
  retried: VariantSlot | undefined;
  /** What the last answer charged and left. */
  last: { charged: number; remaining: number } | undefined;
  /** Everything charged for this photo so far (batch and retries). */
  chargedTotal = 0;
  /** The succeeded slot chosen as the element's value. */
  chosen: VariantSlot | undefined;
  /** When the batch's answer came (ISO 8601; the value's `created`). */
  created: string | undefined;
  /** A restored value's kept headshot that is gone: the panel above the grid says so. */
  gone: SavedFileGone | undefined;
  readonly #o: BatchOptions;
  /** Counts clears: an answer or an abort that comes after one is not this batch's. */
  #gen = 0;
  /** This batch's requests out (a clear forgets them at once, before their aborts settle). */
  #sending = 0;

  constructor(host: ReactiveControllerHost, options: BatchOptions) {
    this.host = host;
    this.#o = options;
  }

  /** A request is out, or a slot is still being made. */
  get working(): boolean {
    return this.#sending > 0 || this.results.some((r) => r.loading);
  }

  /** How many slots succeeded. */
  get succeeded(): number {
    return this.results.filter((r) => r.status === 'succeeded').length;
  }

  get headshots(): HeadshotSlot[] {
    return this.results.map(
      ({ slot, status, blob, width, height, error }) => ({ slot, status, blob, width, height, error }) as HeadshotSlot,
    );
  }

  /** Chooses one succeeded slot; false when there is no such slot. */
  choose(slot: VariantSlot): boolean {
    if (!this.results.some((r) => r.slot === slot && r.status === 'succeeded')) return false;
    this.chosen = slot;
    this.host.requestUpdate();
    return true;
  }

  /** The detail of `mk-headshot-chosen` for the chosen slot, once its PNG is at hand (a restored one is fetched). */
  async chosenDetail(): Promise<HeadshotChosenDetail | undefined> {
    const slot = this.chosen;
    const entry = this.results.find((r) => r.slot === slot && r.status === 'succeeded');
    if (slot === undefined || !entry || !(await this.load(entry))) return undefined;
    const file = this.chosenFile();
    if (this.chosen !== slot || !file) return undefined;
    return { slot, style: this.style, file, width: entry.width ?? 0, height: entry.height ?? 0 };
  }

  /** Shows a value's batch: its kept variants by their URLs (a variant succeeded but not kept cannot be shown). */
  restore(value: HeadshotValue): void {
    this.clear();
    this.style = value.style;
    this.created = value.created;
    this.chargedTotal = value.charged;
    this.results = value.variants
      .filter((x) => x.status === 'failed' || x.asset)
      .map(({ slot, status, asset, width, height }) =>
        asset
          ? { slot, status, asset, url: asset.url, width, height, loading: false }
          : { slot, status, loading: false },
      );
    this.chosen = this.results.find((r) => r.slot === value.chosen && r.asset)?.slot;
    // The chosen headshot's bytes, for `file` and the form's file entry.
    const entry = this.results.find((r) => r.slot === this.chosen);
    if (entry) void this.load(entry);
    this.host.requestUpdate();
  }

  /**
   * The slot's PNG: at hand, or read from where it is kept, only when its bytes are the image its
   * value declares (undefined otherwise: no `file`, nothing in the zip). A kept file that is gone
   * marks the slot and the batch.
   */
  async load(entry: SlotView): Promise<Blob | undefined> {
    if (entry.blob || !entry.asset || entry.gone) return entry.blob;
    const gen = this.#gen;
    try {
      // The reader loads with the first value that names a kept image (a failed load reads nothing).
      const { readSavedImage } = await import('../shared/saved-file.js');
      const blob = await readSavedImage(entry.asset, this.#o.client().endpoint);
      if (gen !== this.#gen) return undefined;
      entry.blob = blob;
    } catch (err) {
      if (gen !== this.#gen || !isSavedFileGone(err)) return undefined;
      entry.gone = true;
      this.gone ??= err;
    }
    this.host.requestUpdate();
    return entry.blob;
  }

  /** A restored slot's picture did not load: is its kept file gone? */
  pictureFailed(entry: SlotView): void {
    if (entry.asset && !entry.blob && !entry.gone) void this.load(entry);
  }

  /** The chosen headshot as a PNG file (the element's value), or null. */
  chosenFile(): File | null {
    const entry = this.results.find((r) => r.slot === this.chosen && r.status === 'succeeded');
    return entry?.blob
      ? new File([entry.blob], this.fileName(entry.slot), { type: entry.blob.type || 'image/png' })
      : null;
  }

  /** The file name of one slot's headshot. */
  fileName(slot: VariantSlot): string {
    return `headshot-${this.style}-${slot + 1}.png`;
  }

  /** Every succeeded headshot as one zip of PNGs (made in the browser). */
  async zip(): Promise<Blob> {
    const files: Record<string, Uint8Array> = {};
    for (const r of this.results) {
      const blob = r.status === 'succeeded' ? await this.load(r) : undefined;
      if (blob) files[this.fileName(r.slot)] = new Uint8Array(await blob.arrayBuffer());
    }
    // fflate loads only when someone asks for the zip. PNGs are compressed already: stored (level 0), not deflated again.
    const { zipSync } = await import('fflate');
    return new Blob([zipSync(files, { level: 0 }) as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
  }

  /** Downloads every succeeded headshot as one zip. */
  async download(): Promise<void> {
    const url = URL.createObjectURL(await this.zip());
    const a = document.createElement('a');
    a.href = url;
    a.download = `headshots-${this.style}.zip`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  /** The style or the slots changed: the next batch is a different request. */
  forgetKey(): void {
    this.#o.request.forget(BATCH);
  }

  /** Makes `slots` of `image` in `style`; resolves when the answer (or the failure) is in. */
  async make(image: Blob, style: HeadshotStyle, slots: VariantSlot[]): Promise<void> {
    this.#clearResults();
    this.error = undefined;
    this.retried = undefined;
    this.style = style;
    this.results = slots.map((slot) => ({ slot, status: 'failed', loading: true }));
    const gen = this.#gen;
    try {
      await this.#send(image, slots, BATCH);
    } catch (err) {
      if (gen !== this.#gen) return;
      // Aborted (a reset, the element left the page): back to the choices, with nothing to say.
      this.results = [];
      if (!isAbort(err)) {
        this.error = err;
        this.errorSlot = undefined;
      }
    }
    this.host.requestUpdate();
  }

  /** Makes one failed slot again (nothing when there is no such slot to retry). */
  async retry(image: Blob, slot: VariantSlot): Promise<void> {
    const entry = this.results.find((r) => r.slot === slot);
    if (!entry || entry.status !== 'failed' || entry.loading) return;
    this.error = undefined;
    this.retried = slot;
    this.results = this.results.map((r) => (r.slot === slot ? { ...r, loading: true } : r));
    const gen = this.#gen;
    try {
      await this.#send(image, [slot], retrySlot(slot));
    } catch (err) {
      if (gen !== this.#gen) return;
      this.results = this.results.map((r) => (r.slot === slot ? { ...r, loading: false } : r));
      if (!isAbort(err)) {
        this.error = err;
        this.errorSlot = slot;
      }
    }
    this.host.requestUpdate();
  }

  /** Only the results (for making another batch of the same photo). */
  clearResults(): void {
    this.#clearResults();
    this.last = undefined;
    this.error = undefined;
    this.host.requestUpdate();
  }

  /** Everything: requests out, results, charges, keys (a new photo). */
  clear(): void {
    this.#gen++;
    this.#sending = 0;
    this.#o.request.cancel();
    this.#o.request.forget();
    this.clearResults();
    this.chargedTotal = 0;
  }

  /** One request (`slot`: the batch's or a retry's key); the photo is the input, so another photo gets another key. */
  async #send(image: Blob, slots: VariantSlot[], slot: string): Promise<void> {
    const style = this.style;
    const gen = this.#gen;
    this.#sending++;
    // What makes the answer into slots loads while the request is out.
    const slotsCode = import('./batch-slots.js');
    let idempotencyKey = '';
    const batch = await this.#o.request
      .send(
        ({ key, signal, onWait }) => (
          (idempotencyKey = key),
          this.#o.client().headshots({ image, style, variants: slots }, { idempotencyKey: key, signal, onWait })
        ),
        { slot, input: image },
      )
      .finally(() => gen === this.#gen && this.#sending--);
    const { mergeVariants } = await slotsCode;
    if (gen !== this.#gen) return;
    const answered = batch.data.variants;
    for (const r of this.results) if (answered.some((v) => v.variant === r.slot)) revoke(r);
    this.results = mergeVariants(this.results, answered);
    if (slot === BATCH) this.created = new Date().toISOString();
    this.last = { charged: batch.credits_charged, remaining: batch.credits_remaining };
    this.chargedTotal += batch.credits_charged;
    this.error = undefined;
    const { credits_charged: charged, credits_remaining: remaining } = batch;
    this.#o.onAnswer({ idempotencyKey, style, slots, charged, remaining });
  }

  #clearResults(): void {
    for (const r of this.results) revoke(r);
    this.results = [];
    this.chosen = undefined;
    this.created = undefined;
    this.gone = undefined;
    // Retries of the new results are new requests.
    for (const slot of LIMITS.headshot.slots) this.#o.request.forget(retrySlot(slot));
  }
}

/** Frees a slot's object URL (a restored slot's URL is the kept one: nothing to free). */
const revoke = (r: SlotView) => r.url?.startsWith('blob:') && URL.revokeObjectURL(r.url);
