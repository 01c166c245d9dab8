/**
 * `HeadshotPhoto`: the selfie of <headshot-studio> before anything is spent. It makes a photo fit
 * (the kit's shared conversion: HEIC decoded, EXIF turn applied, at most 12 MB and 12 MP, what was
 * done kept for the facts line), checks it (advisory: light, size, sharpness), keeps the file to
 * send, its object URL, size and advice, or why it was refused, and measures the checks as the User
 * Timing `validate` (README "Performance timings"). A newer photo or a reset abandons a check
 * that is still running.
 */
import type { ReactiveControllerHost } from 'lit';
import { fitChosenPhoto, type PhotoFit } from '../shared/photo-fit.js';
import type { CheckedImage } from '../../client/validate-input.js';
import { InputCheck } from '../shared/input-check.js';
import type { PhotoAdvice } from './photo-checks.js';

/** A photo whose shorter side has fewer pixels than this gets the advice that results come out soft. */
export const MIN_SHORT_SIDE = 512;

/** A portrait needs no more pixels than this: a larger photo is scaled down before sending. */
export const HEADSHOT_MAX_PIXELS = 12_000_000;

export class HeadshotPhoto {
  readonly host: ReactiveControllerHost;
  /** The file to send: the one chosen, or its converted copy. */
  file: File | undefined;
  /** What was done to make it fit (undefined when it is sent as chosen). */
  fit: PhotoFit | undefined;
  checked: CheckedImage | undefined;
  url: string | undefined;
  advice: PhotoAdvice[] = [];
  dims: { width: number; height: number } | undefined;
  /** Why the photo was refused. */
  error: unknown;
  readonly #check: InputCheck;

  constructor(host: ReactiveControllerHost) {
    this.host = host;
    this.#check = new InputCheck(host, 'headshot-studio');
  }

  /** The photo's check is running. */
  get checking(): boolean {
    return this.#check.checking;
  }

  /** Takes `file` (after `clear()`) and checks it; resolves when the check is done or abandoned. */
  check(file: File): Promise<void> {
    this.file = file;
    return this.#check.run(
      async () => {
        // The advice's code loads beside the photo's decode, with the first photo.
        const [fitted, { checkPhoto }] = await Promise.all([
          fitChosenPhoto(file, 'image_file', { maxPixels: HEADSHOT_MAX_PIXELS }),
          import('./photo-checks.js'),
        ]);
        return { ...fitted, report: await checkPhoto(fitted.file, MIN_SHORT_SIDE) };
      },
      ({ file: sent, checked, fit, report }) => {
        this.file = sent;
        this.fit = fit;
        this.checked = checked;
        this.dims = { width: checked.width, height: checked.height };
        this.advice = report.advice;
        this.url = URL.createObjectURL(sent);
      },
      (err) => {
        this.file = undefined;
        this.error = err;
      },
    );
  }

  /** Forgets the photo, abandons its check and drops an open `validate` phase. */
  clear(): void {
    this.#check.cancel();
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = undefined;
    this.file = undefined;
    this.fit = undefined;
    this.checked = undefined;
    this.dims = undefined;
    this.advice = [];
    this.error = undefined;
    this.host.requestUpdate();
  }
}
