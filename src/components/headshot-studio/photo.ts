/**
 * `HeadshotPhoto`: the selfie of <headshot-studio> before anything is spent. It checks a
 * photo (blocking: format by its bytes, 12 MB, a decode; advisory: light, size, sharpness), keeps
 * its object URL, size and advice, or why it was refused, and measures the checks as the User
 * Timing `validate` (README "Performance timings"). A newer photo or a reset abandons a check
 * that is still running.
 */
import type { ReactiveControllerHost } from 'lit';
import { validateImage } from '../../client/validate-input.js';
import { InputCheck } from '../shared/input-check.js';
import { checkPhoto, type PhotoAdvice } from './photo-checks.js';

export class HeadshotPhoto {
  readonly host: ReactiveControllerHost;
  file: File | undefined;
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
      async () => ({ checked: await validateImage(file, 'image_file'), report: await checkPhoto(file) }),
      ({ checked, report }) => {
        this.dims = { width: checked.width, height: checked.height };
        this.advice = report.advice;
        this.url = URL.createObjectURL(file);
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
    this.dims = undefined;
    this.advice = [];
    this.error = undefined;
    this.host.requestUpdate();
  }
}
