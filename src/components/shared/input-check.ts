/**
 * `InputCheck`: one check of a chosen input at a time (a photo's decode and advice, an image's
 * format and size), before anything is spent. A newer check, or `cancel()`, abandons the one still
 * running: its late answer is dropped, never shown. Each check that ends is measured as the
 * element's User Timing `validate` (README "Performance timings"); an abandoned one is not.
 */
import type { ReactiveControllerHost } from 'lit';
import { PhaseTimer } from '../../internal/perf.js';

export class InputCheck {
  readonly host: ReactiveControllerHost;
  /** A check is running. */
  checking = false;
  readonly #perf: PhaseTimer;
  #abort: AbortController | undefined;

  constructor(host: ReactiveControllerHost, tag: string) {
    this.host = host;
    this.#perf = new PhaseTimer(tag);
  }

  /**
   * Runs `work`; hands its result to `done`, or its failure to `refused`, unless a newer check or
   * a cancel came first. Resolves when the check is done or abandoned.
   */
  async run<T>(work: () => Promise<T>, done: (value: T) => void, refused: (err: unknown) => void): Promise<void> {
    this.cancel();
    const abort = (this.#abort = new AbortController());
    this.checking = true;
    this.host.requestUpdate();
    this.#perf.start('validate');
    try {
      const value = await work();
      if (!abort.signal.aborted) done(value);
    } catch (err) {
      if (!abort.signal.aborted) refused(err);
    } finally {
      if (!abort.signal.aborted) {
        this.checking = false;
        this.#perf.end('validate');
        this.host.requestUpdate();
      }
    }
  }

  /** Abandons a check that is running and drops its open `validate` phase. */
  cancel(): void {
    this.#perf.clear();
    this.#abort?.abort();
    this.checking = false;
  }
}
