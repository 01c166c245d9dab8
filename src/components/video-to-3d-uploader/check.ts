/**
 * `VideoCheckController`: the video chosen in <video-to-3d-uploader>, checked before anything is
 * spent: its facts first (container, length and frame size, by the API's rules), then a thumbnail
 * and advice from a few of its frames (frame-checks.ts). The checks' code (check-run.ts) loads
 * with the first video chosen, together with what the host needs next (`prepare`).
 *
 * A video that breaks a limit the browser can fix (over 1080p, over 3 minutes, over 500 MB) gets a
 * plan instead of a refusal (`fit`, fit.ts: a lazy chunk with the converter), carried out by
 * `fit.toSend()` after the user's confirmation; one the browser cannot convert is refused with advice
 * for the device. A video `<video>` cannot decode is named (`skipped`): its checks did not run.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CheckedVideo } from '../../client/validate-video.js';
import type { KeptChosen, VideoFit } from './fit.js';
import type { Advice } from './frame-checks.js';

// How a chosen video is checked loads with the first one (check-run.ts).
const loadRun = () => import('./check-run.js');

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
  /** The name of the video whose conversion a reload stopped and that is converted again from its copy on this device. */
  restarted = '';
  /** This browser keeps nothing for the page (a sandboxed frame, storage blocked): a reload would lose the upload. */
  noStorage = false;
  readonly #prepare: () => Promise<unknown>;
  #abort: AbortController | undefined;
  /** The quality checks of a converted video. */
  #judging: AbortController | undefined;

  constructor(host: ReactiveControllerHost & { start?(): Promise<void> }, prepare: () => Promise<unknown>) {
    this.host = host;
    this.#prepare = prepare;
    host.addController(this);
  }

  hostConnected(): void {
    // Moved in the page (into a dialog, say): the markers are this element's own conversion's.
    if (this.file) return;
    // Set in this tab's session storage while a conversion runs (fit.ts, CONVERTING and CONVERTING_KEPT): a reload stopped it.
    let kept: KeptChosen | undefined;
    let name = '';
    try {
      name = sessionStorage.getItem('mediakit-converting') ?? '';
      kept = JSON.parse(sessionStorage.getItem('mediakit-converting-kept') ?? 'null') ?? undefined;
      sessionStorage.removeItem('mediakit-converting');
      sessionStorage.removeItem('mediakit-converting-kept');
    } catch {
      // No session storage here (an opaque origin), or a record this version cannot read: nothing to say.
    }
    if (!name) return;
    if (kept?.stored) void loadRun().then(({ restart }) => restart(this, name, kept));
    else this.interrupted ||= name;
  }

  /** Checks `file` instead of the last one. Rejects with the refusal (the file is dropped); resolves when done or replaced. */
  async check(file: File): Promise<void> {
    this.clear();
    const abort = (this.#abort = new AbortController());
    this.file = file;
    this.checking = true;
    try {
      // Together, not one after another: what the checks read first loads beside them.
      const [{ checkChosen }] = await Promise.all([
        loadRun(),
        this.#prepare(),
        import('../../client/validate-video.js'),
        import('../../client/job-database.js'),
      ]);
      await checkChosen(this, file, abort.signal);
    } catch (err) {
      if (abort.signal.aborted) return;
      this.checking = false;
      this.file = undefined;
      throw err;
    } finally {
      this.host.requestUpdate();
    }
  }

  /** The quality checks of the converted video (what is sent): another video or a reset stops them. */
  judge(): AbortSignal {
    this.#judging?.abort();
    return (this.#judging = new AbortController()).signal;
  }

  /** Stops a check or a conversion under way. */
  cancel(): void {
    this.#abort?.abort();
    this.fit?.cancel();
  }

  /** Forgets the video (a check under way stops). */
  clear(): void {
    this.cancel();
    this.#judging?.abort();
    if (this.thumb) URL.revokeObjectURL(this.thumb);
    this.fit?.dispose();
    this.file = this.checked = this.thumb = this.fit = undefined;
    this.skipped = this.restarted = '';
    this.checking = false;
    this.advice = [];
    this.host.requestUpdate();
  }
}
