/**
 * Phone videos made to fit the API's limits in the browser, before anything is spent:
 * a frame over 1080p scaled to fit 1920x1080 in its own orientation (rotation metadata applied to
 * the frames), a video over 3 minutes trimmed to a range the user chose, a video over 500 MB after
 * that re-encoded at a bitrate that fits with a margin, the audio dropped (a reconstruction does not
 * use it). The output is H.264 in MP4, written as it is made to the origin's private file system
 * (or, where the page has none, to Blob parts the browser keeps on disk), never whole in memory.
 *
 * This file holds the plan: what the chosen video is, which limits it breaks, and what making it
 * fit takes. Beside it: the conversion (fit-video-convert.ts), the re-encode pipeline
 * (fit-video-reencode.ts), where the output is written (fit-video-output.ts), the chosen video's
 * copy kept for a reload (fit-video-files.ts) and the trim range's filmstrip
 * (fit-video-filmstrip.ts).
 *
 * A lazy chunk with mediabunny behind it: the uploader imports it when a chosen video breaks a
 * limit or cannot be decoded by `<video>`, never with the page.
 */
import { ALL_FORMATS, BlobSource, Input, canEncodeVideo } from 'mediabunny';
import { LIMITS } from '../api/index.js';

/** The limits a browser can fix. */
export type FitReason = 'resolution' | 'too_long' | 'too_large';

export interface FitPlan {
  /** The limits the chosen video breaks. */
  reasons: FitReason[];
  /** The video's codec as mediabunny names it (`avc`, `hevc`, …), or null when unknown. */
  codec: string | null;
  /** The frame as shown (rotation applied), the length, the size and the average frame rate of the chosen video. */
  width: number;
  height: number;
  durationSeconds: number;
  bytes: number;
  frameRate: number;
  /** It has a sound track (which is dropped). */
  audio: boolean;
  /** The frame size sent (even numbers, within 1920x1080 in the video's orientation). */
  target: { width: number; height: number };
  /** The range sent, in seconds of the chosen video (the whole video unless it is over 3 minutes). */
  trim: { start: number; end: number };
}

/** Why a video that breaks a limit cannot be made to fit here: its frames cannot be decoded, or H.264 cannot be encoded. */
export type FitRefusal = { refuse: 'decode' | 'encode'; codec: string | null };

/** What mediabunny reads of a video: its codec, whether this browser decodes it, and its shown frame. */
export interface VideoProbe {
  codec: string | null;
  decodable: boolean;
  width: number;
  height: number;
  durationSeconds: number;
  frameRate: number;
  audio: boolean;
}

/** The margin under 500 MB a re-encoded video aims for (encoders overshoot their target bitrate a little). */
export const SIZE_MARGIN = 0.85;
/** The bitrate of a re-encode when the size allows it: a good 1080p walkthrough. */
const DEFAULT_BITRATE = 8_000_000;

/** The nearest even size at or below `n` (encoders take even frame sizes), at least 2. */
export const even = (n: number) => Math.max(2, 2 * Math.floor(n / 2));

/** The frame size that fits 1920x1080 in the orientation of `width` x `height` (unchanged when it fits). */
export function fitFrame(width: number, height: number): { width: number; height: number } {
  const { maxShortSidePixels: short, maxLongSidePixels: long } = LIMITS.video;
  const s = Math.min(1, long / Math.max(width, height), short / Math.min(width, height));
  return s === 1 ? { width, height } : { width: even(width * s), height: even(height * s) };
}

/** The bitrate (bits/s) at which `seconds` of video stay under 500 MB with a margin. */
export function fitBitrate(seconds: number): number {
  return Math.min(DEFAULT_BITRATE, Math.floor((LIMITS.video.maxBytes * SIZE_MARGIN * 8) / Math.max(1, seconds)));
}

/** Opens `file` for mediabunny to read, whatever its container. */
export function openVideo(file: Blob): Input {
  return new Input({ source: new BlobSource(file), formats: ALL_FORMATS });
}

/** Reads the video track of `file`; undefined when mediabunny finds none. */
export async function probeVideo(file: Blob): Promise<VideoProbe | undefined> {
  const input = openVideo(file);
  try {
    const track = await input.getPrimaryVideoTrack();
    if (!track) return undefined;
    const [decodable, width, height, durationSeconds, stats, audio] = await Promise.all([
      track.canDecode(),
      track.getDisplayWidth(),
      track.getDisplayHeight(),
      input.computeDuration([track]),
      track.computePacketStats(120).catch(() => ({ averagePacketRate: 30 })),
      input.getAudioTracks().then((a) => a.length > 0),
    ]);
    return {
      codec: track.codec,
      decodable,
      width,
      height,
      durationSeconds,
      frameRate: stats.averagePacketRate || 30,
      audio,
    };
  } catch {
    return undefined;
  } finally {
    input.dispose();
  }
}

/**
 * What making `file` fit takes (`reasons`: the limits it breaks), or why it cannot be done here.
 * Undefined when mediabunny cannot read the file at all.
 */
export async function planFit(file: Blob, reasons: FitReason[]): Promise<FitPlan | FitRefusal | undefined> {
  const probe = await probeVideo(file);
  if (!probe) return undefined;
  const { codec, width, height, durationSeconds } = probe;
  if (!probe.decodable) return { refuse: 'decode', codec };
  const max = LIMITS.video.maxDurationSeconds;
  const plan: FitPlan = {
    reasons,
    codec,
    width,
    height,
    durationSeconds,
    bytes: file.size,
    frameRate: probe.frameRate,
    audio: probe.audio,
    target: fitFrame(width, height),
    trim: { start: 0, end: Math.min(durationSeconds, max) },
  };
  if (transcodes(plan) && !(await encodable(plan))) return { refuse: 'encode', codec };
  return plan;
}

/** Whether H.264 at the plan's frame size and bitrate can be encoded here (`VideoEncoder.isConfigSupported`). */
async function encodable(plan: FitPlan): Promise<boolean> {
  if (typeof VideoEncoder === 'undefined') return false;
  return canEncodeVideo('avc', {
    width: plan.target.width,
    height: plan.target.height,
    bitrate: fitBitrate(plan.trim.end - plan.trim.start),
    frameRate: Math.min(60, Math.max(1, plan.frameRate)),
  }).catch(() => false);
}

/**
 * Whether the plan re-encodes: a new frame size, a codec other than H.264, or more bytes than fit
 * once trimmed. Otherwise the trim copies the H.264 packets as they are (fast and lossless).
 */
export function transcodes(plan: FitPlan): boolean {
  const kept = (plan.trim.end - plan.trim.start) / Math.max(0.001, plan.durationSeconds);
  return (
    plan.target.width !== plan.width ||
    plan.target.height !== plan.height ||
    plan.codec !== 'avc' ||
    plan.bytes * kept > LIMITS.video.maxBytes * SIZE_MARGIN
  );
}

/** The trim range, kept inside the video and at most 3 minutes long (moving the other end when needed). */
export function clampTrim(plan: FitPlan, start: number, end: number, moved: 'start' | 'end' = 'start') {
  const max = LIMITS.video.maxDurationSeconds;
  const d = plan.durationSeconds;
  let s = Math.max(0, Math.min(start, d - 1));
  let e = Math.max(s + 1, Math.min(end, d));
  if (e - s > max) {
    if (moved === 'start') e = s + max;
    else s = e - max;
  }
  s = Math.max(0, s);
  e = Math.min(d, e);
  return { start: s, end: e };
}
