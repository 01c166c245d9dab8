/**
 * `BgImage`: the original of <bg-tool>, a file or an address the service fetches. A file is
 * checked before anything is spent (format by its bytes, size, a decode) and measured as the User
 * Timing `validate` (README "Performance timings"); it is shown from an object URL, an address as
 * it is. The width / height ratio sizes the comparison before the result is in.
 */
import type { ReactiveControllerHost } from 'lit';
import { validateImage } from '../../client/validate-input.js';
import { PhaseTimer } from '../../internal/perf.js';

export class BgImage {
  readonly host: ReactiveControllerHost;
  source: File | string | undefined;
  /** What the "before" picture shows: the file's object URL, or the address. */
  beforeUrl: string | undefined;
  checking = false;
  /** Width / height of the original, once known. */
  ratio: number | undefined;
  /** Why the image was refused. */
  error: unknown;
  readonly #perf = new PhaseTimer('bg-tool');
  #abort: AbortController | undefined;

  constructor(host: ReactiveControllerHost) {
    this.host = host;
  }

  /** Takes `file` (after `clear()`) and checks it; resolves when the check is done or abandoned. */
  async check(file: File): Promise<void> {
    this.#abort?.abort();
    const abort = (this.#abort = new AbortController());
    this.checking = true;
    this.source = file;
    this.host.requestUpdate();
    this.#perf.start('validate');
    try {
      const checked = await validateImage(file, 'image_file');
      if (abort.signal.aborted) return;
      this.ratio = checked.width / checked.height;
      this.beforeUrl = URL.createObjectURL(file);
    } catch (err) {
      if (abort.signal.aborted) return;
      this.source = undefined;
      this.error = err;
    } finally {
      if (!abort.signal.aborted) {
        this.checking = false;
        this.#perf.end('validate');
        this.host.requestUpdate();
      }
    }
  }

  /** Takes an address (checked already, after `clear()`); a file check still running is abandoned. */
  useUrl(url: string): void {
    this.cancel();
    this.source = url;
    this.beforeUrl = url;
    this.host.requestUpdate();
  }

  /** The "before" picture loaded: its ratio, where the check did not give one (an address). */
  loaded(img: HTMLImageElement): void {
    if (this.ratio !== undefined) return;
    this.ratio = img.naturalWidth / img.naturalHeight || undefined;
    this.host.requestUpdate();
  }

  /** Abandons a check that is running and drops an open `validate` phase. */
  cancel(): void {
    this.#perf.clear();
    this.#abort?.abort();
  }

  /** Forgets the image (`cancel()` abandons a check that is running). */
  clear(): void {
    if (this.beforeUrl?.startsWith('blob:')) URL.revokeObjectURL(this.beforeUrl);
    this.beforeUrl = undefined;
    this.ratio = undefined;
    this.source = undefined;
    this.error = undefined;
    this.checking = false;
    this.host.requestUpdate();
  }
}
