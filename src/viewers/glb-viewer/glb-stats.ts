/**
 * The spec's model statistics read from the GLB itself (shared/notes/FORMATS.md), never from what
 * a frame drew: three's renderer.info counts after culling. The rules match
 * @gltf-transform/functions' inspect(), which the tests compare against: triangles per primitive
 * per mesh instance, vertices as POSITION counts, "textures" as images (gltf-transform's notion),
 * texture sizes from the image headers. No three.js here.
 */
import type { ModelStats } from '../../api/index.js';
import { ViewerError } from '../shared/viewer-error.js';
import { viewerMessages } from '../shared/viewer-messages.js';

interface Accessor {
  count?: number;
}
interface Primitive {
  attributes?: Record<string, number>;
  indices?: number;
  mode?: number;
}
interface Gltf {
  extensionsUsed?: string[];
  accessors?: Accessor[];
  meshes?: { primitives?: Primitive[] }[];
  nodes?: { mesh?: number }[];
  materials?: unknown[];
  images?: { bufferView?: number; uri?: string; mimeType?: string }[];
  bufferViews?: { buffer?: number; byteOffset?: number; byteLength: number }[];
  animations?: unknown[];
}

const GLB_MAGIC = 0x46546c67; // 'glTF'
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

/** The JSON and BIN chunks of a GLB, or the JSON of a .gltf text file. */
export function splitGlb(bytes: Uint8Array): { json: Gltf; bin: Uint8Array | undefined } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength >= 20 && view.getUint32(0, true) === GLB_MAGIC) {
    if (view.getUint32(4, true) !== 2) throw new ViewerError('unsupported_format', viewerMessages.gltf1);
    let json: Gltf | undefined;
    let bin: Uint8Array | undefined;
    for (let o = 12; o + 8 <= bytes.byteLength;) {
      const length = view.getUint32(o, true);
      const type = view.getUint32(o + 4, true);
      const body = bytes.subarray(o + 8, o + 8 + length);
      if (body.byteLength !== length) throw new ViewerError('corrupt_file', viewerMessages.glbCut);
      if (type === CHUNK_JSON) json = parseJson(body);
      else if (type === CHUNK_BIN && !bin) bin = body;
      o += 8 + length + ((4 - (length % 4)) % 4);
    }
    if (!json) throw new ViewerError('corrupt_file', viewerMessages.glbNoJson);
    return { json, bin };
  }
  if (bytes[0] === 0x7b /* { */) return { json: parseJson(bytes), bin: undefined };
  throw new ViewerError('unsupported_format', viewerMessages.notGlb);
}

function parseJson(bytes: Uint8Array): Gltf {
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as Gltf;
  } catch {
    throw new ViewerError('corrupt_file', viewerMessages.glbJson);
  }
}

export function readGlbStats(bytes: Uint8Array): ModelStats {
  const { json, bin } = splitGlb(bytes);
  const accessors = json.accessors ?? [];
  const count = (i: number | undefined) => (i === undefined ? 0 : (accessors[i]?.count ?? 0));
  const instances = new Map<number, number>();
  for (const node of json.nodes ?? [])
    if (node.mesh !== undefined) instances.set(node.mesh, (instances.get(node.mesh) ?? 0) + 1);
  let triangles = 0;
  let vertices = 0;
  (json.meshes ?? []).forEach((mesh, m) => {
    for (const prim of mesh.primitives ?? []) {
      const positions = count(prim.attributes?.['POSITION']);
      vertices += positions;
      const n = prim.indices !== undefined ? count(prim.indices) : positions;
      const mode = prim.mode ?? 4;
      const tris = mode === 4 ? Math.floor(n / 3) : mode === 5 || mode === 6 ? Math.max(0, n - 2) : 0;
      triangles += tris * (instances.get(m) ?? 0);
    }
  });
  let maxTextureSize = 0;
  for (const image of json.images ?? []) {
    const data = imageBytes(image, json, bin);
    const size = data ? imageSize(data) : undefined;
    if (size) maxTextureSize = Math.max(maxTextureSize, size[0], size[1]);
  }
  return {
    triangles,
    vertices,
    meshes: json.meshes?.length ?? 0,
    materials: json.materials?.length ?? 0,
    textures: json.images?.length ?? 0,
    maxTextureSize,
    bytes: bytes.byteLength,
    animations: json.animations?.length ?? 0,
  };
}

function imageBytes(
  image: { bufferView?: number; uri?: string },
  json: Gltf,
  bin: Uint8Array | undefined,
): Uint8Array | undefined {
  if (image.bufferView !== undefined && bin) {
    const view = json.bufferViews?.[image.bufferView];
    if (!view || (view.buffer ?? 0) !== 0) return undefined;
    return bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
  }
  const m = image.uri ? /^data:[^;,]*;base64,(.*)$/.exec(image.uri) : null;
  if (m) {
    const head = atob(m[1]!.slice(0, 4096));
    return Uint8Array.from(head, (c) => c.charCodeAt(0));
  }
  return undefined;
}

/** Width and height from a PNG, JPEG, WebP or KTX2 header. */
export function imageSize(b: Uint8Array): [number, number] | undefined {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length >= 24 && b[0] === 0x89 && b[1] === 0x50) return [v.getUint32(16), v.getUint32(20)];
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    for (let o = 2; o + 9 < b.length;) {
      if (b[o] !== 0xff) return undefined;
      const marker = b[o + 1]!;
      const length = v.getUint16(o + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return [v.getUint16(o + 7), v.getUint16(o + 5)];
      o += 2 + length;
    }
    return undefined;
  }
  if (b.length >= 30 && String.fromCharCode(...b.subarray(8, 12)) === 'WEBP') {
    const chunk = String.fromCharCode(...b.subarray(12, 16));
    if (chunk === 'VP8 ') return [v.getUint16(26, true) & 0x3fff, v.getUint16(28, true) & 0x3fff];
    if (chunk === 'VP8L') {
      const bits = v.getUint32(21, true);
      return [(bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1];
    }
    if (chunk === 'VP8X') return [(v.getUint32(24, true) & 0xffffff) + 1, (v.getUint32(27, true) & 0xffffff) + 1];
  }
  if (b.length >= 28 && b[0] === 0xab && b[1] === 0x4b && b[2] === 0x54 && b[3] === 0x58)
    return [v.getUint32(20, true), v.getUint32(24, true)];
  return undefined;
}
