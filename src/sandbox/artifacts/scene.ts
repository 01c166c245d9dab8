/**
 * The video-to-3D artifact in Node: frames of the uploaded video decoded with ffmpeg, then made
 * into a Gaussian-splat room by ./scene-splats.ts (shared with the browser). When no ffmpeg is at
 * hand, or it cannot decode the video, the colours come from the video's digest instead.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpeg } from './ffmpeg.js';
import type { SceneArtifact, SceneInput, SceneOptions } from '../platform.js';
import { fillFrames, sceneFromPixels, sceneGrid, type SceneGrid } from './scene-splats.js';

export async function buildScene(input: SceneInput, options: SceneOptions = {}): Promise<SceneArtifact> {
  const grid = sceneGrid(input, options);
  let pixels: Uint8Array | undefined;
  try {
    pixels = await extractFrames(input, grid);
  } catch {
    pixels = undefined;
  }
  return sceneFromPixels(grid, input.sha256, pixels);
}

async function extractFrames(input: SceneInput, grid: SceneGrid): Promise<Uint8Array> {
  const { frames, cols, rows } = grid;
  // mp4 files with moov at the end cannot be read from a pipe, so the video goes to a temp file.
  const dir = await mkdtemp(join(tmpdir(), 'mediakit-sandbox-'));
  try {
    // A spooled upload is a file already (Node's uploads carry their path).
    let file = input.video instanceof Uint8Array ? undefined : (input.video as { path?: string }).path;
    if (file === undefined) {
      file = join(dir, 'input.mp4');
      await writeFile(file, input.video instanceof Uint8Array ? input.video : await input.video.bytes());
    }
    const fps = Math.max(0.01, frames / Math.max(input.durationSeconds, 0.1));
    const raw = await ffmpeg([
      '-v',
      'error',
      '-i',
      file,
      '-vf',
      `fps=${fps.toFixed(4)},scale=${cols}:${rows}`,
      '-frames:v',
      String(frames),
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ]);
    return fillFrames(raw, grid);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
