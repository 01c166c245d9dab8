/**
 * `VideoCheckController`: the video chosen in <video-to-3d-uploader>, checked before anything is
 * spent: its facts first (container, length and frame size, by the API's rules), then a thumbnail
 * and advice from a few of its frames (frame-checks.ts). The checks' code loads with the first
 * video chosen, together with what the host needs next (`prepare`).
 *
 * A video that breaks a limit the browser can fix (over 1080p, over 3 minutes, over 500 MB) gets a
 * plan instead of a refusal (`fit`, fit.ts: a lazy chunk with the converter), carried out by
 * `convert()` after the user's confirmation; one the browser cannot convert is refused with advice
 * for the device. A video `<video>` cannot decode is named (`skipped`): its checks did not run.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ConvertProgress } from '../../client/fit-video.js';
import type { CheckedVideo } from '../../client/validate-video.js';
import type { FitPlan } from './fit.js';
import type { Advice } from './frame-checks.js';

type FitModule = typeof import('./fit.js');
let fitModule: FitModule | undefined;
const loadFit = async () => (fitModule ??= await import('./fit.js'));
/** Set in this tab's session storage while a conversion runs: a reload during it says so. */
const CONVERTING = 'mediakit-converting';
const session = (): Storage | undefined => {
  try {
    return globalThis.sessionStorage ?? undefined;
  } catch {
    return undefined;
  }
};

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
  /** The plan that makes the video fit the limits (undefined: it fits as it is). */
  fit: FitPlan | undefined;
  /** The filmstrip of a video to trim (blob URLs of small frames spread over it). */
  strip: string[] = [];
  /** The codec `<video>` could not decode here ('HEVC'): its frames were not checked. */
  skipped = '';
  /** The conversion under way, and its progress. */
  converting: ConvertProgress | undefined;
  /** The converted video (kept until the video changes, so a retry sends the same file with the same key). */
  converted: File | undefined;
  /** The name of the video whose conversion a reload stopped (said once, on the next visit of this tab). */
  interrupted = '';
  #converting: AbortController | undefined;
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
    const store = session();
    const name = store?.getItem(CONVERTING);
    if (name) {
      store!.removeItem(CONVERTING);
      this.interrupted = name;
      this.host.requestUpdate();
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
        const { plan, checked } = await (await loadFit()).fitOrRefuse(file, err);
        this.fit = plan;
        return checked;
      });
      if (abort.signal.aborted) return;
      this.checked = checked;
      this.checking = false;
      this.host.requestUpdate();
      const fit = this.fit;
      if (fit?.reasons.includes('too_long')) void this.#filmstrip(file, fit, abort.signal);
      const { inspectFrames } = await import('./frame-checks.js');
      // A video to trim: its frames are judged where the range starts, the first 3 minutes by default.
      const range = fit ? fit.trim.end : checked.durationSeconds;
      const report = await inspectFrames(file, range, abort.signal);
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

  async #filmstrip(file: File, plan: FitPlan, signal: AbortSignal): Promise<void> {
    const frames = await (await loadFit()).filmstrip(file, plan.durationSeconds, 10);
    if (signal.aborted || this.fit !== plan) return;
    this.strip = frames.map((b) => URL.createObjectURL(b));
    this.host.requestUpdate();
  }

  /** Sets the range to send of a video over 3 minutes (clamped into the video, at most 3 minutes). */
  setTrim(start: number, end: number, moved: 'start' | 'end' = 'start'): void {
    const plan = this.fit;
    // The plan's module is loaded whenever there is a plan.
    if (!plan || this.converting || !fitModule) return;
    plan.trim = fitModule.clampTrim(plan, start, end, moved);
    this.converted = undefined;
    this.host.requestUpdate();
  }

  /**
   * The video to send: the chosen one, or converted by the plan (once: a retry sends the same
   * converted file, so the same Idempotency-Key). Rejects with an AbortError when
   * cancelled.
   */
  async toSend(): Promise<{ file: File; checked: CheckedVideo }> {
    const { file, checked, fit } = this;
    if (!fit) return { file: file!, checked: checked! };
    if (!this.converted) {
      const abort = (this.#converting = new AbortController());
      const { convertVideo } = await loadFit();
      this.converting = { fraction: 0, frames: 0, totalFrames: 0, secondsLeft: undefined };
      this.host.requestUpdate();
      session()?.setItem(CONVERTING, file!.name);
      try {
        this.converted = await convertVideo(file!, fit, {
          name: file!.name,
          signal: abort.signal,
          onProgress: (p) => {
            if (abort.signal.aborted) return;
            this.converting = p;
            this.host.requestUpdate();
          },
        });
      } finally {
        session()?.removeItem(CONVERTING);
        if (this.#converting === abort) this.#converting = undefined;
        this.converting = undefined;
        this.host.requestUpdate();
      }
    }
    const { width, height } = fit.target;
    const durationSeconds = fit.trim.end - fit.trim.start;
    return {
      file: this.converted,
      checked: { container: 'mp4', bytes: this.converted.size, durationSeconds, width, height },
    };
  }

  /** Stops a check or a conversion under way. */
  cancel(): void {
    this.#abort?.abort();
    this.#converting?.abort();
  }

  /** Forgets the video (a check under way stops). */
  clear(): void {
    this.cancel();
    if (this.thumb) URL.revokeObjectURL(this.thumb);
    for (const url of this.strip) URL.revokeObjectURL(url);
    this.file = this.checked = this.thumb = this.fit = this.converted = this.converting = undefined;
    this.strip = [];
    this.skipped = '';
    this.checking = false;
    this.advice = [];
    this.host.requestUpdate();
  }
}
