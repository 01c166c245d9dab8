/**
 * Fixed-window rate limit per key and endpoint, in real time (not sandbox time, so Retry-After
 * means real seconds whatever the clock speed). Thresholds and windows are "not shown" in the
 * spec; the defaults are generous and configurable.
 */
export interface RateLimitOptions {
  /** Requests per window per key and endpoint. Default 120. */
  limit?: number;
  /** Window length in ms. Default 60 000. */
  windowMs?: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  retryAfter: number;
}

export class RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(
    options: RateLimitOptions = {},
    private readonly realNow: () => number = Date.now,
  ) {
    this.limit = options.limit ?? 120;
    this.windowMs = options.windowMs ?? 60_000;
  }

  hit(bucket: string): RateDecision {
    const now = this.realNow();
    let w = this.#windows.get(bucket);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, count: 0 };
      this.#windows.set(bucket, w);
    }
    const retryAfter = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
    if (w.count >= this.limit) return { allowed: false, limit: this.limit, remaining: 0, retryAfter };
    w.count++;
    return { allowed: true, limit: this.limit, remaining: this.limit - w.count, retryAfter };
  }
}
