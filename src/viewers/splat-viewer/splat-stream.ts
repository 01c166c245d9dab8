/**
 * A standard 3DGS PLY read as it downloads, straight into the splat library's compact form: a
 * .ksplat buffer (SplatBuffer layout 0.x, compression level 0, no spherical harmonics: 44 bytes a
 * splat, against 248 in an SH3 PLY). No raw file is kept: each chunk is read and dropped, and only a
 * record cut by a chunk boundary is carried over. Over the splat budget, splats are chosen while
 * they arrive by importance (opacity × area): each has the share min(1, w / τ), where τ is set from
 * the weights seen so far so that the budget lasts to the end of the file, and a splat is kept each
 * time the running sum of shares passes a whole number (systematic sampling: no clumps, the same
 * choice on every load, and an even stride when all splats weigh the same).
 *
 * The conversion is the splat library's own for this layout (INRIAV1PlyParser): exp of the log
 * scales, the quaternion normalized in file order, colour 0.5 + SH_C0 · f_dc and opacity the
 * sigmoid, both as bytes. No three.js here: the renderer wraps `buffer` in the library's
 * SplatBuffer.
 */
import { ViewerError } from '../shared/viewer-error.js';
import { joinChunks } from '../shared/fetch-bytes.js';
import { byte, KSPLAT_DATA, KSPLAT_STRIDE, SH_C0, writeHeaders } from './splat-ksplat.js';
import { parseHeader, standardLayout, type Layout } from './splat-ply.js';
import { coin, importance, threshold } from './splat-thinning.js';

/** The most splat centres kept for framing the view. */
const SAMPLE = 20_000;
/** How many weights τ is re-estimated from. */
const WEIGHT_SAMPLE = 8192;

/** What the header says, once it has arrived. */
export interface PlyStreamHeader {
  /** Splats in the file. */
  total: number;
  /** Bytes the file should have (header and records). */
  bytes: number;
}

/**
 * Reads a standard PLY chunk by chunk. `push` the bytes as they arrive; `header` is set once the
 * header is in (undefined while it is not, and `layout` undefined for a PLY this does not stream:
 * then `head` holds every byte pushed so far, for the whole-file path). `count` splats are in
 * `buffer` so far.
 */
export class PlyStream {
  header: PlyStreamHeader | undefined;
  /** False once the header is in and the file is not a standard PLY: read it whole. */
  streamable = true;
  /** The bytes pushed before the header was complete (for the whole-file path when not streamable). */
  head: Uint8Array[] = [];
  /** The compact scene (a .ksplat's bytes); `capacity` splats fit. */
  buffer: ArrayBuffer | undefined;
  capacity = 0;
  /** Splats written to `buffer`. */
  count = 0;
  /** Records read from the file. */
  read = 0;
  /** Bytes pushed. */
  received = 0;
  /** Up to 20 000 splat centres, sampled evenly over what was kept (for framing the view). */
  readonly centres = new Float32Array(SAMPLE * 3);
  centresCount = 0;

  readonly #budget: number;
  #layout: Layout | undefined;
  #headBytes = 0;
  #carry = new Uint8Array(0);
  #f32: Float32Array | undefined;
  #u8: Uint8Array | undefined;
  #tau = 0;
  /** The running sum of shares (systematic sampling). */
  #share = 0;
  readonly #weights = new Float64Array(WEIGHT_SAMPLE);
  #weightsCount = 0;
  #weightsSeen = 0;
  #nextRetarget = 0;
  #seenCentres = 0;

  constructor(budget: number) {
    this.#budget = Math.max(1, Math.floor(budget));
  }

  /** The splats the header promises beyond the budget are thinned to it. */
  get thinning(): boolean {
    return !!this.header && this.header.total > this.capacity;
  }

  push(chunk: Uint8Array): void {
    this.received += chunk.byteLength;
    if (!this.header) {
      this.head.push(chunk);
      this.#headBytes += chunk.byteLength;
      const joined = joinChunks(this.head, this.#headBytes);
      const text = new TextDecoder('latin1').decode(joined.subarray(0, Math.min(joined.byteLength, 64 * 1024)));
      const end = text.indexOf('end_header');
      if (end < 0 || text.indexOf('\n', end) < 0) {
        if (joined.byteLength >= 64 * 1024) parseHeader(joined); // throws the header's own error
        this.head = [joined];
        return;
      }
      const { elements, dataStart } = parseHeader(joined);
      const layout = standardLayout(elements);
      const vertex = elements.find((e) => e.name === 'vertex');
      const total = vertex && vertex.count > 0 ? vertex.count : 0;
      this.header = {
        total,
        bytes: dataStart + elements.reduce((n, e) => n + e.count * e.props.length * 4, 0),
      };
      if (!layout || !total) {
        this.streamable = false;
        this.head = [joined];
        return;
      }
      this.#layout = layout;
      this.head = [];
      this.#allocate(Math.min(total, this.#budget));
      chunk = joined.subarray(dataStart);
    } else if (!this.streamable) {
      this.head.push(chunk);
      return;
    }
    this.#records(chunk);
  }

  /** The stream ended: throws if the file was cut short. */
  finish(): void {
    if (!this.header)
      throw new ViewerError('corrupt_file', 'The PLY file ends inside its header; the file is damaged or cut short.');
    if (this.streamable && this.read < this.header.total)
      throw new ViewerError(
        'corrupt_file',
        `The PLY file is cut short: its header promises ${this.header.bytes} bytes, it has ${this.received}. Download it again.`,
      );
  }

  /**
   * A copy of the splats read so far as a .ksplat of just that many (a preview to draw: the
   * library sizes its textures and sort buffers by a buffer's capacity, so a preview built on the
   * whole scene's buffer would cost as much as the whole scene).
   */
  preview(): Uint8Array<ArrayBuffer> | undefined {
    if (!this.buffer) return undefined;
    const out = new Uint8Array(KSPLAT_DATA + this.count * KSPLAT_STRIDE);
    out.set(new Uint8Array(this.buffer, 0, out.byteLength));
    writeHeaders(out.buffer, this.count, this.count);
    return out;
  }

  /** A .ksplat of exactly the splats kept (headers saying `count`), for a cache or to show again. */
  compact(): Uint8Array | undefined {
    if (!this.buffer) return undefined;
    if (this.count === this.capacity) {
      // Full: the buffer itself (its headers already say so), no copy.
      writeHeaders(this.buffer, this.count, this.count);
      return new Uint8Array(this.buffer);
    }
    const out = this.preview()!;
    // Every record read: the exact copy becomes the buffer (the bigger one is freed once no
    // preview holds it), so the scene shown, its cache entry and compactScene() share one copy.
    if (this.header && this.read >= this.header.total) {
      this.capacity = this.count;
      this.buffer = out.buffer;
      this.#f32 = new Float32Array(this.buffer);
      this.#u8 = new Uint8Array(this.buffer);
    }
    return out;
  }

  #allocate(capacity: number): void {
    this.capacity = capacity;
    this.buffer = new ArrayBuffer(KSPLAT_DATA + capacity * KSPLAT_STRIDE);
    writeHeaders(this.buffer, capacity, 0);
    this.#f32 = new Float32Array(this.buffer);
    this.#u8 = new Uint8Array(this.buffer);
  }

  #records(chunk: Uint8Array): void {
    const layout = this.#layout!;
    const stride = layout.stride;
    let bytes = chunk;
    if (this.#carry.byteLength) {
      bytes = new Uint8Array(this.#carry.byteLength + chunk.byteLength);
      bytes.set(this.#carry);
      bytes.set(chunk, this.#carry.byteLength);
    }
    const total = this.header!.total;
    const n = Math.min(Math.floor(bytes.byteLength / stride), total - this.read);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const thin = total > this.capacity;
    if (thin) this.#retarget(view, n, layout);
    const f32 = this.#f32!;
    const u8 = this.#u8!;
    const [d0, d1, d2] = layout.dc;
    const [s0, s1, s2] = layout.scale;
    const [r0, r1, r2, r3] = layout.rot;
    for (let k = 0; k < n; k++) {
      const o = k * stride;
      const opacity = 1 / (1 + Math.exp(-view.getFloat32(o + layout.opacity, true)));
      const ls0 = view.getFloat32(o + s0, true);
      const ls1 = view.getFloat32(o + s1, true);
      const ls2 = view.getFloat32(o + s2, true);
      const alpha = Math.max(0, Math.min(255, Math.floor(opacity * 255)));
      // The library drops splats under an alpha of 1 anyway (splatAlphaRemovalThreshold).
      if (alpha < 1) continue;
      if (thin && this.#tau > 0) {
        this.#share += Math.min(1, importance(opacity, ls0, ls1, ls2) / this.#tau);
        if (this.#share < 1 - 1e-6) continue;
        this.#share -= 1;
      }
      if (this.count >= this.capacity) break;
      const x = view.getFloat32(o + layout.x, true);
      const y = view.getFloat32(o + layout.y, true);
      const z = view.getFloat32(o + layout.z, true);
      let qa = view.getFloat32(o + r0, true);
      let qb = view.getFloat32(o + r1, true);
      let qc = view.getFloat32(o + r2, true);
      let qd = view.getFloat32(o + r3, true);
      const len = Math.hypot(qa, qb, qc, qd);
      if (len > 0) {
        qa /= len;
        qb /= len;
        qc /= len;
        qd /= len;
      } else {
        qa = 1;
        qb = qc = qd = 0;
      }
      const base = KSPLAT_DATA + this.count * KSPLAT_STRIDE;
      const f = base / 4;
      f32[f] = x;
      f32[f + 1] = y;
      f32[f + 2] = z;
      f32[f + 3] = Math.exp(ls0);
      f32[f + 4] = Math.exp(ls1);
      f32[f + 5] = Math.exp(ls2);
      f32[f + 6] = qa;
      f32[f + 7] = qb;
      f32[f + 8] = qc;
      f32[f + 9] = qd;
      u8[base + 40] = byte(0.5 + SH_C0 * view.getFloat32(o + d0, true));
      u8[base + 41] = byte(0.5 + SH_C0 * view.getFloat32(o + d1, true));
      u8[base + 42] = byte(0.5 + SH_C0 * view.getFloat32(o + d2, true));
      u8[base + 43] = alpha;
      this.#sampleCentre(x, y, z);
      this.count++;
    }
    this.read += n;
    const rest = this.read >= total ? 0 : bytes.byteLength - n * stride;
    this.#carry = rest > 0 ? bytes.slice(bytes.byteLength - rest) : new Uint8Array(0);
  }

  /**
   * Sets τ for the next records: the budget left, spread over the splats left, given the weights
   * seen so far (the first chunk's, then a reservoir of everything read).
   */
  #retarget(view: DataView, n: number, layout: Layout): void {
    const [s0, s1, s2] = layout.scale;
    const step = Math.max(1, Math.floor(n / 256));
    for (let k = 0; k < n; k += step) {
      const o = k * layout.stride;
      const w = importance(
        1 / (1 + Math.exp(-view.getFloat32(o + layout.opacity, true))),
        view.getFloat32(o + s0, true),
        view.getFloat32(o + s1, true),
        view.getFloat32(o + s2, true),
      );
      const seen = this.#weightsSeen++;
      if (this.#weightsCount < WEIGHT_SAMPLE) this.#weights[this.#weightsCount++] = w;
      else {
        const j = Math.floor(coin(seen ^ 0x5bd1e995) * (seen + 1));
        if (j < WEIGHT_SAMPLE) this.#weights[j] = w;
      }
    }
    // τ again every 1/64 of the file (a bisection over the sample is not free).
    if (this.read < this.#nextRetarget) return;
    this.#nextRetarget = this.read + n + Math.max(4096, Math.floor(this.header!.total / 64));
    const left = this.header!.total - this.read;
    const rate = (this.capacity - this.count) / Math.max(1, left);
    this.#tau = threshold(this.#weights, this.#weightsCount, rate);
  }

  #sampleCentre(x: number, y: number, z: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) return;
    const seen = this.#seenCentres++;
    let slot = seen;
    if (seen >= SAMPLE) {
      slot = Math.floor(coin(seen ^ 0x27d4eb2f) * (seen + 1));
      if (slot >= SAMPLE) return;
    } else this.centresCount++;
    this.centres[slot * 3] = x;
    this.centres[slot * 3 + 1] = y;
    this.centres[slot * 3 + 2] = z;
  }
}
