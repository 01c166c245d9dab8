/**
 * The image tools operation (background removal) in Node with sharp; its rules (sizes, formats,
 * bg_color, crop) are ./image-tool-rules.ts, shared with the browser.
 */
import sharp from 'sharp';
import { NoSubjectError, type ImageToolOptions, type ImageToolOutput } from '../platform.js';
import { removeBackground } from './background.js';
import { JPEG_QUALITY, contentTypeOf, flattenColour, outputSize } from './image-tool-rules.js';

export { NoSubjectError };
export type { ImageToolOptions, ImageToolOutput };

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
  const out = outputSize(w, h, options.size);
  if (out.scaled) {
    w = out.width;
    h = out.height;
    pipeline = pipeline.resize(w, h, { fit: 'fill' });
  }
  const background = flattenColour(options);
  if (background) pipeline = pipeline.flatten({ background });
  const bytes =
    options.format === 'jpg'
      ? await pipeline.jpeg({ quality: JPEG_QUALITY }).toBuffer()
      : await pipeline.png({ compressionLevel: 6 }).toBuffer();
  return { bytes: new Uint8Array(bytes), width: w, height: h, contentType: contentTypeOf(options.format) };
}
