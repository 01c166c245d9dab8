/**
 * What the splat library is given once a file is judged (splat-formats.ts), antimatter15 .splat
 * records read as they are, and the robust bounds of splat centres the first frame is framed on.
 */
import { ViewerError } from '../shared/viewer-error.js';

export interface PreparedSplats {
  /** What the splat library is given, with an explicit format. */
  bytes: Uint8Array;
  format: 'ply' | 'splat';
  count: number;
  /** Robust bounds of the splat centres (5th to 95th percentile per axis): floaters do not shrink the view. */
  min: [number, number, number];
  max: [number, number, number];
}

/** antimatter15 .splat records (32 bytes each), with the bounds of their centres. */
export function fromSplat(bytes: Uint8Array): PreparedSplats {
  const count = bytes.byteLength / 32;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    bytes,
    format: 'splat',
    count,
    ...robustBounds(count, (i, p) => {
      p[0] = view.getFloat32(i * 32, true);
      p[1] = view.getFloat32(i * 32 + 4, true);
      p[2] = view.getFloat32(i * 32 + 8, true);
    }),
  };
}

/** 5th-95th percentile box of up to 20 000 sampled centres. */
export function robustBounds(
  count: number,
  read: (i: number, out: number[]) => void,
): { min: [number, number, number]; max: [number, number, number] } {
  const step = Math.max(1, Math.floor(count / 20_000));
  const axes: number[][] = [[], [], []];
  const p = [0, 0, 0];
  for (let i = 0; i < count; i += step) {
    read(i, p);
    if (p.every(Number.isFinite)) for (let k = 0; k < 3; k++) axes[k]!.push(p[k]!);
  }
  if (axes[0]!.length === 0)
    throw new ViewerError('corrupt_file', "The scene's splat positions are not numbers; the file is damaged.");
  const pick = (a: number[], q: number) => a[Math.min(a.length - 1, Math.floor(q * (a.length - 1)))]!;
  const lo = count < 50 ? 0 : 0.05;
  const min = axes.map((a) => (a.sort((x, y) => x - y), pick(a, lo))) as [number, number, number];
  const max = axes.map((a) => pick(a, 1 - lo)) as [number, number, number];
  return { min, max };
}
