/**
 * PLY splat files (shared/notes/FORMATS.md): the header parsed (binary little-endian, float
 * properties, no mesh lists; a CRLF header is read too), a standard 3DGS PLY handed to the splat
 * library as it is, and SuperSplat's compressed PLY decoded here to .splat records (the library's
 * parser crashes on those without an `sh` element). splat-formats.ts judges which file is a PLY.
 */
import { ViewerError } from '../shared/viewer-error.js';
import { robustBounds, type PreparedSplats } from './splat-records.js';

const MAX_HEADER = 64 * 1024;

export interface PlyElement {
  name: string;
  count: number;
  props: { name: string; type: string }[];
}

const SIZES: Record<string, number> = {
  char: 1,
  uchar: 1,
  int8: 1,
  uint8: 1,
  short: 2,
  ushort: 2,
  int16: 2,
  uint16: 2,
  int: 4,
  uint: 4,
  int32: 4,
  uint32: 4,
  float: 4,
  float32: 4,
  double: 8,
  float64: 8,
};

export function parseHeader(bytes: Uint8Array): { elements: PlyElement[]; dataStart: number; text: string } {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.byteLength, MAX_HEADER)));
  const end = head.indexOf('end_header');
  if (end < 0)
    throw new ViewerError('corrupt_file', 'The PLY header has no end_header line; the file is damaged or cut short.');
  const eol = head.indexOf('\n', end);
  if (eol < 0) throw new ViewerError('corrupt_file', 'The PLY file ends inside its header.');
  const text = head.slice(0, eol + 1);
  if (!/^format binary_little_endian 1\.0\s*$/m.test(text))
    throw new ViewerError(
      'unsupported_format',
      'Only binary little-endian PLY files are supported; re-export the scene as binary PLY.',
    );
  const elements: PlyElement[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim().split(/\s+/);
    if (line[0] === 'element') elements.push({ name: line[1]!, count: Number(line[2]), props: [] });
    else if (line[0] === 'property') {
      if (line[1] === 'list')
        throw new ViewerError('unsupported_format', 'This PLY holds a mesh (list properties), not Gaussian splats.');
      if (!SIZES[line[1]!]) throw new ViewerError('corrupt_file', `The PLY header names an unknown type "${line[1]}".`);
      elements.at(-1)?.props.push({ type: line[1]!, name: line[2]! });
    }
  }
  return { elements, dataStart: eol + 1, text };
}

export function fromPly(bytes: Uint8Array): PreparedSplats {
  const { elements, dataStart, text } = parseHeader(bytes);
  const vertex = elements.find((e) => e.name === 'vertex');
  if (!vertex || !(vertex.count > 0))
    throw new ViewerError('corrupt_file', 'The PLY file has no splats (no vertex element).');
  let need = dataStart;
  for (const e of elements) need += e.count * e.props.reduce((n, p) => n + SIZES[p.type]!, 0);
  if (bytes.byteLength < need)
    throw new ViewerError(
      'corrupt_file',
      `The PLY file is cut short: its header promises ${need} bytes, it has ${bytes.byteLength}. Download it again.`,
    );
  if (elements.some((e) => e.name === 'chunk')) return fromCompressedPly(bytes, elements, dataStart);
  const names = vertex.props.map((p) => p.name);
  for (const required of ['x', 'y', 'z', 'opacity', 'scale_0', 'rot_0', 'f_dc_0']) {
    if (!names.includes(required))
      throw new ViewerError(
        'unsupported_format',
        `This PLY is not a Gaussian-splat scene: its vertices have no "${required}".`,
      );
  }
  if (vertex.props.some((p) => p.type !== 'float' && p.type !== 'float32'))
    throw new ViewerError('unsupported_format', 'Standard 3DGS PLY properties must all be float.');
  const stride = vertex.props.length * 4;
  const view = new DataView(bytes.buffer, bytes.byteOffset + dataStart, vertex.count * stride);
  const [ix, iy, iz] = ['x', 'y', 'z'].map((n) => names.indexOf(n) * 4) as [number, number, number];
  const bounds = robustBounds(vertex.count, (i, out) => {
    out[0] = view.getFloat32(i * stride + ix, true);
    out[1] = view.getFloat32(i * stride + iy, true);
    out[2] = view.getFloat32(i * stride + iz, true);
  });
  // The splat library reads CRLF headers wrongly (positions become zero): hand it LF only.
  let out = bytes;
  if (text.includes('\r')) {
    const header = new TextEncoder().encode(text.replace(/\r/g, ''));
    out = new Uint8Array(header.byteLength + bytes.byteLength - dataStart);
    out.set(header);
    out.set(bytes.subarray(dataStart), header.byteLength);
  }
  return { bytes: out, format: 'ply', count: vertex.count, ...bounds };
}

/** SuperSplat's compressed PLY: 256 splats per chunk, quantized within each chunk's ranges. */
function fromCompressedPly(bytes: Uint8Array, elements: PlyElement[], dataStart: number): PreparedSplats {
  const chunk = elements.find((e) => e.name === 'chunk')!;
  const vertex = elements.find((e) => e.name === 'vertex')!;
  if (elements[0] !== chunk || elements[1] !== vertex)
    throw new ViewerError('unsupported_format', 'This compressed PLY has its elements in an unexpected order.');
  const cNames = chunk.props.map((p) => p.name);
  const vNames = vertex.props.map((p) => p.name);
  for (const n of ['packed_position', 'packed_rotation', 'packed_scale', 'packed_color']) {
    if (!vNames.includes(n)) throw new ViewerError('unsupported_format', `This compressed PLY has no "${n}".`);
  }
  if (chunk.props.some((p) => p.type !== 'float') || vertex.props.some((p) => p.type !== 'uint'))
    throw new ViewerError('unsupported_format', 'This compressed PLY uses property types this viewer does not know.');
  const cStride = chunk.props.length * 4;
  const vStride = vertex.props.length * 4;
  const cView = new DataView(bytes.buffer, bytes.byteOffset + dataStart, chunk.count * cStride);
  const vView = new DataView(
    bytes.buffer,
    bytes.byteOffset + dataStart + chunk.count * cStride,
    vertex.count * vStride,
  );
  const cf = (c: number, name: string) => {
    const i = cNames.indexOf(name);
    return i < 0 ? undefined : cView.getFloat32(c * cStride + i * 4, true);
  };
  const vi = (name: string) => vNames.indexOf(name) * 4;
  const [pPos, pRot, pScale, pColor] = [
    vi('packed_position'),
    vi('packed_rotation'),
    vi('packed_scale'),
    vi('packed_color'),
  ];
  const unorm = (v: number, bits: number) => (v & ((1 << bits) - 1)) / ((1 << bits) - 1);
  const lerp = (a: number, b: number, t: number) => a + (b - a) * t;
  const out = new Uint8Array(vertex.count * 32);
  const ov = new DataView(out.buffer);
  const positions = new Float32Array(vertex.count * 3);
  for (let i = 0; i < vertex.count; i++) {
    const c = Math.floor(i / 256);
    if (c >= chunk.count)
      throw new ViewerError('corrupt_file', 'The compressed PLY has more splats than its chunks describe.');
    const pos = vView.getUint32(i * vStride + pPos, true);
    const x = lerp(cf(c, 'min_x')!, cf(c, 'max_x')!, unorm(pos >>> 21, 11));
    const y = lerp(cf(c, 'min_y')!, cf(c, 'max_y')!, unorm(pos >>> 11, 10));
    const z = lerp(cf(c, 'min_z')!, cf(c, 'max_z')!, unorm(pos, 11));
    const sc = vView.getUint32(i * vStride + pScale, true);
    const sx = Math.exp(lerp(cf(c, 'min_scale_x')!, cf(c, 'max_scale_x')!, unorm(sc >>> 21, 11)));
    const sy = Math.exp(lerp(cf(c, 'min_scale_y')!, cf(c, 'max_scale_y')!, unorm(sc >>> 11, 10)));
    const sz = Math.exp(lerp(cf(c, 'min_scale_z')!, cf(c, 'max_scale_z')!, unorm(sc, 11)));
    const col = vView.getUint32(i * vStride + pColor, true);
    let r = unorm(col >>> 24, 8);
    let g = unorm(col >>> 16, 8);
    let b = unorm(col >>> 8, 8);
    const a = unorm(col, 8);
    const minR = cf(c, 'min_r');
    if (minR !== undefined) {
      r = lerp(minR, cf(c, 'max_r')!, r);
      g = lerp(cf(c, 'min_g')!, cf(c, 'max_g')!, g);
      b = lerp(cf(c, 'min_b')!, cf(c, 'max_b')!, b);
    }
    const rot = vView.getUint32(i * vStride + pRot, true);
    const norm = 1 / (Math.SQRT2 * 0.5);
    const qa = (unorm(rot >>> 20, 10) - 0.5) * norm;
    const qb = (unorm(rot >>> 10, 10) - 0.5) * norm;
    const qc = (unorm(rot, 10) - 0.5) * norm;
    const m = Math.sqrt(Math.max(0, 1 - (qa * qa + qb * qb + qc * qc)));
    // The largest component's index counts in w, x, y, z order (as @playcanvas/splat-transform,
    // PlayCanvas's own tool, decodes it: a file decoded here and one it converted render the same).
    const [qw, qx, qy, qz] = [
      [m, qa, qb, qc],
      [qa, m, qb, qc],
      [qa, qb, m, qc],
      [qa, qb, qc, m],
    ][rot >>> 30]!;
    const o = i * 32;
    ov.setFloat32(o, x, true);
    ov.setFloat32(o + 4, y, true);
    ov.setFloat32(o + 8, z, true);
    ov.setFloat32(o + 12, sx, true);
    ov.setFloat32(o + 16, sy, true);
    ov.setFloat32(o + 20, sz, true);
    const byte = (v: number) => Math.max(0, Math.min(255, Math.round(v * 255)));
    out[o + 24] = byte(r);
    out[o + 25] = byte(g);
    out[o + 26] = byte(b);
    out[o + 27] = byte(a);
    const len = Math.hypot(qw!, qx!, qy!, qz!) || 1;
    const q = (v: number) => Math.max(0, Math.min(255, Math.round((v / len) * 128 + 128)));
    out[o + 28] = q(qw!);
    out[o + 29] = q(qx!);
    out[o + 30] = q(qy!);
    out[o + 31] = q(qz!);
    positions.set([x, y, z], i * 3);
  }
  const bounds = robustBounds(vertex.count, (i, p) => {
    p[0] = positions[i * 3]!;
    p[1] = positions[i * 3 + 1]!;
    p[2] = positions[i * 3 + 2]!;
  });
  return { bytes: out, format: 'splat', count: vertex.count, ...bounds };
}

/** The fields of a standard PLY vertex, as byte offsets in a record. */
export interface Layout {
  stride: number;
  x: number;
  y: number;
  z: number;
  dc: [number, number, number];
  opacity: number;
  scale: [number, number, number];
  rot: [number, number, number, number];
}

/**
 * The layout of a standard 3DGS PLY (one vertex element, all float, the splat fields present), or
 * undefined for any other PLY (compressed, mesh, other types), which is read whole instead.
 */
export function standardLayout(elements: PlyElement[]): Layout | undefined {
  if (elements.length !== 1 || elements[0]!.name !== 'vertex') return undefined;
  const { props } = elements[0]!;
  if (props.some((p) => p.type !== 'float' && p.type !== 'float32')) return undefined;
  const at = (name: string) => {
    const i = props.findIndex((p) => p.name === name);
    return i < 0 ? -1 : i * 4;
  };
  const names = ['x', 'y', 'z', 'f_dc_0', 'f_dc_1', 'f_dc_2', 'opacity', 'scale_0', 'scale_1', 'scale_2'];
  const offsets = [...names, 'rot_0', 'rot_1', 'rot_2', 'rot_3'].map(at);
  if (offsets.some((o) => o < 0)) return undefined;
  const [x, y, z, d0, d1, d2, opacity, s0, s1, s2, r0, r1, r2, r3] = offsets as number[];
  return {
    stride: props.length * 4,
    x: x!,
    y: y!,
    z: z!,
    dc: [d0!, d1!, d2!],
    opacity: opacity!,
    scale: [s0!, s1!, s2!],
    rot: [r0!, r1!, r2!, r3!],
  };
}
