/**
 * Phase timings as User Timing entries, for the embedding site's own monitoring: each element
 * measures its phases as `mediakit:<tag>:<phase>` (`performance.measure`), which a site collects
 * with `new PerformanceObserver(cb).observe({ type: 'measure' })`. The library never sends them
 * anywhere itself.
 */
export class PhaseTimer {
  readonly #tag: string;
  readonly #open = new Map<string, number>();

  constructor(tag: string) {
    this.#tag = tag;
  }

  /** A phase begins (a second start of an open phase restarts it). */
  start(phase: string): void {
    if (typeof performance === 'undefined') return;
    this.#open.set(phase, performance.now());
  }

  /** A phase ends: one `measure` entry from its start; nothing if it never started. */
  end(phase: string, detail?: Record<string, unknown>): void {
    const start = this.#open.get(phase);
    if (start === undefined || typeof performance === 'undefined' || !performance.measure) return;
    this.#open.delete(phase);
    try {
      performance.measure(`mediakit:${this.#tag}:${phase}`, {
        start,
        end: performance.now(),
        ...(detail ? { detail } : {}),
      });
    } catch {
      // Old browsers without the options form of measure(): timings are a nicety.
    }
  }

  /** Forgets one open phase without measuring it (it was abandoned). */
  drop(phase: string): void {
    this.#open.delete(phase);
  }

  /** Forgets open phases (a reset). */
  clear(): void {
    this.#open.clear();
  }
}
