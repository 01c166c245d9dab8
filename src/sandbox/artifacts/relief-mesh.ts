/**
 * The platform-free half of the 3D generation artifact, shared by Node (./relief.ts, sharp) and the
 * browser (../browser/images.ts, canvas): a textured relief of each photo (height from luminance,
 * shaped by the seed), one panel per photo arranged around the vertical axis for multi-view jobs,
 * and the glTF document that holds them (written as GLB by each platform's @gltf-transform IO).
 * The same photos, quality and seed give the same bytes.
 */
import { Document } from '@gltf-transform/core';
import { mulberry32 } from '../rng.js';

/** Vertices per side of a panel; each photo is sampled at GRID x GRID for its heights. */
export const GRID = 48;

/** JPEG quality of the textures of photos that were not cut out, 0-100. */
export const TEXTURE_JPEG_QUALITY = 85;

/** How the seed shapes the relief: a smooth random field added to the luminance heights, and its depth. */
export interface ReliefShape {
  field: number[];
  depth: number;
}

export function reliefShape(seed: number): ReliefShape {
  const random = mulberry32(seed);
  const field = Array.from({ length: 36 }, () => random());
  const depth = 0.12 + random() * 0.1;
  return { field, depth };
}

export interface PanelGeometry {
  positions: Float32Array;
  uvs: Float32Array;
  indices: Uint32Array;
}

/**
 * One photo's panel.
 * @param grid the photo's RGBA pixels scaled to GRID x GRID
 * @param aspect the photo's width / height (upright)
 * @param index the panel's place among `count` around the vertical axis
 * @param cutout transparent pixels of a cut-out photo get no height
 */
export function panelGeometry(
  grid: ArrayLike<number>,
  aspect: number,
  index: number,
  count: number,
  shape: ReliefShape,
  cutout: boolean,
): PanelGeometry {
  const w = aspect >= 1 ? 1 : aspect;
  const h = aspect >= 1 ? 1 / aspect : 1;
  const angle = (index / count) * Math.PI * 2;
  const radius = count > 1 ? 0.5 : 0;
  const positions = new Float32Array(GRID * GRID * 3);
  const uvs = new Float32Array(GRID * GRID * 2);
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) {
      const v = y * GRID + x;
      const p = v * 4;
      const alpha = grid[p + 3]! / 255;
      const l = (grid[p]! * 0.3 + grid[p + 1]! * 0.59 + grid[p + 2]! * 0.11) / 255;
      const fx = (x / (GRID - 1)) * 5,
        fy = (y / (GRID - 1)) * 5;
      const noise = bilinear(shape.field, 6, fx, fy);
      const height = cutout && alpha < 0.5 ? 0 : shape.depth * (0.6 * l + 0.4 * noise);
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
  return { positions, uvs, indices };
}

export interface TexturedPanel extends PanelGeometry {
  /** The encoded texture: PNG (cut-out photos, with alpha) or JPEG. */
  image: Uint8Array;
}

/** The glTF document of the panels: one mesh, one primitive and material per photo. */
export function reliefDocument(panels: readonly TexturedPanel[], cutout: boolean): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('model');
  const mesh = doc.createMesh('relief');
  panels.forEach((panel, i) => {
    const texture = doc
      .createTexture(`photo-${i}`)
      .setImage(panel.image)
      .setMimeType(cutout ? 'image/png' : 'image/jpeg');
    const material = doc
      .createMaterial(`photo-${i}`)
      .setBaseColorTexture(texture)
      .setMetallicFactor(0)
      .setRoughnessFactor(0.85)
      .setDoubleSided(true);
    if (cutout) material.setAlphaMode('MASK').setAlphaCutoff(0.5);
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(panel.positions).setBuffer(buffer))
      .setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(panel.uvs).setBuffer(buffer))
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(panel.indices).setBuffer(buffer))
      .setMaterial(material);
    mesh.addPrimitive(prim);
  });
  scene.addChild(doc.createNode('relief').setMesh(mesh));
  doc.getRoot().setDefaultScene(scene);
  doc.getRoot().getAsset().generator = '@mediakit/elements sandbox';
  return doc;
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
