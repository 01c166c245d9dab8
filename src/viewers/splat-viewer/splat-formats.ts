/**
 * Splat files judged by their bytes, never by URL (shared/notes/FORMATS.md): a zip archive (the
 * video job's archive: the .ply inside, unzipped here with fflate), a standard 3DGS PLY, a
 * compressed (SuperSplat/PlayCanvas) PLY, an antimatter15 .splat, the splat library's own .ksplat
 * (checked here, read by the library), or Niantic's .spz (recognised here, decoded by
 * splat-spz.ts, which loads only when an SPZ arrives). Also works around the splat library's
 * traps: a CRLF PLY header (it silently zeroes positions) is rewritten with LF, and compressed
 * PLYs are decoded here to .splat (its parser crashes on those without an `sh` element).
 */
import { Gunzip, unzipSync } from 'fflate';
import { ViewerError } from '../shared/viewer-error.js';

export interface PreparedSplats {
  /** What the splat library is given, with an explicit format. */
  bytes: Uint8Array;
  format: 'ply' | 'splat';
  count: number;
  /** Robust bounds of the splat centres (5th to 95th percentile per axis): floaters do not shrink the view. */
  min: [number, number, number];
  max: [number, number, number];
}

/** A .ksplat file, its header and section sizes checked; the splat library reads it. */
export interface KSplatFile {
  bytes: Uint8Array;
  format: 'ksplat';
  count: number;
}

/** A Niantic .spz file (gzip-wrapped SPZ v1-v3, or SPZ v4), its header checked; splat-spz.ts decodes it. */
export interface SpzFile {
  bytes: Uint8Array;
  format: 'spz';
  version: number;
  count: number;
}

export type SplatFile = PreparedSplats | KSplatFile | SpzFile;

const MAX_HEADER = 64 * 1024;
/** The SPZ versions splat-spz.ts's decoder (Niantic's spz, @adobe/spz 0.2) reads. */
export const SPZ_VERSIONS = [1, 4] as const;

/** `ply` and a line end: a PLY file (its header says which kind). */
export const isPly = (b: Uint8Array) =>
  b[0] === 0x70 && b[1] === 0x6c && b[2] === 0x79 && (b[3] === 0x0a || b[3] === 0x0d);

export function prepareSplats(input: Uint8Array): SplatFile {
  if (isZip(input)) {
    const inner = fromZip(input);
    // Never a zip inside a zip (each level multiplies what a small file can expand to).
    if (isZip(inner))
      throw new ViewerError(
        'unsupported_format',
        'The zip archive holds another archive; unzip it and open the .ply or .splat inside.',
      );
    return prepareSplats(inner);
  }
  if (isPly(input)) return fromPly(input);
  if (input[0] === 0x67 && input[1] === 0x6c && input[2] === 0x54 && input[3] === 0x46) {
    throw new ViewerError('unsupported_format', 'This is a GLB model, not a splat scene: show it in <glb-viewer>.');
  }
  const spz = spzHeader(input);
  if (spz) return fromSpz(input, spz);
  if (isKSplat(input)) return fromKSplat(input);
  if (input.byteLength > 0 && input.byteLength % 32 === 0 && looksLikeSplat(input)) return fromSplat(input);
  if (input[0] === 0x1f && input[1] === 0x8b)
    throw new ViewerError(
      'unsupported_format',
      'This gzip-compressed file is not an .spz splat scene; decompress it and open the file inside.',
    );
  throw new ViewerError(
    'unsupported_format',
    'This file is not a splat scene: expected a 3DGS .ply, a .splat, a .ksplat, an .spz, or a zip archive holding a .ply.',
  );
}

/** `NGSP`, then the version and the splat count (little-endian uint32 each). */
const NGSP = 0x5053474e;

/** The SPZ header: of the bytes themselves (v4) or of the start of their gzip stream (v1-v3). */
function spzHeader(input: Uint8Array): { version: number; count: number; gzip: boolean } | undefined {
  const read = (head: Uint8Array, gzip: boolean) => {
    if (head.byteLength < 16) return undefined;
    const view = new DataView(head.buffer, head.byteOffset, 16);
    return view.getUint32(0, true) === NGSP
      ? { version: view.getUint32(4, true), count: view.getUint32(8, true), gzip }
      : undefined;
  };
  if (!(input[0] === 0x1f && input[1] === 0x8b && input[2] === 0x08)) return read(input, false);
  // Inflate only the first bytes: enough for the 16-byte header.
  const head = new Uint8Array(16);
  let have = 0;
  const gunzip = new Gunzip((chunk) => {
    const take = Math.min(16 - have, chunk.byteLength);
    head.set(chunk.subarray(0, take), have);
    have += take;
  });
  for (let at = 0; have < 16 && at < input.byteLength; at += 64 * 1024) {
    try {
      gunzip.push(input.subarray(at, at + 64 * 1024)); // never `final`: a cut-short stream still shows its header
    } catch {
      return undefined;
    }
  }
  return have === 16 ? read(head, true) : undefined;
}

function fromSpz(
  bytes: Uint8Array,
  { version, count, gzip }: { version: number; count: number; gzip: boolean },
): SpzFile {
  const [lo, hi] = SPZ_VERSIONS;
  if (version < lo || version > hi) {
    throw new ViewerError(
      'unsupported_format',
      `This .spz file is SPZ version ${version}; this viewer reads versions ${lo} to ${hi}. Re-save it with a current SPZ tool (splat-transform, Niantic's spz) or as a .ply.`,
    );
  }
  if (!gzip && version < 4)
    throw new ViewerError(
      'corrupt_file',
      `This .spz file (version ${version}) should be gzip-compressed and is not; the file is damaged.`,
    );
  if (!(count > 0)) throw new ViewerError('corrupt_file', 'The .spz file holds no splats.');
  return { bytes, format: 'spz', version, count };
}

/** The splat library's SplatBuffer layout (0.4.x): the bytes per splat by compression level and SH degree. */
export const KSPLAT_HEADER = 4096;
export const KSPLAT_SECTION_HEADER = 1024;
const KSPLAT_BYTES_PER_SPLAT = [
  [44, 80, 140],
  [24, 42, 72],
  [24, 33, 48],
];

/**
 * A .ksplat header: version 0.x (byte 0 major, byte 1 minor, bytes 2-3 zero), section and splat
 * counts (uint32 1-4), compression level 0-2 (uint16 10), then one 1024-byte header per section.
 */
function isKSplat(input: Uint8Array): boolean {
  if (input.byteLength < 24 || input[0] !== 0 || input[2] !== 0 || input[3] !== 0) return false;
  const view = new DataView(input.buffer, input.byteOffset, 24);
  const [maxSections, sections, maxSplats, splats] = [4, 8, 12, 16].map((o) => view.getUint32(o, true)) as [
    number,
    number,
    number,
    number,
  ];
  const level = view.getUint16(20, true);
  return (
    maxSections > 0 &&
    maxSections <= maxSplats &&
    sections <= maxSections &&
    splats <= maxSplats &&
    level <= 2 &&
    view.getUint16(22, true) === 0
  );
}

function fromKSplat(bytes: Uint8Array): KSplatFile {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[1]! < 1)
    throw new ViewerError(
      'unsupported_format',
      `This .ksplat file is format version 0.${bytes[1]}, older than the splat library reads (0.1); convert the scene again.`,
    );
  const sections = view.getUint32(4, true);
  const maxSplats = view.getUint32(12, true);
  const level = view.getUint16(20, true);
  let need = KSPLAT_HEADER + sections * KSPLAT_SECTION_HEADER;
  const cut = () =>
    new ViewerError(
      'corrupt_file',
      `The .ksplat file is cut short: its header promises ${need} bytes, it has ${bytes.byteLength}. Download it again.`,
    );
  if (bytes.byteLength < need) throw cut();
  let splats = 0;
  for (let i = 0; i < sections; i++) {
    const o = KSPLAT_HEADER + i * KSPLAT_SECTION_HEADER;
    const count = view.getUint32(o + 4, true);
    const shDegree = view.getUint16(o + 40, true);
    const perSplat = KSPLAT_BYTES_PER_SPLAT[level]![shDegree];
    if (perSplat === undefined)
      throw new ViewerError(
        'unsupported_format',
        `This .ksplat file holds spherical harmonics of degree ${shDegree}; the splat library reads up to 2.`,
      );
    const buckets =
      level >= 1 ? view.getUint32(o + 12, true) * view.getUint16(o + 20, true) + view.getUint32(o + 36, true) * 4 : 0;
    need += count * perSplat + buckets;
    splats += count;
  }
  if (splats !== maxSplats)
    throw new ViewerError(
      'corrupt_file',
      `The .ksplat file's sections hold ${splats} splats, its header says ${maxSplats}; the file is damaged.`,
    );
  if (bytes.byteLength < need) throw cut();
  return { bytes, format: 'ksplat', count: maxSplats };
}

function isZip(input: Uint8Array): boolean {
  return input[0] === 0x50 && input[1] === 0x4b && input[2] === 0x03 && input[3] === 0x04;
}

/** The most a zip may expand to: 2 GB, and at most 64 times its own size (a splat PLY compresses far less). */
export function zipExpansionLimit(zipBytes: number): number {
  return Math.min(2 * 1024 ** 3, Math.max(16 * 1024 * 1024, zipBytes * 64));
}

function fromZip(zip: Uint8Array): Uint8Array {
  let files: Record<string, Uint8Array>;
  const limit = zipExpansionLimit(zip.byteLength);
  let declared = 0;
  let over = false;
  try {
    // Entries are judged by their declared uncompressed size before any is inflated; fflate
    // inflates into a buffer of exactly that size, so a lying header cannot expand further.
    files = unzipSync(zip, {
      filter: (f) => {
        if (!/\.(ply|splat)$/i.test(f.name)) return false;
        declared += f.originalSize;
        if (declared > limit) over = true;
        return !over;
      },
    });
  } catch {
    throw new ViewerError('corrupt_file', 'The zip archive is damaged; download it again.');
  }
  if (over)
    throw new ViewerError(
      'unsupported_format',
      `The zip archive would expand to more than ${Math.round(limit / 1024 / 1024)} MB; open the .ply or .splat directly.`,
    );
  const name = Object.keys(files).sort((a, b) => Number(/\.splat$/i.test(a)) - Number(/\.splat$/i.test(b)))[0];
  if (!name) throw new ViewerError('unsupported_format', 'The zip archive holds no .ply or .splat scene.');
  return files[name]!;
}

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

function fromPly(bytes: Uint8Array): PreparedSplats {
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

/** .splat has no magic number: every record must hold finite positions and positive, sane scales. */
function looksLikeSplat(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let o = 0; o < bytes.byteLength; o += 32) {
    for (let k = 0; k < 3; k++) {
      const p = view.getFloat32(o + k * 4, true);
      const sc = view.getFloat32(o + 12 + k * 4, true);
      if (!Number.isFinite(p) || Math.abs(p) > 1e7 || !(sc > 0) || sc > 1e6) return false;
    }
  }
  return true;
}

/** antimatter15 .splat records (32 bytes each), with the bounds of their centres. */
export function fromSplat(bytes: Uint8Array): PreparedSplats {
  const count = bytes.byteLength / 32;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    bytes,
    format: 'splat',
    count,
    ...robustBounds(count, (i, p) => {
      p[0] = view.getFloat32(i * 32, true);
      p[1] = view.getFloat32(i * 32 + 4, true);
      p[2] = view.getFloat32(i * 32 + 8, true);
    }),
  };
}

/** 5th-95th percentile box of up to 20 000 sampled centres. */
export function robustBounds(
  count: number,
  read: (i: number, out: number[]) => void,
): { min: [number, number, number]; max: [number, number, number] } {
  const step = Math.max(1, Math.floor(count / 20_000));
  const axes: number[][] = [[], [], []];
  const p = [0, 0, 0];
  for (let i = 0; i < count; i += step) {
    read(i, p);
    if (p.every(Number.isFinite)) for (let k = 0; k < 3; k++) axes[k]!.push(p[k]!);
  }
  if (axes[0]!.length === 0)
    throw new ViewerError('corrupt_file', "The scene's splat positions are not numbers; the file is damaged.");
  const pick = (a: number[], q: number) => a[Math.min(a.length - 1, Math.floor(q * (a.length - 1)))]!;
  const lo = count < 50 ? 0 : 0.05;
  const min = axes.map((a) => (a.sort((x, y) => x - y), pick(a, lo))) as [number, number, number];
  const max = axes.map((a) => pick(a, 1 - lo)) as [number, number, number];
  return { min, max };
}
