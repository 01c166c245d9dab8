/**
 * Niantic's .spz decoded by Niantic's own reader compiled to WebAssembly (@adobe/spz, the npm build
 * of nianticlabs/spz, which splat-transform also uses): SPZ v1-v3 (gzip) and v4 (zstd streams). It
 * is about 260 KB gzipped, so splat-loaders.ts imports this module only when an SPZ file arrives;
 * PLY and .splat users never download it. The splats come back as antimatter15 .splat records
 * (the viewer draws spherical-harmonics degree 0, so nothing it shows is lost), in the PLY
 * convention (x right, y down, z forward) so an .spz shows the same way up as the PLY it came from.
 *
 * Each file gets a fresh WebAssembly instance, dropped afterwards: its memory only ever grows,
 * and one large scene would otherwise stay allocated for the life of the page.
 */
import spzEntry from '@adobe/spz';
import { ViewerError } from '../shared/viewer-error.js';
import type { SpzFile } from './splat-formats.js';
import { fromSplat, type PreparedSplats } from './splat-records.js';

const SH_C0 = 0.28209479177387814;
// An ES module whose package.json lacks "type": "module": TypeScript (NodeNext) types it as
// CommonJS, one level down; bundlers and browsers import the function itself.
const createSpzModule = spzEntry as unknown as typeof spzEntry.default;

export async function decodeSpz(file: SpzFile): Promise<PreparedSplats> {
  const messages: string[] = [];
  const log = (text: string) => messages.push(text);
  let spz;
  try {
    spz = await createSpzModule({ print: log, printErr: log });
  } catch (err) {
    throw new ViewerError(
      'unsupported_format',
      `The .spz decoder could not start (${err instanceof Error ? err.message : String(err)}); a Content-Security-Policy must allow 'wasm-unsafe-eval' for .spz files.`,
    );
  }
  let cloud;
  try {
    cloud = spz.loadSpzFromBuffer(file.bytes, { to: spz.CoordinateSystem.RDF });
  } catch {
    cloud = undefined;
  }
  if (!cloud || cloud.numPoints !== file.count) {
    const why = messages
      .filter((m) => m.includes('ERROR'))
      .map((m) => m.replace(/^\[SPZ ERROR\]\s*/, ''))
      .at(-1);
    throw new ViewerError(
      'corrupt_file',
      `The .spz file is damaged or cut short${why ? ` (${why})` : ''}; download it again.`,
    );
  }
  const { numPoints: n, positions, scales, rotations, alphas, colors } = cloud;
  const out = new Uint8Array(n * 32);
  const view = new DataView(out.buffer);
  const byte = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  for (let i = 0; i < n; i++) {
    const o = i * 32;
    for (let k = 0; k < 3; k++) {
      view.setFloat32(o + k * 4, positions[i * 3 + k]!, true);
      view.setFloat32(o + 12 + k * 4, Math.exp(scales[i * 3 + k]!), true); // stored as ln(sigma)
      out[o + 24 + k] = byte((0.5 + SH_C0 * colors[i * 3 + k]!) * 255); // stored as the SH DC term
    }
    out[o + 27] = byte(255 / (1 + Math.exp(-alphas[i]!))); // stored as a logit
    // Stored x, y, z, w; .splat wants w, x, y, z around 128.
    const [x, y, z, w] = [rotations[i * 4]!, rotations[i * 4 + 1]!, rotations[i * 4 + 2]!, rotations[i * 4 + 3]!];
    const len = Math.hypot(x, y, z, w) || 1;
    out[o + 28] = byte((w / len) * 128 + 128);
    out[o + 29] = byte((x / len) * 128 + 128);
    out[o + 30] = byte((y / len) * 128 + 128);
    out[o + 31] = byte((z / len) * 128 + 128);
  }
  return fromSplat(out);
}
