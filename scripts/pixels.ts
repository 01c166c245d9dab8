// PNG in and out and a tolerant pixel comparison, for the story screenshots (scripts/stories.mjs)
// against their baselines (test/stories-baselines). Only what Chromium writes is read: 8-bit RGB or
// RGBA (colour types 2 and 6), not interlaced; anything else is refused, never misread.
import { deflateSync, inflateSync } from 'node:zlib';

export interface Image {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel, rows top to bottom. */
  data: Uint8Array;
}

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The Paeth predictor of the PNG specification. */
function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(file: Uint8Array): Image {
  const buf = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (!buf.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < buf.length;) {
    const length = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const body = buf.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0)
        throw new Error(`PNG of depth ${depth}, colour type ${colour}, interlace ${interlace}: only 8-bit RGB(A)`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!channels) throw new Error('PNG without IHDR');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length !== height * (stride + 1)) throw new Error('PNG data of the wrong length');
  const data = new Uint8Array(width * height * 4);
  let prev: Uint8Array = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    if (filter > 4) throw new Error(`PNG row filter ${filter}`);
    if (filter === 1) for (let i = channels; i < stride; i++) line[i] = (line[i]! + line[i - channels]!) & 0xff;
    else if (filter === 2) for (let i = 0; i < stride; i++) line[i] = (line[i]! + prev[i]!) & 0xff;
    else if (filter === 3)
      for (let i = 0; i < stride; i++)
        line[i] = (line[i]! + (((i >= channels ? line[i - channels]! : 0) + prev[i]!) >> 1)) & 0xff;
    else if (filter === 4)
      for (let i = 0; i < stride; i++) {
        const a = i >= channels ? line[i - channels]! : 0;
        const c = i >= channels ? prev[i - channels]! : 0;
        line[i] = (line[i]! + paeth(a, prev[i]!, c)) & 0xff;
      }
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      data[o] = line[x * channels]!;
      data[o + 1] = line[x * channels + 1]!;
      data[o + 2] = line[x * channels + 2]!;
      data[o + 3] = channels === 4 ? line[x * channels + 3]! : 255;
    }
    prev = line;
  }
  return { width, height, data };
}

function chunk(type: string, body: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, crc]);
}

/**
 * RGBA PNG, each row with the filter of the smallest sum of absolute values (the usual heuristic),
 * deflated at level 9: the committed baselines stay small.
 */
export function encodePng({ width, height, data }: Image): Buffer {
  const stride = width * 4;
  const raw = Buffer.alloc(height * (stride + 1));
  const candidate = Array.from({ length: 5 }, () => new Uint8Array(stride));
  const zero = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const line = data.subarray(y * stride, (y + 1) * stride);
    const prev = y ? data.subarray((y - 1) * stride, y * stride) : zero;
    let best = 0;
    let bestSum = Infinity;
    for (let f = 0; f < 5; f++) {
      const out = candidate[f]!;
      let sum = 0;
      for (let i = 0; i < stride; i++) {
        const a = i >= 4 ? line[i - 4]! : 0;
        const b = prev[i]!;
        const c = i >= 4 ? prev[i - 4]! : 0;
        const predicted = f === 0 ? 0 : f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : paeth(a, b, c);
        const v = (line[i]! - predicted) & 0xff;
        out[i] = v;
        sum += v < 128 ? v : 256 - v;
      }
      if (sum < bestSum) [best, bestSum] = [f, sum];
    }
    raw[y * (stride + 1)] = best;
    raw.set(candidate[best]!, y * (stride + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array()),
  ]);
}

/**
 * How far apart two colours look: the YIQ distance of pixelmatch (Kotsarenko and Ramos), each
 * colour first put over white by its alpha, scaled so that black against white is 1.
 */
function distance(a: Uint8Array, i: number, b: Uint8Array, j: number): number {
  const aa = a[i + 3]! / 255;
  const ba = b[j + 3]! / 255;
  const r = (a[i]! - 255) * aa - (b[j]! - 255) * ba;
  const g = (a[i + 1]! - 255) * aa - (b[j + 1]! - 255) * ba;
  const bl = (a[i + 2]! - 255) * aa - (b[j + 2]! - 255) * ba;
  const y = r * 0.29889531 + g * 0.58662247 + bl * 0.11448223;
  const iq = r * 0.59597799 - g * 0.2741761 - bl * 0.32180189;
  const q = r * 0.21147017 - g * 0.52261711 + bl * 0.31114286;
  return (0.5053 * y * y + 0.299 * iq * iq + 0.1957 * q * q) / 35215;
}

export interface Comparison {
  /** Both images have the same width and height (else nothing else is compared). */
  sameSize: boolean;
  /** Pixels whose colours differ by more than the threshold. */
  differing: number;
  /** differing / all pixels. */
  ratio: number;
  /** The images match within the tolerance. */
  ok: boolean;
  /** The expected image faded, the differing pixels red: to look at. */
  diff: Image;
}

/**
 * Compares a screenshot with its baseline. A pixel differs when its colour is further than
 * `threshold` (0..1, YIQ: 0.1 is a clearly visible change, anti-aliasing of one glyph edge mostly
 * stays under it) from the baseline's; the images match when they have the same size and at most
 * `maxRatio` of their pixels differ (room for a few anti-aliased edges between machines, far less
 * than a moved box or a changed colour covers).
 */
export function compareImages(actual: Image, expected: Image, threshold = 0.1, maxRatio = 0.005): Comparison {
  const sameSize = actual.width === expected.width && actual.height === expected.height;
  const width = Math.max(actual.width, expected.width);
  const height = Math.max(actual.height, expected.height);
  const diff = { width, height, data: new Uint8Array(width * height * 4) };
  let differing = 0;
  const limit = threshold * threshold;
  const a = actual.data;
  const e = expected.data;
  const out = diff.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const i = (y * actual.width + x) * 4;
      const j = (y * expected.width + x) * 4;
      const inBoth = x < actual.width && y < actual.height && x < expected.width && y < expected.height;
      const same = inBoth && a[i] === e[j] && a[i + 1] === e[j + 1] && a[i + 2] === e[j + 2] && a[i + 3] === e[j + 3];
      if (!same && (!inBoth || distance(a, i, e, j) > limit)) {
        differing++;
        out[o] = 255;
        out[o + 3] = 255;
      } else if (inBoth) {
        // The baseline, faded to a light grey, so that the red stands out where it is.
        const grey = 255 - (255 - (e[j]! * 0.3 + e[j + 1]! * 0.59 + e[j + 2]! * 0.11)) * 0.25;
        out[o] = out[o + 1] = out[o + 2] = grey;
        out[o + 3] = 255;
      }
    }
  }
  const ratio = differing / (width * height || 1);
  return { sameSize, differing, ratio, ok: sameSize && ratio <= maxRatio, diff };
}
