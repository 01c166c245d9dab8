/**
 * The live camera of <headshot-studio>: opened only on a user gesture (getUserMedia), closed when
 * the photo is taken, the user closes it, or the element leaves the page. It draws the preview
 * with its framing guide and the capture and cancel buttons. Where there is no preview (no
 * mediaDevices, an insecure page) the photo intake (intake.ts) opens the phone camera through the
 * file intake's `<input capture>` instead.
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { createRef, ref } from 'lit/directives/ref.js';
import { focusFirst } from '../../internal/small.js';
import type { LocalizeController } from '../shared/localize.js';
import type { PhotoFitStrings } from '../shared/photo-fit-strings.js';
import type { SharedStrings } from '../shared/strings.js';
import type { HeadshotStrings } from './strings.js';

export { cameraStyles } from './camera.styles.js';

/** The element's dictionaries (types.ts has the same `Strings`; that module imports this one). */
type Strings = HeadshotStrings & SharedStrings & PhotoFitStrings;

export type CameraState = 'off' | 'starting' | 'on' | 'denied';

type Host = ReactiveControllerHost & { readonly renderRoot: ParentNode };

export class CameraController implements ReactiveController {
  readonly host: Host;
  state: CameraState = 'off';
  stream: MediaStream | undefined;
  #opening = 0;
  readonly #video = createRef<HTMLVideoElement>();
  readonly #onOpen: (open: boolean) => void;
  readonly #facing: () => 'user' | 'environment';

  /** `onOpen`: after each update, whether the preview is open (the element's `:state(camera)`); `facing`: which camera to ask for. */
  constructor(
    host: Host,
    onOpen: (open: boolean) => void = () => undefined,
    facing: () => 'user' | 'environment' = () => 'user',
  ) {
    this.host = host;
    this.#onOpen = onOpen;
    this.#facing = facing;
    host.addController(this);
  }

  hostDisconnected(): void {
    this.stop();
  }

  hostUpdated(): void {
    const video = this.#video.value;
    if (video && video.srcObject !== (this.stream ?? null)) video.srcObject = this.stream ?? null;
    this.#onOpen(this.open);
  }

  /** The preview is open or opening. */
  get open(): boolean {
    return this.state === 'on' || this.state === 'starting';
  }

  /** Opens the live camera (call from a click); the focus goes to the capture button, or back to the camera button if refused. */
  async show(): Promise<void> {
    await this.start();
    await this.host.updateComplete;
    focusFirst(this.host.renderRoot, this.state === 'on' ? '[part~="capture-button"]' : '[part~="camera-button"]');
  }

  /** Opens the camera `facing` names (call from a click). Resolves once the preview runs or was refused. */
  async start(): Promise<void> {
    const attempt = ++this.#opening;
    this.state = 'starting';
    this.host.requestUpdate();
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: this.#facing(), width: { ideal: 1280 }, height: { ideal: 960 } },
        audio: false,
      });
      if (attempt !== this.#opening) {
        for (const t of stream.getTracks()) t.stop();
        return;
      }
      this.stream = stream;
      this.state = 'on';
    } catch {
      if (attempt === this.#opening) this.state = 'denied';
    }
    this.host.requestUpdate();
  }

  stop(): void {
    this.#opening++;
    for (const t of this.stream?.getTracks() ?? []) t.stop();
    this.stream = undefined;
    if (this.state !== 'off') {
      this.state = 'off';
      this.host.requestUpdate();
    }
  }

  /** Takes the current frame and closes the camera; undefined when no preview runs. */
  async take(): Promise<File | undefined> {
    const video = this.#video.value;
    if (!video || this.state !== 'on') return undefined;
    const file = await this.capture(video);
    this.stop();
    return file;
  }

  /** The current frame as a JPEG file, as the camera sees it (the preview is mirrored, the photo is not). */
  async capture(video: HTMLVideoElement): Promise<File> {
    const w = video.videoWidth;
    const h = video.videoHeight;
    if (!w || !h) throw new Error('the camera has not shown a frame yet');
    const canvas = new OffscreenCanvas(w, h);
    canvas.getContext('2d')!.drawImage(video, 0, 0, w, h);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
    return new File([blob], `selfie-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.jpg`, {
      type: 'image/jpeg',
    });
  }

  /** The preview with its framing guide (head and shoulders), and the capture and cancel buttons (`off`: the element is disabled). */
  render(t: LocalizeController<Strings>, onCapture: () => void, off = false) {
    return html`<div class="camera" part="camera">
      <div class="frame">
        <video ${ref(this.#video)} autoplay playsinline muted aria-label=${t.term('hsCameraLabel')}></video>
        <svg class="guide" viewBox="0 0 300 400" preserveAspectRatio="xMidYMid slice" aria-hidden="true">
          <path class="shade" fill-rule="evenodd" d="M0 0H300V400H0Z M150 52c-46 0-74 36-74 86 0 52 32 96 74 96s74-44 74-96c0-50-28-86-74-86Z" />
          <ellipse cx="150" cy="140" rx="74" ry="92" />
          <path d="M40 400c6-80 50-118 110-126 60 8 104 46 110 126" />
        </svg>
        ${this.state === 'starting' ? html`<p class="camera-wait">${t.term('hsCameraStarting')}</p>` : nothing}
      </div>
      <p class="muted">${t.term('hsCameraGuide')}</p>
      <div class="actions">
        <button type="button" part="capture-button" class="primary" ?disabled=${off || this.state !== 'on'} @click=${onCapture}>${t.term('hsCapture')}</button>
        <button type="button" class="secondary" ?disabled=${off} @click=${() => this.stop()}>${t.term('hsCameraCancel')}</button>
      </div>
    </div>`;
  }
}
