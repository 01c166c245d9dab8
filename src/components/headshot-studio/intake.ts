/**
 * How a selfie comes into <headshot-studio>, one path for every way: the picker (the element's
 * `capture` makes it the phone's camera), drop, paste, the live camera with its framing guide, and,
 * where no live preview is possible, the phone's camera through the file intake's
 * `<input capture>`. The live camera's snapshot is handed to the file intake like any chosen file:
 * `mk-file-selected` (source `camera`; a veto refuses it), then the photo's checks, its fitting
 * and its errors, the same as for a picked file.
 */
import { html, type ReactiveControllerHost } from 'lit';
import { FileIntakeController, type FileIntakeOptions } from '../shared/file-intake.js';
import { addStyles } from '../shared/lazy-panel.js';
import { PHOTO_ACCEPT } from '../shared/photo-fit.js';
import type { CameraController } from './camera.js';
import { HeadshotPhoto } from './photo.js';

/** What the views read of the live camera: off until its code (camera.ts, with its styles) loads on the first open. */
export type CameraView = Pick<CameraController, 'open' | 'state' | 'render'>;
const OFF: CameraView = { open: false, state: 'off', render: () => html`` };

/** Whether a live preview is possible here. */
const liveCamera = () =>
  typeof navigator !== 'undefined' &&
  typeof navigator.mediaDevices?.getUserMedia === 'function' &&
  globalThis.isSecureContext !== false;

type Host = ReactiveControllerHost & HTMLElement & { readonly renderRoot: ParentNode };

export interface PhotoIntakeOptions extends Pick<FileIntakeOptions, 'enabled' | 'pageWide' | 'capture'> {
  /** A photo came in (dropped, pasted, picked or taken), before its check: the element starts over. */
  onPhoto(): void;
  /** After each update, whether the live preview is open (the element's `:state(camera)`). */
  onCameraOpen(open: boolean): void;
  /** A snapshot was taken and taken in (for the live region). */
  onTaken(): void;
}

export class PhotoIntake {
  /** The selfie and its checks (why it was refused; a batch's failure is the batch's). */
  readonly photo: HeadshotPhoto;
  /** The picker, drop, paste and the phone camera's `<input capture>`. */
  readonly files: FileIntakeController;
  readonly #onTaken: () => void;
  readonly #host: Host;
  readonly #options: PhotoIntakeOptions;
  #camera: CameraController | undefined;
  #loading: Promise<CameraController> | undefined;

  constructor(host: Host, options: PhotoIntakeOptions) {
    const { onCameraOpen: _, onTaken, onPhoto, ...intake } = options;
    this.photo = new HeadshotPhoto(host);
    this.files = new FileIntakeController(host, {
      ...intake,
      accept: PHOTO_ACCEPT,
      camera: 'user',
      onFiles: ([file]) => {
        onPhoto();
        void this.photo.check(file!);
      },
    });
    this.#onTaken = onTaken;
    this.#host = host;
    this.#options = options;
  }

  /** The live preview. */
  get camera(): CameraView {
    return this.#camera ?? OFF;
  }

  /** The camera's code and styles, on the first open. */
  #load(): Promise<CameraController> {
    return (this.#loading ??= import('./camera.js').then(
      ({ CameraController, cameraStyles }) => {
        addStyles(this.#host.renderRoot as ShadowRoot, cameraStyles);
        // The live camera looks the way `capture` says (a site that has someone else take the photo sets `environment`).
        return (this.#camera = new CameraController(this.#host, this.#options.onCameraOpen, () =>
          this.#options.capture?.() === 'environment' ? 'environment' : 'user',
        ));
      },
      (err: unknown) => {
        this.#loading = undefined;
        throw err;
      },
    ));
  }

  /** Opens the live camera (call from a user gesture); where there is none, the phone's camera through the file intake. */
  async openCamera(): Promise<void> {
    if (!liveCamera()) return this.files.openCamera();
    const camera = await this.#load();
    // The element left the page while the camera's code loaded: no camera opens for nothing shown.
    if (this.#host.isConnected) await camera.show();
  }

  /** Closes the live camera, if it is open. */
  stopCamera(): void {
    this.#camera?.stop();
  }

  /** Takes the live camera's frame and hands it to the file intake as a photo from the camera. */
  async takePhoto(): Promise<void> {
    const file = await this.#camera?.take();
    if (file && this.files.offer([file], 'camera').length) this.#onTaken();
  }
}
