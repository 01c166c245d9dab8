/**
 * The turntable's software rasterizer (orthographic camera, z-buffer, textured, lambert-shaded):
 * plain ECMAScript, shared by Node's turntable (encoded by ffmpeg) and the browser's (WebCodecs).
 */
import type { ReliefFace, TurntableOptions } from '../platform.js';

/** The turntable's frame size, frame count and rate, with the sandbox's defaults filled in. */
export function turntableSettings(options: TurntableOptions = {}): Required<TurntableOptions> {
  return { size: options.size ?? 256, frames: options.frames ?? 36, fps: options.fps ?? 12 };
}

/** The angle (radians) of frame `index` of `frames`: one full turn over the clip. */
export function turntableAngle(index: number, frames: number): number {
  return (index / frames) * Math.PI * 2;
}

/** One frame of the relief seen at `angle`: `size` x `size` RGB pixels, row by row. */
export function renderFrame(faces: readonly ReliefFace[], angle: number, size: number): Uint8Array {
  const rgb = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    const shade = 235 - (y / size) * 60;
    for (let x = 0; x < size; x++) rgb.set([shade, shade, shade + 4], (y * size + x) * 3);
  }
  const depth = new Float32Array(size * size).fill(-Infinity);
  const cos = Math.cos(angle),
    sin = Math.sin(angle);
  const scale = size * 0.75;
  const light = normalize([0.4, 0.6, 0.7]);
  for (const face of faces) {
    const { positions: p, uvs, indices, texture } = face;
    const count = p.length / 3;
    const sx = new Float32Array(count),
      sy = new Float32Array(count),
      sz = new Float32Array(count);
    const wx = new Float32Array(count),
      wz = new Float32Array(count);
    for (let v = 0; v < count; v++) {
      const x = p[v * 3]!,
        y = p[v * 3 + 1]!,
        z = p[v * 3 + 2]!;
      wx[v] = x * cos + z * sin;
      wz[v] = -x * sin + z * cos;
      sx[v] = size / 2 + wx[v]! * scale;
      sy[v] = size / 2 - y * scale;
      sz[v] = wz[v]!;
    }
    for (let t = 0; t < indices.length; t += 3) {
      const a = indices[t]!,
        b = indices[t + 1]!,
        c = indices[t + 2]!;
      const e1 = [wx[b]! - wx[a]!, p[b * 3 + 1]! - p[a * 3 + 1]!, wz[b]! - wz[a]!];
      const e2 = [wx[c]! - wx[a]!, p[c * 3 + 1]! - p[a * 3 + 1]!, wz[c]! - wz[a]!];
      const n = normalize([
        e1[1]! * e2[2]! - e1[2]! * e2[1]!,
        e1[2]! * e2[0]! - e1[0]! * e2[2]!,
        e1[0]! * e2[1]! - e1[1]! * e2[0]!,
      ]);
      const lambert = 0.35 + 0.65 * Math.abs(n[0]! * light[0]! + n[1]! * light[1]! + n[2]! * light[2]!);
      const minX = Math.max(0, Math.floor(Math.min(sx[a]!, sx[b]!, sx[c]!)));
      const maxX = Math.min(size - 1, Math.ceil(Math.max(sx[a]!, sx[b]!, sx[c]!)));
      const minY = Math.max(0, Math.floor(Math.min(sy[a]!, sy[b]!, sy[c]!)));
      const maxY = Math.min(size - 1, Math.ceil(Math.max(sy[a]!, sy[b]!, sy[c]!)));
      const area = (sx[b]! - sx[a]!) * (sy[c]! - sy[a]!) - (sx[c]! - sx[a]!) * (sy[b]! - sy[a]!);
      if (Math.abs(area) < 1e-9) continue;
      for (let y = minY; y <= maxY; y++) {
        for (let x = minX; x <= maxX; x++) {
          const px = x + 0.5,
            py = y + 0.5;
          const w0 = ((sx[b]! - px) * (sy[c]! - py) - (sx[c]! - px) * (sy[b]! - py)) / area;
          const w1 = ((sx[c]! - px) * (sy[a]! - py) - (sx[a]! - px) * (sy[c]! - py)) / area;
          const w2 = 1 - w0 - w1;
          if (w0 < 0 || w1 < 0 || w2 < 0) continue;
          const z = w0 * sz[a]! + w1 * sz[b]! + w2 * sz[c]!;
          const di = y * size + x;
          if (z <= depth[di]!) continue;
          const u = w0 * uvs[a * 2]! + w1 * uvs[b * 2]! + w2 * uvs[c * 2]!;
          const v = w0 * uvs[a * 2 + 1]! + w1 * uvs[b * 2 + 1]! + w2 * uvs[c * 2 + 1]!;
          const tx = Math.min(texture.width - 1, Math.max(0, Math.floor(u * texture.width)));
          const ty = Math.min(texture.height - 1, Math.max(0, Math.floor(v * texture.height)));
          const ti = (ty * texture.width + tx) * 4;
          if (texture.data[ti + 3]! < 128) continue;
          depth[di] = z;
          const o = di * 3;
          rgb[o] = Math.min(255, texture.data[ti]! * lambert);
          rgb[o + 1] = Math.min(255, texture.data[ti + 1]! * lambert);
          rgb[o + 2] = Math.min(255, texture.data[ti + 2]! * lambert);
        }
      }
    }
  }
  return rgb;
}

function normalize(v: number[]): number[] {
  const l = Math.hypot(v[0]!, v[1]!, v[2]!) || 1;
  return [v[0]! / l, v[1]! / l, v[2]! / l];
}
