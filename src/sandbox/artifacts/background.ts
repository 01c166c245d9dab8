/**
 * Background removal in Node with sharp: the algorithm (border colour clusters, flood fill,
 * feathered mask) is ./mask.ts, shared with the browser; sharp decodes (EXIF orientation
 * honoured), scales the work copy and the mask, and feathers the mask.
 */
import sharp from 'sharp';
import type { Cutout } from '../platform.js';
import { FEATHER_SIGMA, applyMask, segment, workSize } from './mask.js';

export type { Cutout };

export async function removeBackground(image: Uint8Array): Promise<Cutout> {
  const base = sharp(image, { failOn: 'error' }).rotate(); // honour EXIF orientation
  const { data: full, info } = await base
    .clone()
    .removeAlpha()
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const { w, h, scale } = workSize(width, height);
  const { data: small } = await sharp(full, { raw: { width, height, channels: 4 } })
    .resize(w, h, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });

  const mask = segment(small, w, h);
  const maskImage = await sharp(Buffer.from(mask), { raw: { width: w, height: h, channels: 1 } })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .blur(Math.max(0.6, FEATHER_SIGMA / scale))
    .extractChannel(0) // sharp widens a one-channel raw input to sRGB on the way
    .raw()
    .toBuffer();
  const box = applyMask(full, maskImage, width, height);
  return { rgba: full, width, height, box };
}
