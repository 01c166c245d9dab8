/**
 * What <video-to-3d-uploader> does with a video that breaks a limit the browser can fix:
 * the plan (src/client/fit-video.ts), the filmstrip of the trim range, and the conversion. A lazy
 * chunk with mediabunny behind it: loaded when a chosen video breaks a limit, or when `<video>`
 * could not decode it (to name its codec), never with the page.
 */
import type { ReactiveControllerHost } from 'lit';
import { sniffVideo, LIMITS } from '../../api/index.js';
import type { CheckedVideo } from '../../client/validate-video.js';
import { ValidationError } from '../../client/validate.js';
import { clampTrim, planFit, probeVideo, type FitPlan, type FitReason } from '../../client/fit-video.js';
import { convertVideo, type ConvertProgress } from '../../client/fit-video-convert.js';
import { dropChosen, keepChosen } from '../../client/fit-video-files.js';
import { filmstrip } from '../../client/fit-video-filmstrip.js';

export type { FitPlan } from '../../client/fit-video.js';
export { dropChosen, keptChosen } from '../../client/fit-video-files.js';

/** Set in this tab's session storage while a conversion runs: a reload during it says so (check.ts reads it). */
export const CONVERTING = 'mediakit-converting';
/**
 * Set beside it once the chosen video is kept on this device (`KeptChosen`): a reload during the
 * conversion starts it again from that copy (check.ts), without asking for the file.
 */
export const CONVERTING_KEPT = 'mediakit-converting-kept';

/** What a reload needs to convert the chosen video again: its copy's name, its type, and the range sent. */
export interface KeptChosen {
  stored: string;
  type: string;
  trim: { start: number; end: number };
}
const session = (): Storage | undefined => {
  try {
    return globalThis.sessionStorage ?? undefined;
  } catch {
    return undefined;
  }
};

/** How the device advice of a refusal reads: a phone's general advice, or an iPhone's too. */
export type DeviceAdvice = 'general' | 'iphone';

/** A refusal that a conversion could not lift here, with advice for the device that recorded it. */
export type AdvisedRefusal = ValidationError & {
  deviceAdvice?: DeviceAdvice;
  cannot?: 'decode' | 'encode';
  codec?: string;
};

const FIXABLE = new Set(['resolution', 'too_long', 'too_large']);

const CODECS: Record<string, string> = { avc: 'H.264', hevc: 'HEVC', vp9: 'VP9', vp8: 'VP8', av1: 'AV1' };

/** A codec's name as people know it. */
export const codecName = (codec: string | null | undefined) => (codec ? (CODECS[codec] ?? codec.toUpperCase()) : '');

/**
 * A video made to fit: its plan, the trim range's filmstrip, and the conversion (once: a retry
 * sends the same converted file, so the same Idempotency-Key).
 */
export class VideoFit {
  readonly plan: FitPlan;
  /** The facts of the chosen video. */
  readonly checked: CheckedVideo;
  /** The filmstrip of a video to trim (blob URLs of small frames spread over it). */
  strip: string[] = [];
  /** The conversion under way, and its progress. */
  converting: ConvertProgress | undefined;
  /** The converted video (kept until the range changes or the video goes). */
  converted: File | undefined;
  /** The copy of the chosen video on this device when it is one a reload left (its conversion starts again). */
  kept: string | undefined;
  /** Called with each converted video (check.ts runs the quality checks on its frames). */
  onConverted: ((file: File) => void) | undefined;
  readonly #host: ReactiveControllerHost;
  #abort: AbortController | undefined;

  constructor(host: ReactiveControllerHost, plan: FitPlan, checked: CheckedVideo) {
    this.#host = host;
    this.plan = plan;
    this.checked = checked;
  }

  /** The range sent of a video over 3 minutes, in seconds; undefined when it needs no trim. */
  get trim(): { start: number; end: number } | undefined {
    return this.plan.reasons.includes('too_long') ? { ...this.plan.trim } : undefined;
  }

  /** Sets the range to send (clamped into the video, at most 3 minutes; `moved`: the end the user moved). */
  setTrim(start: number, end: number, moved: 'start' | 'end' = 'start'): void {
    if (this.converting || !this.trim) return;
    this.plan.trim = clampTrim(this.plan, start, end, moved);
    this.converted = undefined;
    this.#host.requestUpdate();
  }

  async loadStrip(file: File, signal: AbortSignal): Promise<void> {
    const frames = await filmstrip(file, this.plan.durationSeconds, 10);
    if (signal.aborted) return;
    this.strip = frames.map((b) => URL.createObjectURL(b));
    this.#host.requestUpdate();
  }

  /** The converted video and its facts, converting it first unless done. Rejects with an AbortError when cancelled. */
  async toSend(file: File): Promise<{ file: File; checked: CheckedVideo }> {
    const plan = this.plan;
    if (!this.converted) {
      const abort = (this.#abort = new AbortController());
      this.converting = { fraction: 0, frames: 0, totalFrames: 0, secondsLeft: undefined };
      this.#host.requestUpdate();
      session()?.setItem(CONVERTING, file.name);
      // The chosen video is kept on this device while it converts, for a reload to start again from.
      const keeping = this.kept
        ? Promise.resolve(this.kept)
        : keepChosen(file, abort.signal).then((stored) => {
            if (stored && !abort.signal.aborted && this.converting) {
              const kept: KeptChosen = { stored, type: file.type, trim: { ...plan.trim } };
              session()?.setItem(CONVERTING_KEPT, JSON.stringify(kept));
            }
            return stored;
          });
      if (this.kept) {
        const kept: KeptChosen = { stored: this.kept, type: file.type, trim: { ...plan.trim } };
        session()?.setItem(CONVERTING_KEPT, JSON.stringify(kept));
      }
      try {
        this.converted = await convertVideo(file, plan, {
          name: file.name,
          signal: abort.signal,
          onProgress: (p) => {
            if (abort.signal.aborted) return;
            this.converting = p;
            this.#host.requestUpdate();
          },
        });
      } finally {
        session()?.removeItem(CONVERTING);
        session()?.removeItem(CONVERTING_KEPT);
        this.converting = this.#abort = undefined;
        this.kept = undefined;
        // Converted, cancelled or failed: the copy is no longer needed (a resend sends the converted video).
        abort.abort();
        void keeping.then((stored) => (stored ? dropChosen(stored) : undefined));
        this.#host.requestUpdate();
      }
      this.onConverted?.(this.converted);
    }
    const { width, height } = plan.target;
    const durationSeconds = plan.trim.end - plan.trim.start;
    return {
      file: this.converted,
      checked: { container: 'mp4', bytes: this.converted.size, durationSeconds, width, height },
    };
  }

  /** Stops a conversion under way (it costs nothing). */
  cancel(): void {
    this.#abort?.abort();
  }

  dispose(): void {
    this.cancel();
    for (const url of this.strip) URL.revokeObjectURL(url);
    this.strip = [];
  }
}

/**
 * A refusal of `file` (validateVideo's) that the browser may lift by converting: what makes it
 * fit (the plan, the facts of the chosen video, its filmstrip when it is to be trimmed), or the
 * refusal again, with the device advice, where it cannot.
 */
export async function fitOrRefuse(
  host: ReactiveControllerHost,
  file: File,
  err: unknown,
  signal: AbortSignal,
): Promise<VideoFit> {
  if (!(err instanceof ValidationError) || !FIXABLE.has(err.reason)) throw err;
  const container = sniffVideo(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  const plan = container ? await planFit(file, []) : undefined;
  if (!plan) throw err;
  if ('refuse' in plan) {
    const advised = err as AdvisedRefusal;
    // HEVC in a MOV is what an iPhone records on "High Efficiency".
    advised.deviceAdvice = plan.codec === 'hevc' || container === 'mov' ? 'iphone' : 'general';
    advised.cannot = plan.refuse;
    advised.codec = codecName(plan.codec);
    throw advised;
  }
  const { maxShortSidePixels: short, maxLongSidePixels: long, maxDurationSeconds, maxBytes } = LIMITS.video;
  const reasons: FitReason[] = [];
  if (Math.min(plan.width, plan.height) > short || Math.max(plan.width, plan.height) > long) reasons.push('resolution');
  if (plan.durationSeconds > maxDurationSeconds) reasons.push('too_long');
  if (file.size > maxBytes) reasons.push('too_large');
  plan.reasons = reasons;
  const fit = new VideoFit(host, plan, {
    container: container!,
    bytes: file.size,
    durationSeconds: plan.durationSeconds,
    width: plan.width,
    height: plan.height,
  });
  if (fit.trim) void fit.loadStrip(file, signal);
  return fit;
}

/** The codec of a video `<video>` could not decode, by name ('' when unknown), and whether mediabunny can. */
export async function undecodedCodec(file: Blob): Promise<string> {
  const probe = await probeVideo(file);
  return probe && !probe.decodable ? codecName(probe.codec) : '';
}
