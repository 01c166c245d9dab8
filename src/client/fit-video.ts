/**
 * Phone videos made to fit the API's limits in the browser, before anything is spent (issue 32):
 * a frame over 1080p scaled to fit 1920x1080 in its own orientation (rotation metadata applied to
 * the frames), a video over 3 minutes trimmed to a range the user chose, a video over 500 MB after
 * that re-encoded at a bitrate that fits with a margin, the audio dropped (a reconstruction does not
 * use it). The output is H.264 in MP4, written as it is made to the origin's private file system
 * (or, where the page has none, to Blob parts the browser keeps on disk), never whole in memory.
 *
 * A lazy chunk with mediabunny behind it: the uploader imports it when a chosen video breaks a
 * limit or cannot be decoded by `<video>`, never with the page.
 */
import {
  ALL_FORMATS,
  BlobSource,
  CanvasSink,
  Conversion,
  Input,
  Mp4OutputFormat,
  Output,
  StreamTarget,
  canEncodeVideo,
  type StreamTargetChunk,
} from 'mediabunny';
import { LIMITS } from '../api/index.js';
import { CONVERTED_DIR } from './stored-names.js';

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
const SIZE_MARGIN = 0.85;
/** The bitrate of a re-encode when the size allows it: a good 1080p walkthrough. */
const DEFAULT_BITRATE = 8_000_000;
/** How far (s) a copied trim may move its start to the next key frame. */
const COPY_TOLERANCE = 2;

const even = (n: number) => Math.max(2, 2 * Math.floor(n / 2));

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

function open(file: Blob): Input {
  return new Input({ source: new BlobSource(file), formats: ALL_FORMATS });
}

/** Reads the video track of `file`; undefined when mediabunny finds none. */
export async function probeVideo(file: Blob): Promise<VideoProbe | undefined> {
  const input = open(file);
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

export interface ConvertProgress {
  /** 0 to 1. */
  fraction: number;
  /** Frames done and in all (estimated from the frame rate, exact enough for a progress line). */
  frames: number;
  totalFrames: number;
  /** Seconds left, once it can be told. */
  secondsLeft: number | undefined;
}

async function privateDir(): Promise<FileSystemDirectoryHandle | undefined> {
  try {
    const root = await navigator.storage.getDirectory();
    return await root.getDirectoryHandle(CONVERTED_DIR, { create: true });
  } catch {
    // No origin private file system here (an opaque origin, storage refused): Blob parts instead.
    return undefined;
  }
}

/** Deletes converted videos left in the origin's private file system (an earlier conversion's, sent or abandoned). */
export async function dropConverted(keep?: string): Promise<void> {
  const dir = await privateDir();
  if (!dir) return;
  for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys())
    if (name !== keep) await dir.removeEntry(name).catch(() => undefined);
}

/**
 * A writable for StreamTarget that keeps what it is given as Blob parts (the browser moves large
 * Blobs to disk): appended parts, and the few writes below the end (box sizes patched at the end)
 * applied over them when the file is read.
 */
function blobParts(): { writable: WritableStream<StreamTargetChunk>; file: (name: string) => File } {
  const parts: Blob[] = [];
  const patches: { position: number; data: Blob }[] = [];
  let end = 0;
  const writable = new WritableStream<StreamTargetChunk>({
    write({ data, position }) {
      if (position === end) {
        parts.push(new Blob([data]));
        end += data.byteLength;
      } else if (position > end) {
        parts.push(new Blob([new Uint8Array(position - end), data]));
        end = position + data.byteLength;
      } else patches.push({ position, data: new Blob([data]) });
    },
  });
  const file = (name: string) => {
    let blob = new Blob(parts);
    for (const { position, data } of patches) {
      const after = position + data.size;
      blob = new Blob([blob.slice(0, position), data, after < blob.size ? blob.slice(after) : new Blob()]);
    }
    return new File([blob], name, { type: 'video/mp4' });
  };
  return { writable, file };
}

/**
 * Converts `file` by `plan` into an H.264 MP4 with no sound, written as it is made; resolves with
 * the converted file (a File read from disk). `signal` cancels it (rejects with an AbortError).
 */
export async function convertVideo(
  file: Blob,
  plan: FitPlan,
  o: { name: string; signal?: AbortSignal; onProgress?: (p: ConvertProgress) => void },
): Promise<File> {
  const name = `${o.name.replace(/\.[^.]*$/, '') || 'video'}.mp4`;
  const dir = await privateDir();
  await dropConverted().catch(() => undefined);
  const stored = `${Date.now().toString(36)}-${crypto.randomUUID()}.mp4`;
  const handle = dir ? await dir.getFileHandle(stored, { create: true }) : undefined;
  const parts = handle ? undefined : blobParts();
  const writable = handle
    ? ((await handle.createWritable()) as unknown as WritableStream<StreamTargetChunk>)
    : parts!.writable;
  const input = open(file);
  const output = new Output({
    // The index goes at the end (no fast start): the whole file is never held in memory to move it.
    format: new Mp4OutputFormat({ fastStart: false }),
    target: new StreamTarget(writable, { chunked: true, chunkSize: 4 * 1024 * 1024 }),
  });
  const { start, end } = plan.trim;
  const whole = start <= 0 && end >= plan.durationSeconds;
  const transcode = transcodes(plan);
  const conversion = await Conversion.init({
    input,
    output,
    video: transcode
      ? {
          codec: 'avc',
          width: plan.target.width,
          height: plan.target.height,
          fit: 'contain',
          bitrate: fitBitrate(end - start),
          // Rotation is applied to the frames: the sent video is upright whatever reads it.
          allowTransformationMetadata: false,
          forceTranscode: true,
        }
      : {},
    audio: { discard: true },
    ...(whole ? {} : { trim: { start, end } }),
    ...(transcode
      ? { copy: false as const }
      : { copy: { boundaryPolicy: 'shrink', boundaryTolerance: COPY_TOLERANCE } }),
    showWarnings: false,
  });
  const abort = () => void conversion.cancel();
  o.signal?.addEventListener('abort', abort, { once: true });
  const began = performance.now();
  const totalFrames = Math.max(1, Math.round((end - start) * plan.frameRate));
  conversion.onProgress = (fraction) => {
    const elapsed = (performance.now() - began) / 1000;
    o.onProgress?.({
      fraction,
      frames: Math.min(totalFrames, Math.round(fraction * totalFrames)),
      totalFrames,
      secondsLeft: fraction > 0.02 && elapsed > 1 ? (elapsed / fraction) * (1 - fraction) : undefined,
    });
  };
  try {
    if (!conversion.isValid) throw new Error('This browser cannot convert this video.');
    o.signal?.throwIfAborted();
    await conversion.execute();
    o.signal?.throwIfAborted();
  } catch (err) {
    if (handle) await dir!.removeEntry(stored).catch(() => undefined);
    if (o.signal?.aborted)
      throw o.signal.reason instanceof Error ? o.signal.reason : new DOMException('Cancelled', 'AbortError');
    throw err;
  } finally {
    o.signal?.removeEventListener('abort', abort);
    input.dispose();
  }
  if (!handle) return parts!.file(name);
  const onDisk = await handle.getFile();
  return new File([onDisk], name, { type: 'video/mp4', lastModified: onDisk.lastModified });
}

/**
 * `count` small frames spread over the video (for the trim range's filmstrip), as JPEG blobs;
 * fewer (or none) when frames cannot be read.
 */
export async function filmstrip(file: Blob, durationSeconds: number, count: number, height = 54): Promise<Blob[]> {
  const input = open(file);
  const out: Blob[] = [];
  try {
    const track = await input.getPrimaryVideoTrack();
    if (!track || !(await track.canDecode())) return out;
    const sink = new CanvasSink(track, { height, poolSize: 1 });
    const times = Array.from({ length: count }, (_, k) => ((k + 0.5) / count) * durationSeconds);
    for await (const frame of sink.canvasesAtTimestamps(times)) {
      if (!frame) continue;
      const c = frame.canvas;
      out.push(
        c instanceof OffscreenCanvas
          ? await c.convertToBlob({ type: 'image/jpeg', quality: 0.7 })
          : await new Promise<Blob>((resolve, reject) =>
              c.toBlob((b) => (b ? resolve(b) : reject(new Error('no frame'))), 'image/jpeg', 0.7),
            ),
      );
    }
  } catch {
    // A filmstrip is a help, not a check: the range inputs work without it.
  } finally {
    input.dispose();
  }
  return out;
}
