/**
 * `VideoCheckController`: the video chosen in <video-to-3d-uploader>, checked before anything is
 * spent: its facts first (container, length and frame size, by the API's rules), then a thumbnail
 * and advice from a few of its frames (frame-checks.ts). The checks' code loads with the first
 * video chosen, together with what the host needs next (`prepare`).
 *
 * A video that breaks a limit the browser can fix (over 1080p, over 3 minutes, over 500 MB) gets a
 * plan instead of a refusal (`fit`, fit.ts: a lazy chunk with the converter), carried out by
 * `fit.toSend()` after the user's confirmation; one the browser cannot convert is refused with advice
 * for the device. A video `<video>` cannot decode is named (`skipped`): its checks did not run.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CheckedVideo } from '../../client/validate-video.js';
import type { VideoFit } from './fit.js';
import type { Advice } from './frame-checks.js';

const loadFit = () => import('./fit.js');

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
  /** What makes the video fit the limits: its plan, trim range and conversion (undefined: it fits as it is). */
  fit: VideoFit | undefined;
  /** The codec `<video>` could not decode here ('HEVC'): its frames were not checked. */
  skipped = '';
  /** The name of the video whose conversion a reload stopped (said once, on the next visit of this tab). */
  interrupted = '';
  /** This browser keeps nothing for the page (a sandboxed frame, storage blocked): a reload would lose the upload. */
  noStorage = false;
  readonly #prepare: () => Promise<unknown>;
  #abort: AbortController | undefined;

  constructor(host: ReactiveControllerHost, prepare: () => Promise<unknown>) {
    this.host = host;
    this.#prepare = prepare;
    host.addController(this);
  }

  hostConnected(): void {
    // Set in this tab's session storage while a conversion runs (fit.ts, CONVERTING): a reload stopped it.
    try {
      this.interrupted ||= sessionStorage.getItem('mediakit-converting') ?? '';
      sessionStorage.removeItem('mediakit-converting');
    } catch {
      // No session storage here (an opaque origin): nothing to say.
    }
  }

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
      this.interrupted = '';
      const checked = await validateVideo(file, abort.signal).catch(async (err: unknown) => {
        if (abort.signal.aborted) throw err;
        const fit = await (await loadFit()).fitOrRefuse(this.host, file, err, abort.signal);
        this.fit = fit;
        return fit.checked;
      });
      if (abort.signal.aborted) return;
      this.checked = checked;
      this.checking = false;
      this.host.requestUpdate();
      const { inspectFrames } = await import('./frame-checks.js');
      // A video to trim: its frames are judged in the range sent by default, the first 3 minutes.
      const report = await inspectFrames(file, this.fit?.plan.trim.end ?? checked.durationSeconds, abort.signal);
      if (abort.signal.aborted) return;
      this.advice = report.advice;
      if (report.thumbnail) this.thumb = URL.createObjectURL(report.thumbnail);
      else this.skipped = await (await loadFit()).undecodedCodec(file);
    } catch (err) {
      if (abort.signal.aborted) return;
      this.checking = false;
      this.file = undefined;
      throw err;
    } finally {
      this.host.requestUpdate();
    }
  }

  /** Stops a check or a conversion under way. */
  cancel(): void {
    this.#abort?.abort();
    this.fit?.cancel();
  }

  /** Forgets the video (a check under way stops). */
  clear(): void {
    this.cancel();
    if (this.thumb) URL.revokeObjectURL(this.thumb);
    this.fit?.dispose();
    this.file = this.checked = this.thumb = this.fit = undefined;
    this.skipped = '';
    this.checking = false;
    this.advice = [];
    this.host.requestUpdate();
  }
}
