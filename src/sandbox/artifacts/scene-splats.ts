/**
 * The video-to-3D scene from its frames' pixels, in plain ECMAScript (shared by Node's ffmpeg
 * frames and the browser's WebCodecs frames): a Gaussian-splat "room" whose walls are the frames,
 * placed as panels around the viewer, with a floor tinted by the footage. Without pixels (the
 * video could not be decoded) the colours come from the video's digest, so the scene is still
 * made from the input. The PLY is y-down like INRIA/COLMAP scenes.
 */
import { zipSync } from 'fflate';
import { encodePly, type Splat } from './ply.js';
import type { SceneArtifact, SceneInput, SceneOptions } from '../platform.js';
import { mulberry32, seedFromDigest } from '../rng.js';

/** The walls' layout: `frames` panels of `cols` x `rows` splats, one pixel of a frame each. */
export interface SceneGrid {
  frames: number;
  cols: number;
  rows: number;
}

/** The layout for a video of this size, with the sandbox's defaults (6 frames, 40 columns). */
export function sceneGrid(input: Pick<SceneInput, 'width' | 'height'>, options: SceneOptions = {}): SceneGrid {
  const frames = options.frames ?? 6;
  const cols = options.columns ?? 40;
  const rows = Math.max(4, Math.round((cols * Math.min(input.height, input.width * 2)) / input.width));
  return { frames, cols, rows };
}

/**
 * The pixels of the frames that were decoded (RGB, `cols` x `rows` each, one after another) as
 * exactly `grid.frames` frames: short clips give fewer frames than asked, so they repeat. Throws
 * when nothing was decoded.
 */
export function fillFrames(raw: Uint8Array, grid: SceneGrid): Uint8Array {
  const need = grid.frames * grid.cols * grid.rows * 3;
  if (raw.byteLength === 0) throw new Error('no frames decoded');
  if (raw.byteLength >= need) return raw.subarray(0, need);
  const out = new Uint8Array(need);
  for (let o = 0; o < need; o += raw.byteLength) out.set(raw.subarray(0, Math.min(raw.byteLength, need - o)), o);
  return out;
}

/**
 * The scene (PLY, zip, splat count) from the frames' pixels (`fillFrames`' layout), or from the
 * video's digest where `pixels` is undefined.
 */
export function sceneFromPixels(grid: SceneGrid, sha256: Uint8Array, pixels: Uint8Array | undefined): SceneArtifact {
  const { frames, cols, rows } = grid;
  const random = mulberry32(seedFromDigest(sha256));
  const colorAt = (f: number, x: number, y: number): [number, number, number] => {
    if (pixels) {
      const i = ((f * rows + y) * cols + x) * 3;
      return [pixels[i]! / 255, pixels[i + 1]! / 255, pixels[i + 2]! / 255];
    }
    const base = sha256[f % sha256.length]! / 255;
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
