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
  EncodedPacket,
  EncodedPacketSink,
  EncodedVideoPacketSource,
  Input,
  Mp4OutputFormat,
  Output,
  StreamTarget,
  canEncodeVideo,
  type InputVideoTrack,
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

/** The prefix of a chosen video kept while it converts (so a reload can start the conversion again). */
const CHOSEN = 'chosen-';

/** Deletes converted videos left in the origin's private file system (an earlier conversion's, sent or abandoned), but `keep` and chosen videos. */
export async function dropConverted(keep?: string): Promise<void> {
  const dir = await privateDir();
  if (!dir) return;
  for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys())
    if (name !== keep && !name.startsWith(CHOSEN)) await dir.removeEntry(name).catch(() => undefined);
}

/**
 * Copies the chosen video into the origin's private file system while it converts, streamed (a
 * few chunks in memory at a time), so a reload during the conversion can start it again without
 * asking for the file. Resolves with the copy's name once it is whole; undefined where there is no
 * such file system or the copy failed (a full disk): then a reload asks for the file again.
 */
export async function keepChosen(file: Blob, signal: AbortSignal): Promise<string | undefined> {
  const dir = await privateDir();
  if (!dir) return undefined;
  const name = `${CHOSEN}${crypto.randomUUID()}`;
  try {
    const handle = await dir.getFileHandle(name, { create: true });
    await file.stream().pipeTo(await handle.createWritable(), { signal });
    return name;
  } catch {
    await dir.removeEntry(name).catch(() => undefined);
    return undefined;
  }
}

/** The chosen video kept as `stored`, as a File named `name`; undefined when it is gone. */
export async function keptChosen(stored: string, name: string, type: string): Promise<File | undefined> {
  if (!stored.startsWith(CHOSEN)) return undefined;
  try {
    const dir = await privateDir();
    const onDisk = await (await dir?.getFileHandle(stored))?.getFile();
    return onDisk && new File([onDisk], name, { type, lastModified: onDisk.lastModified });
  } catch {
    return undefined;
  }
}

/** Deletes the kept chosen video `stored` (or every one): its conversion ended, was cancelled, or cannot start again. */
export async function dropChosen(stored?: string): Promise<void> {
  const dir = await privateDir();
  if (!dir) return;
  for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys())
    if (name.startsWith(CHOSEN) && (stored === undefined || name === stored))
      await dir.removeEntry(name).catch(() => undefined);
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

/** How many packets may wait for the decoder, and frames be in the encoder (each decoded 4K frame is 12 MB). */
const DECODE_AHEAD = 1;
const ENCODE_AHEAD = 2;
/** How many encoded packets may wait for the muxer (and the disk) before reading pauses. */
const MUX_AHEAD = 16;
/** Seconds between key frames in a re-encoded video. */
const KEY_FRAME_SECONDS = 2;

/** The H.264 codec strings tried, best first (High, Main, Constrained Baseline), at a level for the frame rate. */
function avcCodecs(width: number, height: number, frameRate: number): string[] {
  const macroblocksPerSecond = Math.ceil(width / 16) * Math.ceil(height / 16) * frameRate;
  const level = macroblocksPerSecond <= 245_760 ? '28' : macroblocksPerSecond <= 522_240 ? '2a' : '34';
  return ['6400', '4d00', '42e0'].map((profile) => `avc1.${profile}${level}`);
}

const dequeued = (coder: VideoDecoder | VideoEncoder) =>
  new Promise<void>((resolve) => coder.addEventListener('dequeue', () => resolve(), { once: true }));

/**
 * Re-encodes `track` by `plan` into `output` (not yet started): each decoded frame goes straight to
 * a VideoEncoder configured at the plan's frame size, which scales it (WebCodecs requires an
 * encoder to scale a frame of another size, here in the decoder's own YUV, with no RGBA copy on a
 * canvas), then is closed. Decoding waits while frames wait for the encoder, and reading waits
 * while packets wait for the disk, so a few 4K frames are alive at a time whatever the length.
 * Rotation metadata stays metadata: the frames are encoded as stored and the output track carries
 * the same rotation, so a portrait video stays portrait and turning 4K frames costs nothing.
 */
async function reencode(
  track: InputVideoTrack,
  plan: FitPlan,
  output: Output,
  o: { signal?: AbortSignal; onFraction: (fraction: number) => void },
): Promise<void> {
  const { start, end } = plan.trim;
  const rotation = await track.getRotation();
  const turned = rotation % 180 !== 0;
  // The encoder sees frames as stored: a turned video's target is turned back.
  const width = turned ? plan.target.height : plan.target.width;
  const height = turned ? plan.target.width : plan.target.height;
  const frameRate = Math.min(240, Math.max(1, plan.frameRate));
  const bitrate = fitBitrate(end - start);
  let config: VideoEncoderConfig | undefined;
  for (const codec of avcCodecs(width, height, frameRate)) {
    const candidate: VideoEncoderConfig = {
      codec,
      width,
      height,
      bitrate,
      framerate: frameRate,
      avc: { format: 'avc' },
    };
    if ((await VideoEncoder.isConfigSupported(candidate).catch(() => undefined))?.supported) {
      config = candidate;
      break;
    }
  }
  if (!config) throw new Error('This browser cannot encode H.264 at this size.');
  const decoderConfig = await track.getDecoderConfig();
  if (!decoderConfig) throw new Error('This browser cannot decode this video.');
  // Frames come out as stored (the rotation goes on the output track instead).
  const {
    rotation: _r,
    flip: _f,
    ...storedConfig
  } = decoderConfig as VideoDecoderConfig & {
    rotation?: number;
    flip?: boolean;
  };

  const source = new EncodedVideoPacketSource('avc');
  output.addVideoTrack(source, { rotation, frameRate });
  await output.start();

  let failure: unknown;
  let failed: () => void = () => undefined;
  const failedOnce = new Promise<void>((resolve) => (failed = resolve));
  const fail = (err: unknown) => {
    failure ??= err;
    failed();
  };
  // Frames given to the encoder and not yet out of it (each holds its 4K frame until then).
  let inEncoder = 0;
  let encodeAhead = ENCODE_AHEAD;
  let encodedOne: () => void = () => undefined;
  const encoded = () => new Promise<void>((resolve) => (encodedOne = resolve));
  let muxing: Promise<void> = Promise.resolve();
  let muxPending = 0;
  const encoder = new VideoEncoder({
    output: (chunk, meta) => {
      const packet = EncodedPacket.fromEncodedChunk(chunk);
      const shifted = packet.clone({ timestamp: Math.max(0, packet.timestamp - start) });
      muxPending++;
      inEncoder--;
      encodedOne();
      muxing = muxing
        .then(() => source.add(shifted, meta))
        .then(() => {
          muxPending--;
          o.onFraction(Math.min(1, (shifted.timestamp + shifted.duration) / Math.max(0.001, end - start)));
        })
        .catch(fail);
    },
    error: fail,
  });
  encoder.configure(config);
  let lastKey = -1;
  const decoder = new VideoDecoder({
    output: (frame) => {
      try {
        const t = frame.timestamp / 1e6;
        // A frame with no duration still counts as shown at its time.
        const until = t + Math.max(1e-6, (frame.duration ?? 0) / 1e6);
        if (until <= start || t >= end || failure !== undefined) return;
        const interval = Math.floor(Math.max(0, t - start) / KEY_FRAME_SECONDS);
        encoder.encode(frame, { keyFrame: interval !== lastKey });
        inEncoder++;
        lastKey = interval;
      } catch (err) {
        fail(err);
      } finally {
        frame.close();
      }
    },
    error: fail,
  });
  // A decoder asked for low latency gives each frame out as soon as it can instead of holding a
  // frame per decoding thread (Chromium's software decoder: slice threads, not frame threads),
  // which keeps fewer 4K frames alive (measured: about 40 MB less at the peak, a little slower).
  decoder.configure({ ...storedConfig, optimizeForLatency: true });
  const stop = () => fail(o.signal?.reason ?? new DOMException('Cancelled', 'AbortError'));
  o.signal?.addEventListener('abort', stop, { once: true });
  try {
    const sink = new EncodedPacketSink(track);
    const first = (await sink.getKeyPacket(start, { verifyKeyPackets: true })) ?? (await sink.getFirstKeyPacket());
    if (first)
      for await (const packet of sink.packets(first, undefined, { verifyKeyPackets: true })) {
        // A key frame a second past the end: every frame shown before the end has been decoded.
        if (packet.type === 'key' && packet.timestamp >= end + 1) break;
        while (failure === undefined && (decoder.decodeQueueSize >= DECODE_AHEAD || inEncoder >= encodeAhead)) {
          const waited = await Promise.race([
            dequeued(decoder),
            encoded(),
            failedOnce,
            new Promise<'idle'>((resolve) => setTimeout(resolve, 500, 'idle')),
          ]);
          // An encoder that took every frame and gives nothing back holds frames by design (a
          // look-ahead, B-frames): it is given one more at a time until it answers.
          if (waited === 'idle' && inEncoder >= encodeAhead && encoder.encodeQueueSize === 0)
            encodeAhead = Math.min(32, encodeAhead + 1);
        }
        if (muxPending > MUX_AHEAD) await Promise.race([muxing, failedOnce]);
        if (failure !== undefined) break;
        decoder.decode(packet.toEncodedVideoChunk());
      }
    if (failure === undefined) await Promise.race([decoder.flush().catch(fail), failedOnce]);
    if (failure === undefined) await Promise.race([encoder.flush().catch(fail), failedOnce]);
    if (failure === undefined) await Promise.race([muxing, failedOnce]);
    if (failure !== undefined) throw failure;
    source.close();
    await output.finalize();
  } catch (err) {
    await output.cancel().catch(() => undefined);
    throw err;
  } finally {
    o.signal?.removeEventListener('abort', stop);
    if (decoder.state !== 'closed') decoder.close();
    if (encoder.state !== 'closed') encoder.close();
  }
}

/**
 * Converts `file` by `plan` into an H.264 MP4 with no sound, written as it is made; resolves with
 * the converted file (a File read from disk). `signal` cancels it (rejects with an AbortError).
 */
export async function convertVideo(
  file: Blob,
  plan: FitPlan,
  o: {
    name: string;
    signal?: AbortSignal;
    onProgress?: (p: ConvertProgress) => void;
  },
): Promise<File> {
  const name = `${o.name.replace(/\.[^.]*$/, '') || 'video'}.mp4`;
  const dir = await privateDir();
  await dropConverted().catch(() => undefined);
  const input = open(file);
  const { start, end } = plan.trim;
  const totalFrames = Math.max(1, Math.round((end - start) * plan.frameRate));
  let attempt = plan;
  let out: Written | undefined;
  try {
    for (let tries = 1; ; tries++) {
      out = await written(dir, name);
      const began = performance.now();
      const onFraction = (fraction: number) => {
        const elapsed = (performance.now() - began) / 1000;
        o.onProgress?.({
          fraction,
          frames: Math.min(totalFrames, Math.round(fraction * totalFrames)),
          totalFrames,
          secondsLeft: fraction > 0.02 && elapsed > 1 ? (elapsed / fraction) * (1 - fraction) : undefined,
        });
      };
      o.signal?.throwIfAborted();
      if (transcodes(attempt)) {
        const track = await input.getPrimaryVideoTrack();
        if (!track || !(await track.canDecode())) throw new Error('This browser cannot convert this video.');
        await reencode(track, attempt, out.output, { signal: o.signal, onFraction });
      } else await copyTrim(input, out.output, attempt, o.signal, onFraction);
      o.signal?.throwIfAborted();
      const size = (await out.file()).size;
      // An encoder that cannot reach the bitrate (noise, grain: it will not quantise past its
      // limit) leaves a file over 500 MB: made again at a smaller frame size, twice at most.
      if (size <= LIMITS.video.maxBytes || tries === 3) break;
      const scale = Math.sqrt((LIMITS.video.maxBytes * SIZE_MARGIN) / size);
      attempt = {
        ...attempt,
        target: { width: even(attempt.target.width * scale), height: even(attempt.target.height * scale) },
        // A smaller frame of the same stream: re-encoded whatever the codec.
        codec: null,
      };
      await out.drop();
    }
  } catch (err) {
    await out?.drop();
    if (o.signal?.aborted)
      throw o.signal.reason instanceof Error ? o.signal.reason : new DOMException('Cancelled', 'AbortError');
    throw err;
  } finally {
    input.dispose();
  }
  return out.file();
}

interface Written {
  output: Output;
  /** The written video, read from disk (or from its Blob parts). */
  file(): Promise<File>;
  drop(): Promise<void>;
}

/** An MP4 output written as it is made: into a new file of the private folder `dir`, else into Blob parts. */
async function written(dir: FileSystemDirectoryHandle | undefined, name: string): Promise<Written> {
  const stored = `${Date.now().toString(36)}-${crypto.randomUUID()}.mp4`;
  const handle = dir ? await dir.getFileHandle(stored, { create: true }) : undefined;
  const parts = handle ? undefined : blobParts();
  const writable = handle
    ? ((await handle.createWritable()) as unknown as WritableStream<StreamTargetChunk>)
    : parts!.writable;
  const output = new Output({
    // The index goes at the end (no fast start): the whole file is never held in memory to move it.
    format: new Mp4OutputFormat({ fastStart: false }),
    target: new StreamTarget(writable, { chunked: true, chunkSize: 4 * 1024 * 1024 }),
  });
  return {
    output,
    file: async () => {
      if (!handle) return parts!.file(name);
      const onDisk = await handle.getFile();
      return new File([onDisk], name, { type: 'video/mp4', lastModified: onDisk.lastModified });
    },
    drop: async () => {
      if (handle) await dir!.removeEntry(stored).catch(() => undefined);
    },
  };
}

/** A trim of an H.264 video that fits once trimmed: its packets copied as they are (fast and lossless). */
async function copyTrim(
  input: Input,
  output: Output,
  plan: FitPlan,
  signal: AbortSignal | undefined,
  onFraction: (fraction: number) => void,
): Promise<void> {
  const { start, end } = plan.trim;
  const whole = start <= 0 && end >= plan.durationSeconds;
  const conversion = await Conversion.init({
    input,
    output,
    video: {},
    audio: { discard: true },
    ...(whole ? {} : { trim: { start, end } }),
    copy: { boundaryPolicy: 'shrink', boundaryTolerance: COPY_TOLERANCE },
    showWarnings: false,
  });
  const abort = () => void conversion.cancel();
  signal?.addEventListener('abort', abort, { once: true });
  conversion.onProgress = onFraction;
  try {
    if (!conversion.isValid) throw new Error('This browser cannot convert this video.');
    await conversion.execute();
  } finally {
    signal?.removeEventListener('abort', abort);
  }
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
