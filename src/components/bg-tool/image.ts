/**
 * `BgImage`: the original of <bg-tool>, a file or an address the service fetches. A file is made
 * to fit before anything is spent (the kit's shared conversion: HEIC decoded, EXIF turn applied,
 * at most 12 MB; what was done kept for the facts line) and measured as the User Timing
 * `validate` (README "Performance timings"); it is shown from an object URL (of the file that is
 * sent), an address as it is. The width / height ratio sizes the comparison before the result is in.
 */
import type { ReactiveControllerHost } from 'lit';
import type { CheckedImage } from '../../client/validate-input.js';
import { InputCheck } from '../shared/input-check.js';
import { fitChosenPhoto, type PhotoFit } from '../shared/photo-fit.js';

export class BgImage {
  readonly host: ReactiveControllerHost;
  source: File | string | undefined;
  /** What was done to the file to make it fit (undefined when it is sent as chosen). */
  fit: PhotoFit | undefined;
  checked: CheckedImage | undefined;
  /** What the "before" picture shows: the file's object URL, or the address. */
  beforeUrl: string | undefined;
  /** Width / height of the original, once known. */
  ratio: number | undefined;
  /** The address this browser could not show (the service may still fetch it). */
  unshown: string | undefined;
  /** Why the image was refused. */
  error: unknown;
  readonly #check: InputCheck;
  /** An image is in: what sends it can load while it is checked. */
  readonly #warmUp: () => void;

  constructor(host: ReactiveControllerHost, warmUp: () => void) {
    this.#warmUp = warmUp;
    this.host = host;
    this.#check = new InputCheck(host, 'bg-tool');
  }

  /** A file's check is running. */
  get checking(): boolean {
    return this.#check.checking;
  }

  /** Takes `file` (after `clear()`) and checks it; resolves when the check is done or abandoned. */
  check(file: File): Promise<void> {
    this.source = file;
    this.#warmUp();
    return this.#check.run(
      () => fitChosenPhoto(file, 'image_file'),
      ({ file: sent, checked, fit }) => {
        this.source = sent;
        this.fit = fit;
        this.checked = checked;
        this.ratio = checked.width / checked.height;
        this.beforeUrl = URL.createObjectURL(sent);
      },
      (err) => {
        this.source = undefined;
        this.error = err;
      },
    );
  }

  /** Takes an address (checked already, after `clear()`); a file check still running is abandoned. */
  useUrl(url: string): void {
    this.#warmUp();
    this.cancel();
    this.source = url;
    this.fit = undefined;
    this.checked = undefined;
    this.beforeUrl = url;
    this.host.requestUpdate();
  }

  /** The "before" picture loaded: its ratio, where the check did not give one (an address). */
  loaded(img: HTMLImageElement): void {
    if (this.ratio !== undefined) return;
    this.ratio = img.naturalWidth / img.naturalHeight || undefined;
    this.host.requestUpdate();
  }

  /** The "before" picture did not load: say so instead of a broken-image icon. */
  failedToShow(url: string): void {
    this.unshown = url;
    this.host.requestUpdate();
  }

  /** Abandons a check that is running and drops an open `validate` phase. */
  cancel(): void {
    this.#check.cancel();
  }

  /** Forgets the image (`cancel()` abandons a check that is running). */
  clear(): void {
    if (this.beforeUrl?.startsWith('blob:')) URL.revokeObjectURL(this.beforeUrl);
    this.beforeUrl = undefined;
    this.ratio = undefined;
    this.source = undefined;
    this.fit = undefined;
    this.checked = undefined;
    this.error = undefined;
    this.#check.cancel();
    this.host.requestUpdate();
  }
}
