/**
 * The conversion of a chosen video by its plan: a copied trim or a re-encode, written as it is made,
 * made again at a smaller frame size when the encoder could not keep it under 500 MB.
 */
import { Conversion, type Input, type Output } from 'mediabunny';
import { LIMITS } from '../api/index.js';
import { dropConverted, privateDir } from './fit-video-files.js';
import { written, type Written } from './fit-video-output.js';
import { reencode } from './fit-video-reencode.js';
import { SIZE_MARGIN, even, openVideo, transcodes, type FitPlan } from './fit-video.js';

/** How far (s) a copied trim may move its start to the next key frame. */
const COPY_TOLERANCE = 2;

export interface ConvertProgress {
  /** 0 to 1. */
  fraction: number;
  /** Frames done and in all (estimated from the frame rate, exact enough for a progress line). */
  frames: number;
  totalFrames: number;
  /** Seconds left, once it can be told. */
  secondsLeft: number | undefined;
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
  const input = openVideo(file);
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
