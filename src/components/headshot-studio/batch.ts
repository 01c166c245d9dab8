/**
 * One headshot batch of <headshot-studio>: the request for the chosen slots, the per-slot state
 * (making, succeeded, failed), the retry of one slot (`variants: [n]`), and what each answer
 * charged, read from the answer (never from the price table). Requests go out through the
 * element's RequestController, the batch in one slot and each retried variant in its own, so a
 * lost answer tried again replays its Idempotency-Key and is never charged twice, and a 429 wait
 * is counted down by the page's one ticker. The batch's files are named here, zipped and
 * downloaded here for "download all", and the chosen one is the element's value.
 */
import type { ReactiveControllerHost } from 'lit';
import { LIMITS, type HeadshotStyle, type HeadshotVariant, type VariantSlot } from '../../api/index.js';
import type { MediaClient } from '../../client/media-client.js';
import type { HeadshotChooseDetail } from '../../events/headshot-choose.js';
import type { HeadshotSlot } from '../../events/headshots-ready.js';
import { isAbort } from '../../internal/small.js';
import type { RequestController } from '../shared/request-controller.js';

export interface BatchAnswer {
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

/** One slot of the grid: the public slot, whether a request for it is out, and its object URL. */
export interface SlotView extends HeadshotSlot {
  /** A request for this slot is out. */
  loading: boolean;
  url?: string;
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
  readonly #o: BatchOptions;

  constructor(host: ReactiveControllerHost, options: BatchOptions) {
    this.host = host;
    this.#o = options;
  }

  /** A request is out, or a slot is still being made. */
  get working(): boolean {
    return this.#o.request.busy || this.results.some((r) => r.loading);
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

  /** Chooses one succeeded slot: the detail of its `mk-headshot-choose`, or undefined when there is no such slot. */
  choose(slot: VariantSlot): HeadshotChooseDetail | undefined {
    const entry = this.results.find((r) => r.slot === slot && r.status === 'succeeded');
    if (!entry) return undefined;
    this.chosen = slot;
    this.host.requestUpdate();
    return { slot, style: this.style, file: this.chosenFile()!, width: entry.width ?? 0, height: entry.height ?? 0 };
  }

  /** The chosen headshot as a PNG file (the element's value), or null. */
  chosenFile(): File | null {
    const entry = this.results.find((r) => r.slot === this.chosen && r.status === 'succeeded');
    return entry?.blob ? new File([entry.blob], this.fileName(entry.slot), { type: 'image/png' }) : null;
  }

  /** The file name of one slot's headshot. */
  fileName(slot: VariantSlot): string {
    return `headshot-${this.style}-${slot + 1}.png`;
  }

  /** Every succeeded headshot as one zip of PNGs (made in the browser). */
  async zip(): Promise<Blob> {
    const files: Record<string, Uint8Array> = {};
    for (const r of this.results) {
      if (r.status === 'succeeded' && r.blob) files[this.fileName(r.slot)] = new Uint8Array(await r.blob.arrayBuffer());
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
    try {
      await this.#send(image, slots, BATCH);
    } catch (err) {
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
    try {
      await this.#send(image, [slot], retrySlot(slot));
    } catch (err) {
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
    this.#o.request.cancel();
    this.#o.request.forget();
    this.clearResults();
    this.chargedTotal = 0;
  }

  /** One request (`slot`: the batch's or a retry's key); the photo is the input, so another photo gets another key. */
  async #send(image: Blob, slots: VariantSlot[], slot: string): Promise<void> {
    const style = this.style;
    const batch = await this.#o.request.send(
      ({ key, signal, onWait }) =>
        this.#o.client().headshots({ image, style, variants: slots }, { idempotencyKey: key, signal, onWait }),
      { slot, input: image },
    );
    this.#merge(batch.data.variants);
    this.last = { charged: batch.credits_charged, remaining: batch.credits_remaining };
    this.chargedTotal += batch.credits_charged;
    this.error = undefined;
    this.#o.onAnswer({ style, slots, charged: batch.credits_charged, remaining: batch.credits_remaining });
  }

  #merge(variants: HeadshotVariant[]): void {
    const next = [...this.results];
    for (const v of variants) {
      const i = next.findIndex((r) => r.slot === v.variant);
      const old = i >= 0 ? next[i] : undefined;
      if (old?.url) URL.revokeObjectURL(old.url);
      let view: SlotView;
      if (v.status === 'succeeded') {
        const blob = new Blob([base64Bytes(v.image_base64) as Uint8Array<ArrayBuffer>], { type: 'image/png' });
        view = {
          slot: v.variant,
          status: 'succeeded',
          blob,
          width: v.width,
          height: v.height,
          url: URL.createObjectURL(blob),
          loading: false,
        };
      } else {
        view = { slot: v.variant, status: 'failed', error: v.error, loading: false };
      }
      if (i >= 0) next[i] = view;
      else next.push(view);
    }
    this.results = next;
  }

  #clearResults(): void {
    for (const r of this.results) if (r.url) URL.revokeObjectURL(r.url);
    this.results = [];
    this.chosen = undefined;
    // Retries of the new results are new requests.
    for (const slot of LIMITS.headshot.slots) this.#o.request.forget(retrySlot(slot));
  }
}

function base64Bytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
