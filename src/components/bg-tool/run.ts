/**
 * `BgRunController`: removing the background for <bg-tool>. It keeps one Idempotency-Key per
 * request (a second click, or a retry after a lost answer, replays it instead of charging again;
 * other options or a new image are a new key), sits out a 429 wait with a once-a-second
 * countdown, keeps the result with what the answer charged (X-Credits-Charged, never the price
 * table), and measures the User Timing `process` from the request to the answer shown (README
 * "Performance timings").
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ImageToolFormat, ImageToolSize } from '../../api/index.js';
import type { MediaClient } from '../../client/media-client.js';
import { PhaseTimer } from '../../internal/perf.js';
import type { BgToolResult } from './bg-tool.js';

export interface BgRequest {
  image: File | string;
  size: ImageToolSize;
  format: ImageToolFormat;
  crop: boolean;
  /** `none` or a colour. */
  bgColor: string;
}

export interface BgRunOptions {
  client(): MediaClient;
  /** A result came in (it is `result` already). */
  onResult(result: BgToolResult): void;
}

export class BgRunController implements ReactiveController {
  readonly host: ReactiveControllerHost;
  /** The last result, until the image changes. */
  result: BgToolResult | undefined;
  /** Why the last request failed. */
  error: unknown;
  /** A request is out. */
  busy = false;
  readonly #o: BgRunOptions;
  readonly #perf = new PhaseTimer('bg-tool');
  #key: string | undefined;
  #abort: AbortController | undefined;
  #waitUntil = 0;
  #ticker: ReturnType<typeof setInterval> | undefined;

  constructor(host: ReactiveControllerHost, options: BgRunOptions) {
    this.host = host;
    this.#o = options;
    host.addController(this);
  }

  hostConnected(): void {
    this.#ticker = setInterval(() => this.#waitUntil > Date.now() && this.host.requestUpdate(), 1000);
  }

  hostDisconnected(): void {
    clearInterval(this.#ticker);
  }

  /** Seconds left of a 429 wait (0: none). */
  get waitSeconds(): number {
    return this.#waitUntil > Date.now() ? Math.ceil((this.#waitUntil - Date.now()) / 1000) : 0;
  }

  /** Other options are another request: a new key, so it is never mistaken for a replay. */
  forgetKey(): void {
    this.#key = undefined;
  }

  async run(request: BgRequest): Promise<void> {
    this.busy = true;
    this.error = undefined;
    this.host.requestUpdate();
    const key = (this.#key ??= crypto.randomUUID());
    const abort = (this.#abort = new AbortController());
    const { image, size, format, crop } = request;
    this.#perf.start('process');
    try {
      const bg = request.bgColor === 'none' ? undefined : request.bgColor;
      const out = await this.#o.client().imageTool(
        { image, size, format, crop, ...(bg ? { bg_color: bg } : {}) },
        { idempotencyKey: key, signal: abort.signal, onWait: ({ seconds }) => ((this.#waitUntil = Date.now() + seconds * 1000), this.host.requestUpdate()) },
      );
      const bitmap = await createImageBitmap(out.blob);
      const { width, height } = bitmap;
      bitmap.close();
      if (this.result) URL.revokeObjectURL(this.result.url);
      this.result = { blob: out.blob, url: URL.createObjectURL(out.blob), width, height, format, charged: out.credits_charged, remaining: out.credits_remaining };
      this.#key = undefined;
      this.#o.onResult(this.result);
    } catch (err) {
      if (!abort.signal.aborted) this.error = err;
    } finally {
      if (!abort.signal.aborted) this.#perf.end('process', { status: this.error ? 'failed' : 'succeeded' });
      this.busy = false;
      this.#waitUntil = 0;
      this.host.requestUpdate();
    }
  }

  /** Abandons the request that is out (no result, no error) and drops an open `process` phase. */
  cancel(): void {
    this.#perf.clear();
    this.#abort?.abort();
  }

  /** Forgets the result, the failure and the key (a new image); a request that is out still lands. */
  clear(): void {
    if (this.result) URL.revokeObjectURL(this.result.url);
    this.result = undefined;
    this.error = undefined;
    this.#key = undefined;
    this.host.requestUpdate();
  }
}
