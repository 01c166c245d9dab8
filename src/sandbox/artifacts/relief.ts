/**
 * The 3D generation artifact in Node: sharp decodes and scales each photo (EXIF orientation
 * honoured) and encodes its texture; the relief geometry and the glTF document are
 * ./relief-mesh.ts, shared with the browser. The same photos, quality and seed give the same bytes.
 */
import sharp from 'sharp';
import { NodeIO } from '@gltf-transform/core';
import type { Relief, ReliefFace, ReliefOptions } from '../platform.js';
import {
  GRID,
  TEXTURE_JPEG_QUALITY,
  panelGeometry,
  reliefDocument,
  reliefShape,
  type TexturedPanel,
} from './relief-mesh.js';

export type { Relief, ReliefFace, ReliefOptions };

export async function buildRelief(images: Uint8Array[], options: ReliefOptions): Promise<Relief> {
  const shape = reliefShape(options.seed);
  const panels: TexturedPanel[] = [];
  const faces: ReliefFace[] = [];
  const n = images.length;
  for (let i = 0; i < n; i++) {
    const img = sharp(images[i]!).rotate();
    const meta = await img.metadata();
    // width and height are the stored size; autoOrient's are the upright one (EXIF orientation applied).
    const { width, height } = meta.autoOrient;
    const { data: grid } = await img
      .clone()
      .ensureAlpha()
      .resize(GRID, GRID, { fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const texSize = options.textureSize;
    const texRaw = await img.clone().ensureAlpha().resize(texSize, texSize, { fit: 'fill' }).raw().toBuffer();
    const texture = sharp(texRaw, { raw: { width: texSize, height: texSize, channels: 4 } });
    const image = options.cutout
      ? await texture.png().toBuffer()
      : await texture.removeAlpha().jpeg({ quality: TEXTURE_JPEG_QUALITY }).toBuffer();
    const geometry = panelGeometry(grid, width / height, i, n, shape, options.cutout);
    panels.push({ ...geometry, image: new Uint8Array(image) });
    faces.push({ ...geometry, texture: { data: texRaw, width: texSize, height: texSize } });
  }
  const glb = await new NodeIO().writeBinary(reliefDocument(panels, options.cutout));
  return { glb, faces };
}
