// Large standard 3DGS PLYs for the scenes benchmark (scenes.ts), shaped like a real capture and
// streamed to disk in chunks (a 2M-splat file is 496 MB; it is never held in memory). The layout
// is the one the INRIA trainer writes ("INRIA v1"): binary_little_endian, one vertex element of
// 62 floats (x y z, nx ny nz = 0, f_dc_0..2, f_rest_0..44 for SH degree 3, opacity as a logit,
// scale_0..2 as logs, rot_0..3 as a quaternion w x y z), 248 bytes a splat.
// The scene is a room: splats on its floor, walls and ceiling (flat, larger), a denser object in
// the middle (smaller), and floaters around it (large, faint). Deterministic: a seeded PRNG.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Floats a splat: position, normal, 3 DC + 45 SH coefficients, opacity, 3 scales, 4 rotation. */
const FLOATS = 62;
export const BYTES_PER_SPLAT = FLOATS * 4;
const CHUNK = 16_384;
const SH_C0 = 0.28209479177387814;
/** The room's half sizes; +y is down (COLMAP/OpenCV cameras), so the floor is at y = +HALF_Y. */
const HALF_X = 4;
const HALF_Y = 1.5;
const HALF_Z = 3;
/** Where a plain three.js page puts its camera to see the whole room (the element frames itself). */
export const SCENE_VIEW = {
  position: [0, -2.5, 11] as [number, number, number],
  target: [0, 0.3, 0] as [number, number, number],
};
/** Opacity logits are kept above this: sigmoid(-5) * 255 = 1.7, so no splat falls under the library's alpha cut (1/255). */
const MIN_LOGIT = -5;

export function plyHeader(count: number): string {
  const names = [
    'x',
    'y',
    'z',
    'nx',
    'ny',
    'nz',
    'f_dc_0',
    'f_dc_1',
    'f_dc_2',
    ...Array.from({ length: 45 }, (_, i) => `f_rest_${i}`),
    'opacity',
    'scale_0',
    'scale_1',
    'scale_2',
    'rot_0',
    'rot_1',
    'rot_2',
    'rot_3',
  ];
  return [
    'ply',
    'format binary_little_endian 1.0',
    `element vertex ${count}`,
    ...names.map((n) => `property float ${n}`),
    'end_header',
    '',
  ].join('\n');
}

export function plySize(count: number): number {
  return Buffer.byteLength(plyHeader(count)) + count * BYTES_PER_SPLAT;
}

/** mulberry32: small, fast and deterministic. */
function prng(seed: number): { u: () => number; n: () => number } {
  let a = seed >>> 0;
  const u = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let spare: number | undefined;
  // Box-Muller, both halves used.
  const n = () => {
    if (spare !== undefined) {
      const s = spare;
      spare = undefined;
      return s;
    }
    const r = Math.sqrt(-2 * Math.log(1 - u()));
    const th = 2 * Math.PI * u();
    spare = r * Math.sin(th);
    return r * Math.cos(th);
  };
  return { u, n };
}

/** Fills `out` (count * 62 floats) with the next `count` splats. */
function fill(out: Float32Array, count: number, { u, n }: ReturnType<typeof prng>): void {
  const clampLogit = (v: number) => Math.max(MIN_LOGIT, Math.min(8, v));
  for (let i = 0; i < count; i++) {
    const o = i * FLOATS;
    const kind = u();
    let x: number, y: number, z: number, r: number, g: number, b: number, logit: number;
    let s0: number, s1: number, s2: number;
    if (kind < 0.55) {
      // Room surfaces: floor (most), walls, ceiling; flat splats a few cm across.
      const face = u();
      const a = u() * 2 - 1;
      const c = u() * 2 - 1;
      const jitter = n() * 0.02;
      if (face < 0.35) [x, y, z] = [a * HALF_X, HALF_Y + jitter, c * HALF_Z];
      else if (face < 0.5) [x, y, z] = [a * HALF_X, -HALF_Y + jitter, c * HALF_Z];
      else if (face < 0.7) [x, y, z] = [a * HALF_X, c * HALF_Y, (face < 0.6 ? -HALF_Z : HALF_Z) + jitter];
      else [x, y, z] = [(face < 0.85 ? -HALF_X : HALF_X) + jitter, c * HALF_Y, a * HALF_Z];
      const shade = 0.55 + 0.1 * Math.sin(x * 3) * Math.cos(z * 2) + n() * 0.05;
      [r, g, b] = y > HALF_Y - 0.1 ? [shade * 0.8, shade * 0.65, shade * 0.5] : [shade, shade * 0.97, shade * 0.9];
      logit = u() < 0.35 ? n() - 3.5 : n() * 1.5 + 2.5;
      const t = Math.log(0.03) + n() * 0.5;
      [s0, s1, s2] = [t + n() * 0.3, t + n() * 0.3, Math.log(0.004) + n() * 0.4];
    } else if (kind < 0.9) {
      // The object: a dense blob on the floor in the middle, shaded by height.
      const d = Math.abs(n()) * 0.25 + 0.45;
      const th = 2 * Math.PI * u();
      const ph = Math.acos(2 * u() - 1);
      x = d * Math.sin(ph) * Math.cos(th);
      y = HALF_Y - 0.8 + d * Math.cos(ph) * 1.3;
      z = d * Math.sin(ph) * Math.sin(th);
      const h = (HALF_Y - y) / 1.6;
      [r, g, b] = [0.7 + 0.2 * h + n() * 0.04, 0.25 + 0.3 * h + n() * 0.04, 0.2 + n() * 0.04];
      logit = u() < 0.3 ? n() - 3 : n() * 1.2 + 3;
      const t = Math.log(0.008) + n() * 0.5;
      [s0, s1, s2] = [t + n() * 0.4, t + n() * 0.4, t + n() * 0.4];
    } else {
      // Floaters: anywhere around the room, big and faint.
      [x, y, z] = [(u() * 2 - 1) * HALF_X * 1.6, (u() * 2 - 1) * HALF_Y * 1.8, (u() * 2 - 1) * HALF_Z * 1.6];
      [r, g, b] = [0.5 + n() * 0.15, 0.5 + n() * 0.15, 0.5 + n() * 0.15];
      logit = n() - 3.8;
      const t = Math.log(0.1) + n() * 0.7;
      [s0, s1, s2] = [t + n() * 0.5, t + n() * 0.5, t + n() * 0.5];
    }
    out[o] = x;
    out[o + 1] = y;
    out[o + 2] = z;
    out[o + 3] = 0;
    out[o + 4] = 0;
    out[o + 5] = 0;
    out[o + 6] = (r - 0.5) / SH_C0;
    out[o + 7] = (g - 0.5) / SH_C0;
    out[o + 8] = (b - 0.5) / SH_C0;
    // View-dependent colour: small, smaller for the higher bands (3, 5 and 7 coefficients a channel).
    for (let k = 0; k < 45; k++) {
      const band = k % 15;
      out[o + 9 + k] = n() * (band < 3 ? 0.06 : band < 8 ? 0.03 : 0.015);
    }
    out[o + 54] = clampLogit(logit);
    out[o + 55] = s0;
    out[o + 56] = s1;
    out[o + 57] = s2;
    let [qw, qx, qy, qz] = [n(), n(), n(), n()];
    const len = Math.hypot(qw, qx, qy, qz) || 1;
    [qw, qx, qy, qz] = [qw / len, qx / len, qy / len, qz / len];
    out[o + 58] = qw;
    out[o + 59] = qx;
    out[o + 60] = qy;
    out[o + 61] = qz;
  }
}

export const SCENES_DIR = join(tmpdir(), 'mediakit-bench-scenes');

/**
 * The path of a `count`-splat room scene, written now unless a file of the right size is already
 * there. Written to a temporary name and renamed, so an interrupted run leaves no short file.
 */
export async function scenePly(count: number, name: string): Promise<{ path: string; bytes: number; made: boolean }> {
  mkdirSync(SCENES_DIR, { recursive: true });
  const path = join(SCENES_DIR, `${name}.ply`);
  const bytes = plySize(count);
  if (existsSync(path) && statSync(path).size === bytes) return { path, bytes, made: false };
  const part = `${path}.${process.pid}.part`;
  const file = await open(part, 'w');
  try {
    await file.write(Buffer.from(plyHeader(count)));
    const random = prng(0x5eed + count);
    const chunk = new Float32Array(CHUNK * FLOATS);
    // Float32Array is the platform's byte order; the PLY says little-endian.
    if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1)
      throw new Error('a big-endian host cannot write this PLY');
    for (let done = 0; done < count; done += CHUNK) {
      const k = Math.min(CHUNK, count - done);
      fill(chunk, k, random);
      await file.write(new Uint8Array(chunk.buffer, 0, k * BYTES_PER_SPLAT));
    }
  } catch (err) {
    await file.close();
    await rm(part, { force: true });
    throw err;
  }
  await file.close();
  await rename(part, path);
  return { path, bytes, made: true };
}
