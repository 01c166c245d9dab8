/**
 * Choosing splats while a PLY streams in, over the splat budget (splat-stream.ts): each splat's
 * importance (opacity × area), the threshold τ that makes the budget last to the end of the file,
 * and a per-splat coin that is the same on every load.
 */

/** A 32-bit hash of `i` as a number in [0, 1): splat i's coin, the same on every load. */
export function coin(i: number): number {
  let h = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** τ such that Σ min(1, w / τ) over `weights` is `rate` × their count (bisection). */
export function threshold(weights: Float64Array, n: number, rate: number): number {
  if (rate >= 1 || n === 0) return 0;
  if (rate <= 0) return Infinity;
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < n; i++) hi = Math.max(hi, weights[i]!);
  if (!(hi > 0)) return 0;
  hi /= rate; // at τ = max / rate every splat is kept with probability ≤ rate
  const want = rate * n;
  for (let k = 0; k < 40; k++) {
    const mid = (lo + hi) / 2;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += Math.min(1, weights[i]! / mid);
    if (sum > want) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** A splat's importance: its opacity times its area (the square of its mean radius), from its log scales. */
export function importance(opacity: number, ls0: number, ls1: number, ls2: number): number {
  return opacity * Math.exp(((ls0 + ls1 + ls2) * 2) / 3);
}
