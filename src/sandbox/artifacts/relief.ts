/**
 * The 3D generation artifact: a textured relief of each photo (height from luminance, shaped by
 * the seed), one panel per photo arranged around the vertical axis for multi-view jobs, written
 * as a GLB with @gltf-transform/core. The same photos, quality and seed give the same bytes.
 */
import sharp from 'sharp';
import { Document, NodeIO } from '@gltf-transform/core';
import { mulberry32 } from '../rng.js';

const GRID = 48;

export interface ReliefFace {
  /** Vertex positions (x, y, z) and texture coordinates, GRID x GRID. */
  positions: Float32Array;
  uvs: Float32Array;
  indices: Uint32Array;
  /** RGBA texture pixels for software rendering (turntable). */
  texture: { data: Buffer; width: number; height: number };
}

export interface Relief {
  glb: Uint8Array;
  faces: ReliefFace[];
}

export interface ReliefOptions {
  textureSize: number;
  seed: number;
  /** Photos already cut out (PNG with alpha): transparent pixels get no height and are masked. */
  cutout: boolean;
}

export async function buildRelief(images: Uint8Array[], options: ReliefOptions): Promise<Relief> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('model');
  const mesh = doc.createMesh('relief');
  const faces: ReliefFace[] = [];
  const random = mulberry32(options.seed);
  // The seed shapes the relief: a smooth random field added to the luminance heights.
  const field = Array.from({ length: 36 }, () => random());
  const depth = 0.12 + random() * 0.1;
  const n = images.length;
  for (let i = 0; i < n; i++) {
    const img = sharp(images[i]!).rotate();
    const meta = await img.metadata();
    const aspect = (meta.width ?? 1) / (meta.height ?? 1);
    const w = aspect >= 1 ? 1 : aspect;
    const h = aspect >= 1 ? 1 / aspect : 1;
    const { data: lum } = await img
      .clone()
      .ensureAlpha()
      .resize(GRID, GRID, { fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const texSize = options.textureSize;
    const texRaw = await img.clone().ensureAlpha().resize(texSize, texSize, { fit: 'fill' }).raw().toBuffer();
    const textureBytes = options.cutout
      ? await sharp(texRaw, { raw: { width: texSize, height: texSize, channels: 4 } })
          .png()
          .toBuffer()
      : await sharp(texRaw, { raw: { width: texSize, height: texSize, channels: 4 } })
          .removeAlpha()
          .jpeg({ quality: 85 })
          .toBuffer();
    const angle = (i / n) * Math.PI * 2;
    const radius = n > 1 ? 0.5 : 0;
    const positions = new Float32Array(GRID * GRID * 3);
    const uvs = new Float32Array(GRID * GRID * 2);
    for (let y = 0; y < GRID; y++) {
      for (let x = 0; x < GRID; x++) {
        const v = y * GRID + x;
        const p = v * 4;
        const alpha = lum[p + 3]! / 255;
        const l = (lum[p]! * 0.3 + lum[p + 1]! * 0.59 + lum[p + 2]! * 0.11) / 255;
        const fx = (x / (GRID - 1)) * 5,
          fy = (y / (GRID - 1)) * 5;
        const noise = bilinear(field, 6, fx, fy);
        const height = options.cutout && alpha < 0.5 ? 0 : depth * (0.6 * l + 0.4 * noise);
        const lx = (x / (GRID - 1) - 0.5) * w;
        const ly = (0.5 - y / (GRID - 1)) * h;
        const lz = radius + height;
        positions[v * 3] = lx * Math.cos(angle) + lz * Math.sin(angle);
        positions[v * 3 + 1] = ly;
        positions[v * 3 + 2] = -lx * Math.sin(angle) + lz * Math.cos(angle);
        uvs[v * 2] = x / (GRID - 1);
        uvs[v * 2 + 1] = y / (GRID - 1);
      }
    }
    const indices = new Uint32Array((GRID - 1) * (GRID - 1) * 6);
    let k = 0;
    for (let y = 0; y < GRID - 1; y++) {
      for (let x = 0; x < GRID - 1; x++) {
        const a = y * GRID + x,
          b = a + 1,
          c = a + GRID,
          d = c + 1;
        indices.set([a, c, b, b, c, d], k);
        k += 6;
      }
    }
    const texture = doc
      .createTexture(`photo-${i}`)
      .setImage(new Uint8Array(textureBytes))
      .setMimeType(options.cutout ? 'image/png' : 'image/jpeg');
    const material = doc
      .createMaterial(`photo-${i}`)
      .setBaseColorTexture(texture)
      .setMetallicFactor(0)
      .setRoughnessFactor(0.85)
      .setDoubleSided(true);
    if (options.cutout) material.setAlphaMode('MASK').setAlphaCutoff(0.5);
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer))
      .setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(uvs).setBuffer(buffer))
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(indices).setBuffer(buffer))
      .setMaterial(material);
    mesh.addPrimitive(prim);
    faces.push({ positions, uvs, indices, texture: { data: texRaw, width: texSize, height: texSize } });
  }
  scene.addChild(doc.createNode('relief').setMesh(mesh));
  doc.getRoot().setDefaultScene(scene);
  doc.getRoot().getAsset().generator = '@mediakit/elements sandbox';
  const glb = await new NodeIO().writeBinary(doc);
  return { glb, faces };
}

function bilinear(grid: number[], size: number, x: number, y: number): number {
  const x0 = Math.min(size - 2, Math.floor(x)),
    y0 = Math.min(size - 2, Math.floor(y));
  const tx = x - x0,
    ty = y - y0;
  const at = (i: number, j: number) => grid[j * size + i]!;
  return (
    (at(x0, y0) * (1 - tx) + at(x0 + 1, y0) * tx) * (1 - ty) +
    (at(x0, y0 + 1) * (1 - tx) + at(x0 + 1, y0 + 1) * tx) * ty
  );
}
