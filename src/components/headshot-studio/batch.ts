/**
 * One headshot batch of <headshot-studio>: the request for the chosen slots, the per-slot state
 * (making, succeeded, failed), the retry of one slot (`variants: [n]`), and what each answer
 * charged, read from the answer (never from the price table). One Idempotency-Key per batch and per
 * slot retry, kept until it got an answer, so a lost answer tried again is never charged twice. A
 * 429 wait that the client sits out is counted down once a second. The batch's files are named
 * here, and zipped here for "download all".
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { HeadshotStyle, HeadshotVariant, VariantSlot } from '../../api/index.js';
import type { MediaClient } from '../../client/media-client.js';
import type { HeadshotSlot } from '../../events/headshots-ready.js';
import type { SlotView } from './results-view.js';
import { isAbort } from '../../internal/small.js';

export interface BatchAnswer {
  style: HeadshotStyle;
  slots: VariantSlot[];
  charged: number;
  remaining: number;
}

export class HeadshotBatch implements ReactiveController {
  readonly host: ReactiveControllerHost;
  results: SlotView[] = [];
  style: HeadshotStyle = 'corporate';
  /** The failure of the last request, and the slot whose retry it was (undefined: the batch). */
  error: unknown;
  errorSlot: VariantSlot | undefined;
  /** What the last answer charged and left. */
  last: { charged: number; remaining: number } | undefined;
  /** Everything charged for this photo so far (batch and retries). */
  chargedTotal = 0;
  /** When the client's wait for a 429 ends (ms since epoch), 0 when not waiting. */
  waitUntil = 0;
  readonly #client: () => MediaClient;
  readonly #onAnswer: (answer: BatchAnswer) => void;
  #batchKey: string | undefined;
  readonly #retryKeys = new Map<VariantSlot, string>();
  readonly #aborts = new Set<AbortController>();
  #ticker: ReturnType<typeof setInterval> | undefined;

  constructor(host: ReactiveControllerHost, options: { client: () => MediaClient; onAnswer: (answer: BatchAnswer) => void }) {
    this.host = host;
    this.#client = options.client;
    this.#onAnswer = options.onAnswer;
    host.addController(this);
  }

  hostConnected(): void {
    this.#ticker = setInterval(() => this.waitUntil > Date.now() && this.host.requestUpdate(), 1000);
  }

  hostDisconnected(): void {
    clearInterval(this.#ticker);
  }

  /** Seconds left of a 429 wait (0: none). */
  get waitSeconds(): number {
    return this.waitUntil > Date.now() ? Math.ceil((this.waitUntil - Date.now()) / 1000) : 0;
  }

  /** A request is out, or a slot is still being made. */
  get working(): boolean {
    return this.#aborts.size > 0 || this.results.some((r) => r.loading);
  }

  get headshots(): HeadshotSlot[] {
    return this.results.map(({ slot, status, blob, width, height, error }) => ({ slot, status, blob, width, height, error }) as HeadshotSlot);
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

  /** The style or the slots changed: the next batch is a different request. */
  forgetKey(): void {
    this.#batchKey = undefined;
  }

  /** Makes `slots` of `image` in `style`; resolves when the answer (or the failure) is in. */
  async make(image: Blob, style: HeadshotStyle, slots: VariantSlot[]): Promise<void> {
    this.#clearResults();
    this.error = undefined;
    this.style = style;
    this.results = slots.map((slot) => ({ slot, status: 'failed', loading: true }));
    const key = (this.#batchKey ??= crypto.randomUUID());
    try {
      await this.#request(image, slots, key);
      this.#batchKey = undefined;
    } catch (err) {
      if (isAbort(err)) return;
      this.results = [];
      this.error = err;
      this.errorSlot = undefined;
    }
    this.host.requestUpdate();
  }

  /** Makes one failed slot again; false when there is no such slot to retry. */
  async retry(image: Blob, slot: VariantSlot): Promise<boolean> {
    const entry = this.results.find((r) => r.slot === slot);
    if (!entry || entry.status !== 'failed' || entry.loading) return false;
    this.error = undefined;
    this.results = this.results.map((r) => (r.slot === slot ? { ...r, loading: true } : r));
    let key = this.#retryKeys.get(slot);
    if (!key) this.#retryKeys.set(slot, (key = crypto.randomUUID()));
    try {
      await this.#request(image, [slot], key);
      this.#retryKeys.delete(slot);
    } catch (err) {
      if (isAbort(err)) return true;
      this.results = this.results.map((r) => (r.slot === slot ? { ...r, loading: false } : r));
      this.error = err;
      this.errorSlot = slot;
    }
    this.host.requestUpdate();
    return true;
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
    for (const a of this.#aborts) a.abort();
    this.#aborts.clear();
    this.clearResults();
    this.chargedTotal = 0;
    this.waitUntil = 0;
    this.#batchKey = undefined;
  }

  async #request(image: Blob, slots: VariantSlot[], key: string): Promise<void> {
    const abort = new AbortController();
    this.#aborts.add(abort);
    this.host.requestUpdate();
    const style = this.style;
    try {
      const batch = await this.#client().headshots(
        { image, style, variants: slots },
        { idempotencyKey: key, signal: abort.signal, onWait: ({ seconds }) => ((this.waitUntil = Date.now() + seconds * 1000), this.host.requestUpdate()) },
      );
      this.#merge(batch.data.variants);
      this.last = { charged: batch.credits_charged, remaining: batch.credits_remaining };
      this.chargedTotal += batch.credits_charged;
      this.error = undefined;
      this.#onAnswer({ style, slots, charged: batch.credits_charged, remaining: batch.credits_remaining });
    } finally {
      this.#aborts.delete(abort);
      this.waitUntil = 0;
      this.host.requestUpdate();
    }
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
        view = { slot: v.variant, status: 'succeeded', blob, width: v.width, height: v.height, url: URL.createObjectURL(blob), loading: false };
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
    this.#retryKeys.clear();
  }
}

function base64Bytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
