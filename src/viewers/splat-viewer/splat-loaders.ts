/**
 * What <splat-viewer> hands the splat library, read from a file that splat-formats.ts judged and
 * prepared: a .ksplat read by the library's SplatBuffer (for its centres), an .spz decoded by
 * splat-spz.ts (imported only when one arrives: its WebAssembly decoder is not in this chunk),
 * a scene over the splat budget thinned evenly, and the centres the first frame is framed on.
 * Imported only by the splat renderer's modules (it imports three and the splat library).
 */
import { Quaternion, Vector3, Vector4 } from 'three';
import { SplatBuffer } from '@mkkellogg/gaussian-splats-3d';
import { reasonOf, viewerMessages } from '../shared/viewer-messages.js';
import { ViewerError } from '../shared/viewer-error.js';
import type { KSplatFile, SplatFile } from './splat-formats.js';
import { robustBounds, type PreparedSplats } from './splat-records.js';

/** What the library is given: PLY or .splat bytes, or a .ksplat with its centres sampled here. */
export type Scene3 =
  | (PreparedSplats & { centres?: undefined })
  | (KSplatFile & Pick<PreparedSplats, 'min' | 'max'> & { centres: Float32Array; buffer: SplatBuffer });

let spzModule: Promise<typeof import('./splat-spz.js')> | undefined;

/** A .ksplat (read by the library's SplatBuffer, for its centres) or an .spz (decoded to .splat records) made ready; others as they are. */
export async function readScene(file: SplatFile): Promise<Scene3> {
  if (file.format === 'spz') {
    const decoder = await (spzModule ??= import('./splat-spz.js')).catch((err: unknown) => {
      spzModule = undefined;
      throw new ViewerError('network', viewerMessages.spzDecoderDownload(reasonOf(err)));
    });
    return decoder.decodeSpz(file);
  }
  if (file.format !== 'ksplat') return file;
  // SplatBuffer reads from offset 0 of its own ArrayBuffer (a zip entry is a view into a larger one).
  const bytes =
    file.bytes.byteOffset === 0 && file.bytes.byteLength === file.bytes.buffer.byteLength
      ? file.bytes
      : file.bytes.slice();
  let buffer: SplatBuffer;
  try {
    buffer = new SplatBuffer(bytes.buffer as ArrayBuffer);
  } catch (err) {
    throw new ViewerError('corrupt_file', viewerMessages.sceneUnreadable(reasonOf(err)));
  }
  const step = Math.max(1, Math.ceil(file.count / 20_000));
  const centres: number[] = [];
  const v = new Vector3();
  for (let i = 0; i < file.count; i += step) {
    buffer.getSplatCenter(i, v);
    if (Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z)) centres.push(v.x, v.y, v.z);
  }
  const bounds = robustBounds(centres.length / 3, (i, out) => {
    out[0] = centres[i * 3]!;
    out[1] = centres[i * 3 + 1]!;
    out[2] = centres[i * 3 + 2]!;
  });
  return { ...file, bytes, buffer, centres: new Float32Array(centres), ...bounds };
}

/** `budget` splats taken evenly from a .ksplat, as .splat records. */
export function ksplatRecords(buffer: SplatBuffer, count: number, budget: number): Uint8Array {
  const out = new Uint8Array(budget * 32);
  const view = new DataView(out.buffer);
  const [centre, scale, rotation, colour] = [new Vector3(), new Vector3(), new Quaternion(), new Vector4()];
  const byte = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  for (let i = 0; i < budget; i++) {
    const from = Math.floor((i * count) / budget);
    buffer.getSplatCenter(from, centre);
    buffer.getSplatScaleAndRotation(from, scale, rotation);
    buffer.getSplatColor(from, colour);
    const o = i * 32;
    [centre.x, centre.y, centre.z, scale.x, scale.y, scale.z].forEach((f, k) => view.setFloat32(o + k * 4, f, true));
    out.set([colour.x, colour.y, colour.z, colour.w].map(byte), o + 24);
    rotation.normalize();
    out.set(
      [rotation.w, rotation.x, rotation.y, rotation.z].map((q) => byte(q * 128 + 128)),
      o + 28,
    );
  }
  return out;
}

/** Up to 20 000 splat centres of what the library is given (a standard PLY or .splat records). */
export function samplePositions(bytes: Uint8Array, format: 'ply' | 'splat'): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = 0;
  let stride = 32;
  let count = Math.floor(bytes.byteLength / 32);
  let offsets = [0, 4, 8];
  if (format === 'ply') {
    // Standard 3DGS PLY (checked by splat-formats.ts): a vertex element of float properties first.
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.byteLength, 64 * 1024)));
    const end = head.indexOf('end_header\n');
    const names: string[] = [];
    let inVertex = false;
    for (const line of head.slice(0, end).split('\n')) {
      const w = line.trim().split(/\s+/);
      if (w[0] === 'element') {
        inVertex = w[1] === 'vertex';
        if (inVertex) count = Number(w[2]);
      } else if (w[0] === 'property' && inVertex) names.push(w[2]!);
    }
    start = end + 'end_header\n'.length;
    stride = names.length * 4;
    offsets = ['x', 'y', 'z'].map((n) => names.indexOf(n) * 4);
  }
  const step = Math.max(1, Math.ceil(count / 20_000));
  const out: number[] = [];
  for (let i = 0; i < count; i += step) {
    const o = start + i * stride;
    const x = view.getFloat32(o + offsets[0]!, true);
    const y = view.getFloat32(o + offsets[1]!, true);
    const z = view.getFloat32(o + offsets[2]!, true);
    if (Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)) out.push(x, y, z);
  }
  return new Float32Array(out);
}

/** `budget` splats taken evenly from a standard PLY or .splat records. */
export function thin(
  bytes: Uint8Array,
  format: 'ply' | 'splat',
  count: number,
  budget: number,
): { bytes: Uint8Array; count: number } {
  let start = 0;
  let header = new Uint8Array(0);
  let stride = 32;
  if (format === 'ply') {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.byteLength, 64 * 1024)));
    start = head.indexOf('end_header\n') + 'end_header\n'.length;
    stride = (bytes.byteLength - start) / count; // a standard 3DGS PLY holds only the vertex element
    header = new TextEncoder().encode(
      head.slice(0, start).replace(/^element vertex \d+$/m, `element vertex ${budget}`),
    );
  }
  const out = new Uint8Array(header.byteLength + budget * stride);
  out.set(header);
  for (let i = 0; i < budget; i++) {
    const from = start + Math.floor((i * count) / budget) * stride;
    out.set(bytes.subarray(from, from + stride), header.byteLength + i * stride);
  }
  return { bytes: out, count: budget };
}
