/**
 * Advisory checks on a few frames of a walkthrough video, never blocking: too dark or blown out,
 * blurry (variance of the Laplacian on a downscaled frame), a hard cut between samples. Frames are
 * decoded by the browser's media pipeline (off the main thread); the maths runs on 96-pixel-wide
 * frames (about 5 000 pixels, well under a millisecond each), so a worker would cost more than it
 * saves and would need `worker-src` in a strict CSP.
 */
export type Advice = 'dark' | 'bright' | 'blurry' | 'cut';

export interface FrameReport {
  /** A frame near the start, as a JPEG, for the thumbnail. */
  thumbnail: Blob | undefined;
  advice: Advice[];
}

const W = 96;
/** How long a seek after the first frame may take before the frames read so far are judged. */
export const SLOW_SEEK_MS = 8000;

function once<K extends keyof HTMLMediaElementEventMap>(
  el: HTMLMediaElement,
  type: K,
  signal: AbortSignal,
  ms = 4000,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      el.removeEventListener(type, done);
      el.removeEventListener('error', fail);
      resolve();
    };
    const fail = () => {
      clearTimeout(timer);
      reject(new Error('the video could not be decoded here'));
    };
    const timer = setTimeout(fail, ms);
    el.addEventListener(type, done, { once: true });
    el.addEventListener('error', fail, { once: true });
    signal.addEventListener('abort', fail, { once: true });
  });
}

interface FrameStats {
  mean: number;
  dark: number;
  bright: number;
  sharpness: number;
  histogram: number[];
}

/** Luminance statistics of one small frame. */
export function frameStats(data: Uint8ClampedArray, width: number, height: number): FrameStats {
  const lum = new Float32Array(width * height);
  const histogram = new Array<number>(16).fill(0);
  let sum = 0;
  let dark = 0;
  let bright = 0;
  for (let i = 0; i < lum.length; i++) {
    const y = 0.2126 * data[i * 4]! + 0.7152 * data[i * 4 + 1]! + 0.0722 * data[i * 4 + 2]!;
    lum[i] = y;
    sum += y;
    if (y < 25) dark++;
    if (y > 248) bright++;
    histogram[Math.min(15, y >> 4)]!++;
  }
  // Variance of the 4-neighbour Laplacian: low when edges are soft.
  let n = 0;
  let m = 0;
  let m2 = 0;
  for (let yy = 1; yy < height - 1; yy++) {
    for (let x = 1; x < width - 1; x++) {
      const i = yy * width + x;
      const l = lum[i - 1]! + lum[i + 1]! + lum[i - width]! + lum[i + width]! - 4 * lum[i]!;
      n++;
      const d = l - m;
      m += d / n;
      m2 += d * (l - m);
    }
  }
  const total = lum.length || 1;
  return {
    mean: sum / total,
    dark: dark / total,
    bright: bright / total,
    sharpness: n ? m2 / n : 0,
    histogram: histogram.map((h) => h / total),
  };
}

/** Judges samples: what a user should hear about before spending. */
export function judge(samples: FrameStats[]): Advice[] {
  const advice: Advice[] = [];
  if (!samples.length) return advice;
  if (samples.filter((s) => s.mean < 45 || s.dark > 0.5).length >= Math.ceil(samples.length / 2)) advice.push('dark');
  if (samples.some((s) => s.bright > 0.25)) advice.push('bright');
  if (samples.filter((s) => s.sharpness < 30).length >= Math.ceil(samples.length / 2)) advice.push('blurry');
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1]!.histogram;
    const b = samples[i]!.histogram;
    // Half of all pixels changed brightness class between neighbouring samples: a different shot.
    const distance = a.reduce((d, v, k) => d + Math.abs(v - b[k]!), 0) / 2;
    if (distance > 0.5) {
      advice.push('cut');
      break;
    }
  }
  return advice;
}

/**
 * Draws the video's current frame and returns its pixels. Chromium can fire `seeked` before a
 * busy decoder has the frame, and then draws pure black (every pixel 0, 0, 0): such a frame is
 * drawn again after a moment, a few times, so a slow machine is not told its video is dark. A
 * frame that stays pure black is what the video shows.
 */
async function drawFrame(
  video: HTMLVideoElement,
  ctx: OffscreenCanvasRenderingContext2D,
  w: number,
  h: number,
  signal: AbortSignal,
): Promise<Uint8ClampedArray> {
  for (let tries = 0; ; tries++) {
    ctx.drawImage(video, 0, 0, w, h);
    const pixels = ctx.getImageData(0, 0, w, h).data;
    let black = true;
    for (let i = 0; i < pixels.length && black; i += 4) black = pixels[i]! + pixels[i + 1]! + pixels[i + 2]! === 0;
    if (!black || tries === 4) return pixels;
    await new Promise((r) => setTimeout(r, 50 * (tries + 1)));
    signal.throwIfAborted();
  }
}

/** Decodes a few frames of `file` and reports a thumbnail and advice; never throws. */
export async function inspectFrames(
  file: Blob,
  durationSeconds: number,
  signal: AbortSignal,
  samples = 5,
  slowSeekMs = SLOW_SEEK_MS,
): Promise<FrameReport> {
  const url = URL.createObjectURL(file);
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.preload = 'auto';
  video.src = url;
  const report: FrameReport = { thumbnail: undefined, advice: [] };
  try {
    await once(video, 'loadeddata', signal);
    const h = Math.max(1, Math.round((W * video.videoHeight) / Math.max(1, video.videoWidth)));
    const small = new OffscreenCanvas(W, h);
    const ctx = small.getContext('2d', { willReadFrequently: true })!;
    const stats: FrameStats[] = [];
    for (let k = 0; k < samples; k++) {
      const t = Math.min(durationSeconds - 0.05, ((k + 0.5) / samples) * durationSeconds);
      if (Math.abs(video.currentTime - t) > 0.01) {
        video.currentTime = Math.max(0, t);
        // Once a frame was read the video decodes here: a seek that takes long is a busy device
        // (a phone, a loaded machine), and the frames read so far are judged rather than none.
        const seeked = await once(video, 'seeked', signal, k === 0 ? undefined : slowSeekMs).then(
          () => true,
          (err: unknown) => {
            if (k === 0 || signal.aborted) throw err;
            return false;
          },
        );
        if (!seeked) break;
      }
      const pixels = await drawFrame(video, ctx, W, h, signal);
      if (k === 0) {
        const big = new OffscreenCanvas(320, Math.round((320 * video.videoHeight) / Math.max(1, video.videoWidth)));
        big.getContext('2d')!.drawImage(video, 0, 0, big.width, big.height);
        report.thumbnail = await big.convertToBlob({ type: 'image/jpeg', quality: 0.8 });
      }
      stats.push(frameStats(pixels, W, h));
    }
    report.advice = judge(stats);
  } catch {
    // A video the browser cannot decode is still sent (the service decodes more than browsers do).
  } finally {
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
  }
  return report;
}
