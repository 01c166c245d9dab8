/**
 * When a job is polled: a wait per kind that backs off from `firstMs` to `maxMs`, a longer wait in
 * a hidden tab that ends at once when the tab shows again, a Retry-After that stretches the next
 * wait, and the renewal of a succeeded job's download links shortly before they expire. One
 * `PollCadence` per polling loop; it lives as long as that loop.
 */
import { abortable, sleep } from '../client/async.js';
import type { JobKind } from './job-store.js';

export interface Cadence {
  /** Wait after the first poll. */
  firstMs: number;
  /** Longest wait between polls. */
  maxMs: number;
  /** Each wait is the last one times this, up to maxMs. */
  factor: number;
}

export const DEFAULT_CADENCE: Record<JobKind, Cadence> = {
  video: { firstMs: 3_000, maxMs: 30_000, factor: 1.5 },
  model: { firstMs: 3_000, maxMs: 3_000, factor: 1 },
};

/** The waits of one job's polling loop. */
export class PollCadence {
  readonly #cadence: Cadence;
  readonly #hiddenFactor: number;
  #delay: number;
  #first = true;

  /** `hiddenFactor`: how many times longer a wait between polls is while the tab is hidden. */
  constructor(cadence: Cadence, hiddenFactor: number) {
    this.#cadence = cadence;
    this.#hiddenFactor = hiddenFactor;
    this.#delay = cadence.firstMs;
  }

  /** Before polling an unfinished job: nothing the first time, then the backoff (slower in a hidden tab). */
  async beforePoll(signal: AbortSignal): Promise<void> {
    if (this.#first) {
      this.#first = false;
      return;
    }
    await pause(this.#delay, signal, this.#hiddenFactor);
    this.#delay = Math.min(this.#cadence.maxMs, this.#delay * this.#cadence.factor);
  }

  /** Before polling a succeeded job again for fresh links: `ms` (never sooner than the first wait), not slowed in a hidden tab. */
  async beforeRenewal(ms: number, signal: AbortSignal): Promise<void> {
    this.#first = false;
    await pause(Math.max(this.#cadence.firstMs, ms), signal, 1);
  }

  /** The client already waited out short Retry-Afters; a longer one sets the next wait. */
  retryAfter(seconds: number): void {
    this.#delay = Math.max(this.#delay, seconds * 1000);
  }
}

/** Sleeps `ms` (times `hiddenFactor` in a hidden tab); a tab that shows again goes on at once. */
async function pause(ms: number, signal: AbortSignal, hiddenFactor: number): Promise<void> {
  // Aborted while the loop read the store: the race below would reject with no one listening
  // (abortable() answers an aborted signal without subscribing to it), an unhandled AbortError.
  signal.throwIfAborted();
  if (ms <= 0) return;
  if (typeof document === 'undefined') return sleep(ms, signal);
  const time = document.visibilityState === 'hidden' ? ms * hiddenFactor : ms;
  const visible = new Promise<void>((resolve) => {
    const onChange = () => {
      if (document.visibilityState === 'visible') {
        document.removeEventListener('visibilitychange', onChange);
        resolve();
      }
    };
    document.addEventListener('visibilitychange', onChange);
    signal.addEventListener('abort', () => document.removeEventListener('visibilitychange', onChange), { once: true });
  });
  await abortable(Promise.race([sleep(time, signal), visible]), signal);
}
