/**
 * `HeadshotPhoto`: the selfie of <headshot-studio> before anything is spent. It checks a
 * photo (blocking: format by its bytes, 12 MB, a decode; advisory: light, size, sharpness), keeps
 * its object URL, size and advice, or why it was refused, and measures the checks as the User
 * Timing `validate` (README "Performance timings"). A newer photo or a reset abandons a check
 * that is still running.
 */
import type { ReactiveControllerHost } from 'lit';
import { validateImage } from '../../client/validate-input.js';
import { PhaseTimer } from '../../internal/perf.js';
import { checkPhoto, type PhotoAdvice } from './photo-checks.js';

export class HeadshotPhoto {
  readonly host: ReactiveControllerHost;
  file: File | undefined;
  url: string | undefined;
  checking = false;
  advice: PhotoAdvice[] = [];
  dims: { width: number; height: number } | undefined;
  /** Why the photo was refused. */
  error: unknown;
  readonly #perf = new PhaseTimer('headshot-studio');
  #abort: AbortController | undefined;

  constructor(host: ReactiveControllerHost) {
    this.host = host;
  }

  /** Takes `file` (after `clear()`) and checks it; resolves when the check is done or abandoned. */
  async check(file: File): Promise<void> {
    this.file = file;
    this.checking = true;
    this.host.requestUpdate();
    this.#perf.start('validate');
    const abort = (this.#abort = new AbortController());
    try {
      const checked = await validateImage(file, 'image_file');
      const report = await checkPhoto(file);
      if (abort.signal.aborted) return;
      this.dims = { width: checked.width, height: checked.height };
      this.advice = report.advice;
      this.url = URL.createObjectURL(file);
    } catch (err) {
      if (abort.signal.aborted) return;
      this.file = undefined;
      this.error = err;
    } finally {
      if (!abort.signal.aborted) {
        this.checking = false;
        this.#perf.end('validate');
        this.host.requestUpdate();
      }
    }
  }

  /** Forgets the photo, abandons its check and drops an open `validate` phase. */
  clear(): void {
    this.#perf.clear();
    this.#abort?.abort();
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = undefined;
    this.file = undefined;
    this.dims = undefined;
    this.advice = [];
    this.checking = false;
    this.error = undefined;
    this.host.requestUpdate();
  }
}
