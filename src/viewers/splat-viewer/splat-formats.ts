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
import { fromPly } from './splat-ply.js';
import { fromSplat, type PreparedSplats } from './splat-records.js';

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
