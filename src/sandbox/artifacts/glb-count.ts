/**
 * GLB statistics from the file itself (shared/notes/FORMATS.md), not from a rendered frame, shared
 * by Node (./glb-stats.ts) and the browser (../browser/images.ts), each reading the GLB with its own
 * @gltf-transform IO: triangles per primitive per mesh instance (TRIANGLES: indices/3 or
 * POSITION/3; strips and fans: count - 2), vertices as POSITION counts, texture sizes from the image
 * headers, bytes as the file's length. The same rules as @gltf-transform/functions' inspect(), which
 * the tests compare to.
 */
import { ImageUtils, type Document, type Mesh } from '@gltf-transform/core';
import type { ModelStats } from '../../api/index.js';

const TRIANGLES = 4,
  TRIANGLE_STRIP = 5,
  TRIANGLE_FAN = 6;

/** The statistics of a read document whose GLB file is `bytes` long. */
export function countStats(doc: Document, bytes: number): ModelStats {
  const root = doc.getRoot();
  const instances = new Map<Mesh, number>();
  for (const node of root.listNodes()) {
    const mesh = node.getMesh();
    if (mesh) instances.set(mesh, (instances.get(mesh) ?? 0) + 1);
  }
  let triangles = 0;
  let vertices = 0;
  for (const mesh of root.listMeshes()) {
    for (const prim of mesh.listPrimitives()) {
      const position = prim.getAttribute('POSITION');
      vertices += position?.getCount() ?? 0;
      const count = prim.getIndices()?.getCount() ?? position?.getCount() ?? 0;
      const mode = prim.getMode();
      const n =
        mode === TRIANGLES
          ? Math.floor(count / 3)
          : mode === TRIANGLE_STRIP || mode === TRIANGLE_FAN
            ? Math.max(0, count - 2)
            : 0;
      triangles += n * (instances.get(mesh) ?? 0);
    }
  }
  let maxTextureSize = 0;
  for (const texture of root.listTextures()) {
    const image = texture.getImage();
    const size = image ? ImageUtils.getSize(image, texture.getMimeType()) : null;
    if (size) maxTextureSize = Math.max(maxTextureSize, size[0], size[1]);
  }
  return {
    triangles,
    vertices,
    meshes: root.listMeshes().length,
    materials: root.listMaterials().length,
    textures: root.listTextures().length,
    maxTextureSize,
    bytes,
    animations: root.listAnimations().length,
  };
}
