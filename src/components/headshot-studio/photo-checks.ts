/**
 * Advisory checks of a selfie before spending: too dark, unevenly lit, too small, blurry. They
 * never block; each comes with what to do. Measured on a copy at most 256 px on its longer side,
 * which is enough for light and a sharpness estimate and fast on a phone.
 */
export type PhotoAdvice = 'dark' | 'uneven' | 'small' | 'blurry';

export interface PhotoReport {
  advice: PhotoAdvice[];
  width: number;
  height: number;
  /** Mean luminance 0-1, left/right third difference, Laplacian variance (for tests and tuning). */
  measures: { luminance: number; unevenness: number; sharpness: number };
}

const DARK = 0.25;
const UNEVEN = 0.25;
/** Variance of the Laplacian (0-255 grey) at 256 px below which a photo reads as blurred. */
const BLURRY = 12;

/** Measures `image`; `minShortSide`: a shorter side below this many pixels is `small`. */
export async function checkPhoto(image: Blob, minShortSide: number): Promise<PhotoReport> {
  const bitmap = await createImageBitmap(image);
  const { width, height } = bitmap;
  const k = Math.min(1, 256 / Math.max(width, height));
  const w = Math.max(1, Math.round(width * k));
  const h = Math.max(1, Math.round(height * k));
  const canvas = new OffscreenCanvas(w, h);
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(bitmap, 0, 0, w, h);
  bitmap.close();
  const rgba = ctx.getImageData(0, 0, w, h).data;
  const grey = new Float32Array(w * h);
  for (let i = 0; i < grey.length; i++)
    grey[i] = 0.2126 * rgba[i * 4]! + 0.7152 * rgba[i * 4 + 1]! + 0.0722 * rgba[i * 4 + 2]!;

  let sum = 0;
  for (const v of grey) sum += v;
  const luminance = sum / grey.length / 255;

  // The face sits in the middle: compare the left and right thirds of the middle band of rows.
  const third = Math.max(1, Math.floor(w / 3));
  let left = 0;
  let right = 0;
  let n = 0;
  for (let y = Math.floor(h * 0.2); y < Math.ceil(h * 0.8); y++) {
    for (let x = 0; x < third; x++) {
      left += grey[y * w + x]!;
      right += grey[y * w + (w - 1 - x)]!;
      n++;
    }
  }
  const unevenness = n ? Math.abs(left - right) / n / 255 : 0;

  let lapSum = 0;
  let lapSq = 0;
  let m = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const lap = grey[i - 1]! + grey[i + 1]! + grey[i - w]! + grey[i + w]! - 4 * grey[i]!;
      lapSum += lap;
      lapSq += lap * lap;
      m++;
    }
  }
  const sharpness = m ? lapSq / m - (lapSum / m) ** 2 : 0;

  const advice: PhotoAdvice[] = [];
  if (luminance < DARK) advice.push('dark');
  else if (unevenness > UNEVEN) advice.push('uneven');
  if (Math.min(width, height) < minShortSide) advice.push('small');
  if (sharpness < BLURRY) advice.push('blurry');
  return { advice, width, height, measures: { luminance, unevenness, sharpness } };
}
