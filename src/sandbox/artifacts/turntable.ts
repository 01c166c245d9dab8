/**
 * The turntable MP4: the relief rendered by the software rasterizer in ./raster.ts (shared with
 * the browser's turntable) at evenly spaced angles, encoded to H.264 by ffmpeg.
 * No GPU and no browser on the server side; the bytes are a real, playable MP4.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpeg } from './ffmpeg.js';
import type { ReliefFace, TurntableOptions } from '../platform.js';
import { renderFrame, turntableAngle, turntableSettings } from './raster.js';

export { renderFrame };

export async function encodeTurntable(
  faces: readonly ReliefFace[],
  options: TurntableOptions = {},
): Promise<Uint8Array> {
  const { size, frames, fps } = turntableSettings(options);
  const raw = new Uint8Array(size * size * 3 * frames);
  for (let f = 0; f < frames; f++) raw.set(renderFrame(faces, turntableAngle(f, frames), size), f * size * size * 3);
  // MP4 with the index up front (faststart) needs a seekable output: a temp file, not a pipe.
  const dir = await mkdtemp(join(tmpdir(), 'mediakit-turntable-'));
  try {
    const out = join(dir, 'turntable.mp4');
    await ffmpeg(
      [
        '-v',
        'error',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-s',
        `${size}x${size}`,
        '-r',
        String(fps),
        '-i',
        'pipe:0',
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-pix_fmt',
        'yuv420p',
        '-movflags',
        '+faststart',
        '-y',
        out,
      ],
      raw,
    );
    return new Uint8Array(await readFile(out));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
