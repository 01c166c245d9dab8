/**
 * The platform-free half of background removal (./background.ts for Node, ../browser/images.ts for
 * the browser), an honest simple algorithm:
 * 1. work on a copy at most WORK_SIZE px on its long side (each platform scales it);
 * 2. model the background as up to four colour clusters of the border pixels (k-means);
 * 3. flood-fill from the border through pixels close to a background cluster (distance threshold
 *    adapted to how noisy the border is); everything not reached is the subject;
 * 4. scale the mask to full size and feather it (each platform, or `featherMask`/`scaleMask` here),
 *    so the edge is soft, not jagged; `applyMask` writes it as alpha and finds the subject's box.
 * It does well on product and portrait photos on plain or simple backgrounds, which is what the
 * sandbox needs to return honest, input-dependent results.
 */

/** The long side of the copy the mask is computed on. */
export const WORK_SIZE = 384;

/** How far the mask's edge is feathered, in work-size pixels (a Gaussian's sigma). */
export const FEATHER_SIGMA = 1.2;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The work copy's size for an image: at most WORK_SIZE on its long side, never enlarged. */
export function workSize(width: number, height: number): { w: number; h: number; scale: number } {
  const scale = Math.min(1, WORK_SIZE / Math.max(width, height));
  return { w: Math.max(1, Math.round(width * scale)), h: Math.max(1, Math.round(height * scale)), scale };
}

/**
 * 255 for subject, 0 for background, from the work copy's pixels (`channels` 3 for RGB, 4 for
 * RGBA, whose alpha is ignored).
 */
export function segment(pixels: ArrayLike<number>, w: number, h: number, channels: 3 | 4 = 3): Uint8Array {
  const border: number[] = [];
  const pushPixel = (x: number, y: number) => border.push((y * w + x) * channels);
  for (let x = 0; x < w; x++) {
    pushPixel(x, 0);
    pushPixel(x, h - 1);
  }
  for (let y = 1; y < h - 1; y++) {
    pushPixel(0, y);
    pushPixel(w - 1, y);
  }
  const centers = kmeans(pixels, border, 4);
  const nearest = (i: number) => {
    let best = Infinity;
    for (const c of centers) {
      const d = (pixels[i]! - c[0]!) ** 2 + (pixels[i + 1]! - c[1]!) ** 2 + (pixels[i + 2]! - c[2]!) ** 2;
      if (d < best) best = d;
    }
    return Math.sqrt(best);
  };
  // Noise of the border around its clusters sets the threshold, within sane bounds.
  let spread = 0;
  for (const i of border) spread += nearest(i);
  spread /= border.length;
  const threshold = Math.min(90, Math.max(28, spread * 3));

  const mask = new Uint8Array(w * h).fill(255);
  const queue = new Int32Array(w * h);
  let head = 0,
    tail = 0;
  for (const i of border) {
    const p = i / channels;
    if (mask[p] === 255 && nearest(i) < threshold) {
      mask[p] = 0;
      queue[tail++] = p;
    }
  }
  while (head < tail) {
    const p = queue[head++]!;
    const x = p % w,
      y = (p - x) / w;
    const visit = (q: number) => {
      if (mask[q] === 255 && nearest(q * channels) < threshold) {
        mask[q] = 0;
        queue[tail++] = q;
      }
    };
    if (x > 0) visit(p - 1);
    if (x < w - 1) visit(p + 1);
    if (y > 0) visit(p - w);
    if (y < h - 1) visit(p + w);
  }
  return mask;
}

function kmeans(pixels: ArrayLike<number>, idx: number[], k: number): number[][] {
  const step = Math.max(1, Math.floor(idx.length / k));
  let centers = Array.from({ length: Math.min(k, idx.length) }, (_, j) => {
    const i = idx[j * step]!;
    return [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!];
  });
  for (let iter = 0; iter < 8; iter++) {
    const sums = centers.map(() => [0, 0, 0, 0]);
    for (const i of idx) {
      let best = 0,
        bd = Infinity;
      centers.forEach((c, j) => {
        const d = (pixels[i]! - c[0]!) ** 2 + (pixels[i + 1]! - c[1]!) ** 2 + (pixels[i + 2]! - c[2]!) ** 2;
        if (d < bd) {
          bd = d;
          best = j;
        }
      });
      const s = sums[best]!;
      s[0]! += pixels[i]!;
      s[1]! += pixels[i + 1]!;
      s[2]! += pixels[i + 2]!;
      s[3]!++;
    }
    centers = centers.map((c, j) => {
      const s = sums[j]!;
      return s[3]! ? [s[0]! / s[3]!, s[1]! / s[3]!, s[2]! / s[3]!] : c;
    });
  }
  return centers;
}

/** A Gaussian blur of a one-channel mask (separable, clamped at the edges). */
export function featherMask(mask: Uint8Array, w: number, h: number, sigma = FEATHER_SIGMA): Uint8Array {
  const radius = Math.max(1, Math.ceil(sigma * 3));
  const kernel = new Float32Array(radius * 2 + 1);
  let sum = 0;
  for (let i = -radius; i <= radius; i++) sum += kernel[i + radius] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < kernel.length; i++) kernel[i]! /= sum;
  const pass = (src: ArrayLike<number>, horizontal: boolean): Float32Array => {
    const out = new Float32Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let acc = 0;
        for (let k = -radius; k <= radius; k++) {
          const sx = horizontal ? Math.min(w - 1, Math.max(0, x + k)) : x;
          const sy = horizontal ? y : Math.min(h - 1, Math.max(0, y + k));
          acc += src[sy * w + sx]! * kernel[k + radius]!;
        }
        out[y * w + x] = acc;
      }
    }
    return out;
  };
  const blurred = pass(pass(mask, true), false);
  const out = new Uint8Array(w * h);
  for (let i = 0; i < out.length; i++) out[i] = Math.round(blurred[i]!);
  return out;
}

/** Bilinear scaling of a one-channel mask to the full image size (pixel centres aligned). */
export function scaleMask(mask: Uint8Array, w: number, h: number, width: number, height: number): Uint8Array {
  if (w === width && h === height) return mask;
  const out = new Uint8Array(width * height);
  const sx = w / width,
    sy = h / height;
  const xs0 = new Int32Array(width),
    xs1 = new Int32Array(width),
    xt = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const fx = Math.min(w - 1, Math.max(0, (x + 0.5) * sx - 0.5));
    xs0[x] = Math.floor(fx);
    xs1[x] = Math.min(w - 1, xs0[x]! + 1);
    xt[x] = fx - xs0[x]!;
  }
  for (let y = 0; y < height; y++) {
    const fy = Math.min(h - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy),
      y1 = Math.min(h - 1, y0 + 1),
      ty = fy - y0;
    const r0 = y0 * w,
      r1 = y1 * w;
    for (let x = 0; x < width; x++) {
      const t = xt[x]!;
      const a = mask[r0 + xs0[x]!]! * (1 - t) + mask[r0 + xs1[x]!]! * t;
      const b = mask[r1 + xs0[x]!]! * (1 - t) + mask[r1 + xs1[x]!]! * t;
      out[y * width + x] = Math.round(a * (1 - ty) + b * ty);
    }
  }
  return out;
}

/**
 * Writes a full-size mask into RGBA pixels as their alpha and answers the subject's bounding box
 * (alpha >= 128), undefined when there is no subject.
 */
export function applyMask(rgba: Uint8Array, alpha: ArrayLike<number>, width: number, height: number): Box | undefined {
  let minX = width,
    minY = height,
    maxX = -1,
    maxY = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const a = alpha[y * width + x]!;
      rgba[(y * width + x) * 4 + 3] = a;
      if (a >= 128) {
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  return maxX < 0 ? undefined : { left: minX, top: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}
