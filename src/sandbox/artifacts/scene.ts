/**
 * The video-to-3D artifact: a Gaussian-splat "room" whose walls are frames of the uploaded video.
 * Frames are decoded with ffmpeg and placed as panels around the viewer, with a floor tinted by the
 * footage. When no ffmpeg is at hand the colours come from the video's digest instead, so the scene
 * is still made from the input. The PLY is y-down like INRIA/COLMAP scenes.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { ffmpeg } from './ffmpeg.js';
import { encodePly, type Splat } from './ply.js';
import { mulberry32, seedFromDigest } from '../rng.js';

export interface SceneOptions {
  /** Frames taken from the video (wall panels). Default 6. */
  frames?: number;
  /** Splats per panel row; columns follow the aspect ratio. Default 40. */
  columns?: number;
}

export interface SceneInput {
  /** The video, in memory or (a spooled upload) in a file. */
  bytes?: Uint8Array;
  path?: string;
  durationSeconds: number;
  width: number;
  height: number;
  sha256: Uint8Array;
}

export interface SceneArtifact {
  ply: Uint8Array;
  zip: Uint8Array;
  splats: number;
  /** Where the colours came from. */
  source: 'frames' | 'digest';
}

export async function buildScene(input: SceneInput, options: SceneOptions = {}): Promise<SceneArtifact> {
  const frames = options.frames ?? 6;
  const cols = options.columns ?? 40;
  const rows = Math.max(4, Math.round((cols * Math.min(input.height, input.width * 2)) / input.width));
  let pixels: Uint8Array | undefined;
  try {
    pixels = await extractFrames(input, frames, cols, rows);
  } catch {
    pixels = undefined;
  }
  const random = mulberry32(seedFromDigest(input.sha256));
  const colorAt = (f: number, x: number, y: number): [number, number, number] => {
    if (pixels) {
      const i = ((f * rows + y) * cols + x) * 3;
      return [pixels[i]! / 255, pixels[i + 1]! / 255, pixels[i + 2]! / 255];
    }
    const base = input.sha256[f % input.sha256.length]! / 255;
    return [base * 0.8 + random() * 0.2, (1 - base) * 0.8 + random() * 0.2, ((f * 37) % 255) / 255];
  };
  const splats: Splat[] = [];
  const radius = 3;
  const panelWidth = (2 * Math.PI * radius) / frames;
  const spacing = panelWidth / cols;
  const panelHeight = spacing * rows;
  const floorColor = [0, 0, 0];
  for (let f = 0; f < frames; f++) {
    const angle = (f / frames) * Math.PI * 2;
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < cols; x++) {
        const a = angle + ((x + 0.5) / cols - 0.5) * ((2 * Math.PI) / frames);
        const up = panelHeight * (0.5 - (y + 0.5) / rows) + panelHeight * 0.3;
        const c = colorAt(f, x, y);
        if (y === rows - 1) for (let k = 0; k < 3; k++) floorColor[k]! += c[k]! / (frames * cols);
        // Panels face the centre: the flat axis (scale_2) points along the radius.
        const half = a / 2;
        splats.push({
          position: [Math.sin(a) * radius, -up, -Math.cos(a) * radius],
          color: c,
          opacity: 0.95,
          scale: [spacing * 0.6, spacing * 0.6, spacing * 0.08],
          rotation: [Math.cos(half), 0, Math.sin(half), 0],
        });
      }
    }
  }
  // Floor: a disc of splats, so the scene reads as a room from any angle.
  const floorY = panelHeight * 0.3 - panelHeight / 2;
  const floorCount = cols * 8;
  for (let i = 0; i < floorCount; i++) {
    const r = Math.sqrt(random()) * radius * 0.95;
    const t = random() * Math.PI * 2;
    const shade = 0.85 + random() * 0.15;
    splats.push({
      position: [Math.cos(t) * r, -floorY + 0.01, Math.sin(t) * r],
      color: [floorColor[0]! * shade, floorColor[1]! * shade, floorColor[2]! * shade],
      opacity: 0.9,
      scale: [spacing * 2.5, spacing * 0.05, spacing * 2.5],
      rotation: [1, 0, 0, 0],
    });
  }
  // Spherical harmonics of degree 3 (zero here), as the reference trainer writes them: 248 bytes a splat.
  const ply = encodePly(splats, 3);
  const zip = zipSync({ 'scene.ply': [ply, { level: 6 }] });
  return { ply, zip, splats: splats.length, source: pixels ? 'frames' : 'digest' };
}

async function extractFrames(input: SceneInput, frames: number, cols: number, rows: number): Promise<Uint8Array> {
  // mp4 files with moov at the end cannot be read from a pipe, so the video goes to a temp file.
  const dir = await mkdtemp(join(tmpdir(), 'mediakit-sandbox-'));
  try {
    let file = input.path;
    if (file === undefined) {
      file = join(dir, 'input.mp4');
      await writeFile(file, input.bytes ?? new Uint8Array(0));
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
    const need = frames * cols * rows * 3;
    if (raw.byteLength === 0) throw new Error('no frames decoded');
    if (raw.byteLength >= need) return raw.subarray(0, need);
    // Short clips give fewer frames than asked: repeat the last ones.
    const out = new Uint8Array(need);
    for (let o = 0; o < need; o += raw.byteLength) out.set(raw.subarray(0, Math.min(raw.byteLength, need - o)), o);
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
