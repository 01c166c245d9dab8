/**
 * What <video-to-3d-uploader> does with a video that breaks a limit the browser can fix (issue 32):
 * the plan (src/client/fit-video.ts), the filmstrip of the trim range, and the conversion. A lazy
 * chunk with mediabunny behind it: loaded when a chosen video breaks a limit, or when `<video>`
 * could not decode it (to name its codec), never with the page.
 */
import { sniffVideo, LIMITS } from '../../api/index.js';
import type { CheckedVideo } from '../../client/validate-video.js';
import { ValidationError } from '../../client/validate.js';
import { planFit, probeVideo, type FitPlan, type FitReason } from '../../client/fit-video.js';

export { clampTrim, convertVideo, dropConverted, filmstrip, transcodes, type FitPlan } from '../../client/fit-video.js';

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
 * A refusal of `file` (validateVideo's) that the browser may lift by converting: the plan and the
 * facts of the chosen video, or the refusal again, with the device advice, where it cannot.
 */
export async function fitOrRefuse(file: File, err: unknown): Promise<{ plan: FitPlan; checked: CheckedVideo }> {
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
  return {
    plan,
    checked: {
      container: container!,
      bytes: file.size,
      durationSeconds: plan.durationSeconds,
      width: plan.width,
      height: plan.height,
    },
  };
}

/** The codec of a video `<video>` could not decode, by name ('' when unknown), and whether mediabunny can. */
export async function undecodedCodec(file: Blob): Promise<string> {
  const probe = await probeVideo(file);
  return probe && !probe.decodable ? codecName(probe.codec) : '';
}
