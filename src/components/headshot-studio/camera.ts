/**
 * The live camera of <headshot-studio>: opened only on a user gesture (getUserMedia), closed when
 * the photo is taken, the user closes it, or the element leaves the page. Where there is no
 * preview (no mediaDevices, an insecure page) the element falls back to the phone camera through
 * `<input capture>`.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export type CameraState = 'off' | 'starting' | 'on' | 'denied';

export class CameraController implements ReactiveController {
  readonly host: ReactiveControllerHost;
  state: CameraState = 'off';
  stream: MediaStream | undefined;
  #opening = 0;

  constructor(host: ReactiveControllerHost) {
    this.host = host;
    host.addController(this);
  }

  /** Whether a live preview is possible here. */
  static get supported(): boolean {
    return typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function' && globalThis.isSecureContext !== false;
  }

  hostDisconnected(): void {
    this.stop();
  }

  /** Opens the front camera (call from a click). Resolves once the preview runs or was refused. */
  async start(): Promise<void> {
    const attempt = ++this.#opening;
    this.state = 'starting';
    this.host.requestUpdate();
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 960 } }, audio: false });
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

  /** The current frame as a JPEG file, as the camera sees it (the preview is mirrored, the photo is not). */
  async capture(video: HTMLVideoElement): Promise<File> {
    const w = video.videoWidth;
    const h = video.videoHeight;
    if (!w || !h) throw new Error('the camera has not shown a frame yet');
    const canvas = new OffscreenCanvas(w, h);
    canvas.getContext('2d')!.drawImage(video, 0, 0, w, h);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
    return new File([blob], `selfie-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.jpg`, { type: 'image/jpeg' });
  }
}
