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
import type { KeptChosen, VideoFit } from './fit.js';
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
    if (kept?.stored) void this.#restart(name, kept);
    else this.interrupted ||= name;
  }

  /**
   * Converts again the video a reload stopped converting, from its copy on this device: checked as
   * when it was chosen, the range sent as it was, then sent by the host's `start()` (one upload,
   * one charge). Where the copy is gone, says to choose the video again.
   */
  async #restart(name: string, kept: KeptChosen): Promise<void> {
    const fit = await loadFit();
    const file = await fit.keptChosen(kept.stored, name, kept.type);
    if (!file || this.file) {
      await fit.dropChosen(kept.stored);
      if (!this.file) this.interrupted ||= name;
      this.host.requestUpdate();
      return;
    }
    this.restarted = name;
    try {
      await this.check(file);
    } catch {
      // Refused on this visit after all: the refusal is the host's to show when the user chooses again.
    }
    if (this.file !== file || !this.fit) {
      this.restarted = '';
      await fit.dropChosen(kept.stored);
      this.interrupted ||= name;
      this.host.requestUpdate();
      return;
    }
    this.restarted = name;
    if (this.fit.trim) this.fit.setTrim(kept.trim.start, kept.trim.end);
    this.fit.kept = kept.stored;
    await (this.host as { start?(): Promise<void> }).start?.();
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
      if (file.name !== this.restarted) this.restarted = '';
      const checked = await validateVideo(file, abort.signal).catch(async (err: unknown) => {
        if (abort.signal.aborted) throw err;
        const fit = await (await loadFit()).fitOrRefuse(this.host, file, err, abort.signal);
        this.fit = fit;
        return fit.checked;
      });
      if (abort.signal.aborted) return;
      this.checked = checked;
      this.checking = false;
      const fit = this.fit;
      // The quality checks run again on the frames of the converted video: what is sent (its range,
      // its frames) is what they judge. Their own abort: cancelling the upload that follows keeps
      // them; another video or a reset stops them.
      if (fit)
        fit.onConverted = (converted) => {
          this.#judging?.abort();
          const judging = (this.#judging = new AbortController());
          void this.#inspect(converted, fit.plan.trim.end - fit.plan.trim.start, judging.signal);
        };
      this.host.requestUpdate();
      // A video to trim: its frames are judged in the range sent by default, the first 3 minutes.
      const shown = await this.#inspect(file, fit?.plan.trim.end ?? checked.durationSeconds, abort.signal);
      if (!shown && !abort.signal.aborted) this.skipped = await (await loadFit()).undecodedCodec(file);
    } catch (err) {
      if (abort.signal.aborted) return;
      this.checking = false;
      this.file = undefined;
      throw err;
    } finally {
      this.host.requestUpdate();
    }
  }

  /** Judges a few frames of `file` (the chosen video, or the converted one): the advice and the thumbnail shown. False when no frame could be read. */
  async #inspect(file: File, durationSeconds: number, signal: AbortSignal): Promise<boolean> {
    const { inspectFrames } = await import('./frame-checks.js');
    const report = await inspectFrames(file, durationSeconds, signal);
    if (signal.aborted || !report.thumbnail) return false;
    this.advice = report.advice;
    if (this.thumb) URL.revokeObjectURL(this.thumb);
    this.thumb = URL.createObjectURL(report.thumbnail);
    this.host.requestUpdate();
    return true;
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
