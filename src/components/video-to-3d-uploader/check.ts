/**
 * `VideoCheckController`: the video chosen in <video-to-3d-uploader>, checked before anything is
 * spent: its facts first (container, length and frame size, by the API's rules), then a thumbnail
 * and advice from a few of its frames (frame-checks.ts). The checks' code loads with the first
 * video chosen, together with what the host needs next (`prepare`).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CheckedVideo } from '../../client/validate-video.js';
import type { Advice } from './frame-checks.js';

export class VideoCheckController implements ReactiveController {
  readonly host: ReactiveControllerHost;
  /** The video chosen (until it is sent, refused or cleared). */
  file: File | undefined;
  /** Its facts, once they passed the checks. */
  checked: CheckedVideo | undefined;
  checking = false;
  /** Its first frame (a blob URL), and hints from the sampled frames. */
  thumb: string | undefined;
  advice: readonly Advice[] = [];
  /** This browser keeps nothing for the page (a sandboxed frame, storage blocked): a reload would lose the upload. */
  noStorage = false;
  readonly #prepare: () => Promise<unknown>;
  #abort: AbortController | undefined;

  constructor(host: ReactiveControllerHost, prepare: () => Promise<unknown>) {
    this.host = host;
    this.#prepare = prepare;
    host.addController(this);
  }

  hostConnected(): void {}

  /** Checks `file` instead of the last one. Rejects with the refusal (the file is dropped); resolves when done or replaced. */
  async check(file: File): Promise<void> {
    this.clear();
    const abort = (this.#abort = new AbortController());
    this.file = file;
    this.checking = true;
    try {
      const [{ validateVideo }, { storageAvailable }] = await Promise.all([
        import('../../client/validate-video.js'),
        import('../../client/job-database.js'),
        this.#prepare(),
      ]);
      this.noStorage = !(await storageAvailable());
      const checked = await validateVideo(file, abort.signal);
      if (abort.signal.aborted) return;
      this.checked = checked;
      this.checking = false;
      this.host.requestUpdate();
      const { inspectFrames } = await import('./frame-checks.js');
      const report = await inspectFrames(file, checked.durationSeconds, abort.signal);
      if (abort.signal.aborted) return;
      this.advice = report.advice;
      if (report.thumbnail) this.thumb = URL.createObjectURL(report.thumbnail);
    } catch (err) {
      if (abort.signal.aborted) return;
      this.checking = false;
      this.file = undefined;
      throw err;
    } finally {
      this.host.requestUpdate();
    }
  }

  /** Stops a check under way. */
  cancel(): void {
    this.#abort?.abort();
  }

  /** Forgets the video (a check under way stops). */
  clear(): void {
    this.cancel();
    if (this.thumb) URL.revokeObjectURL(this.thumb);
    this.file = this.checked = this.thumb = undefined;
    this.checking = false;
    this.advice = [];
    this.host.requestUpdate();
  }
}
