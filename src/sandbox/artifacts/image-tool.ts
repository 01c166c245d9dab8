/**
 * The image tools operation (background removal) and its output options:
 * size (auto | preview | full), format (png with transparency | jpg), bg_color, crop.
 *
 * "auto" is not defined by the spec. Ours (LIMITS.imageTools.autoMaxPixels): the full resolution up
 * to 10 megapixels, scaled down beyond that, so a phone photo comes back whole and a 48 MP scan does
 * not cost a 20 MB answer.
 */
import sharp from 'sharp';
import { LIMITS, type ImageToolFormat, type ImageToolSize } from '../../api/index.js';
import { removeBackground } from './background.js';

export interface ImageToolOptions {
  size: ImageToolSize;
  format: ImageToolFormat;
  /** `#rrggbb`, already validated. */
  bgColor: string | undefined;
  crop: boolean;
}

export interface ImageToolOutput {
  bytes: Uint8Array;
  width: number;
  height: number;
  contentType: 'image/png' | 'image/jpeg';
}

export class NoSubjectError extends Error {}

export async function runImageTool(image: Uint8Array, options: ImageToolOptions): Promise<ImageToolOutput> {
  const cut = await removeBackground(image);
  if (!cut.box) throw new NoSubjectError('no subject');
  let pipeline = sharp(cut.rgba, { raw: { width: cut.width, height: cut.height, channels: 4 } });
  let w = cut.width;
  let h = cut.height;
  if (options.crop) {
    pipeline = sharp(await pipeline.extract(cut.box).raw().toBuffer(), {
      raw: { width: cut.box.width, height: cut.box.height, channels: 4 },
    });
    w = cut.box.width;
    h = cut.box.height;
  }
  const maxPixels =
    options.size === 'preview'
      ? LIMITS.imageTools.previewMaxPixels
      : options.size === 'auto'
        ? LIMITS.imageTools.autoMaxPixels
        : Infinity;
  if (w * h > maxPixels) {
    const k = Math.sqrt(maxPixels / (w * h));
    w = Math.max(1, Math.floor(w * k));
    h = Math.max(1, Math.floor(h * k));
    pipeline = pipeline.resize(w, h, { fit: 'fill' });
  }
  if (options.bgColor || options.format === 'jpg')
    pipeline = pipeline.flatten({ background: options.bgColor ?? '#ffffff' });
  const bytes =
    options.format === 'jpg'
      ? await pipeline.jpeg({ quality: 90 }).toBuffer()
      : await pipeline.png({ compressionLevel: 6 }).toBuffer();
  return {
    bytes: new Uint8Array(bytes),
    width: w,
    height: h,
    contentType: options.format === 'jpg' ? 'image/jpeg' : 'image/png',
  };
}
