/**
 * The platform-free rules of the image tools operation (background removal) and its output
 * options, shared by Node (./image-tool.ts) and the browser (../browser/images.ts):
 * size (auto | preview | full), format (png with transparency | jpg), bg_color, crop.
 *
 * "auto" is not defined by the spec. Ours (LIMITS.imageTools.autoMaxPixels): the full resolution up
 * to 10 megapixels, scaled down beyond that, so a phone photo comes back whole and a 48 MP scan does
 * not cost a 20 MB answer.
 */
import { LIMITS, type ImageToolFormat, type ImageToolSize } from '../../api/index.js';
import type { ImageToolOptions } from '../platform.js';

/** The answer's size for a (cropped) cut-out of `width` x `height`. */
export function outputSize(
  width: number,
  height: number,
  size: ImageToolSize,
): { width: number; height: number; scaled: boolean } {
  const maxPixels =
    size === 'preview'
      ? LIMITS.imageTools.previewMaxPixels
      : size === 'auto'
        ? LIMITS.imageTools.autoMaxPixels
        : Infinity;
  if (width * height <= maxPixels) return { width, height, scaled: false };
  const k = Math.sqrt(maxPixels / (width * height));
  return { width: Math.max(1, Math.floor(width * k)), height: Math.max(1, Math.floor(height * k)), scaled: true };
}

/** The colour put behind the subject, or undefined to keep transparency (a JPEG has none: white). */
export function flattenColour(options: Pick<ImageToolOptions, 'bgColor' | 'format'>): string | undefined {
  return options.bgColor || options.format === 'jpg' ? (options.bgColor ?? '#ffffff') : undefined;
}

export function contentTypeOf(format: ImageToolFormat): 'image/png' | 'image/jpeg' {
  return format === 'jpg' ? 'image/jpeg' : 'image/png';
}

/** JPEG quality of the jpg format, 0-100. */
export const JPEG_QUALITY = 90;
