/**
 * The splat library's .ksplat form that a streamed PLY is written into (SplatBuffer layout 0.4.x,
 * compression level 0, no spherical harmonics): its sizes and headers, and the byte a colour or an
 * opacity is stored as.
 */
import { KSPLAT_HEADER, KSPLAT_SECTION_HEADER } from './splat-formats.js';

/** The SplatBuffer layout (0.4.x): headers, and the bytes a splat at level 0 with degree-0 SH. */
export const KSPLAT_DATA = KSPLAT_HEADER + KSPLAT_SECTION_HEADER;
export const KSPLAT_STRIDE = 44;
export const SH_C0 = 0.28209479177387814;

/** A value in [0, 1] as a byte. */
export function byte(v: number): number {
  return Math.max(0, Math.min(255, Math.floor(v * 255)));
}

/**
 * The .ksplat headers (SplatBuffer.writeHeaderToBuffer and writeSectionHeaderToBuffer at level 0):
 * version 0.1, one section of `capacity` splats, `count` of them loaded.
 */
export function writeHeaders(buffer: ArrayBufferLike, capacity: number, count: number): void {
  const u8 = new Uint8Array(buffer, 0, KSPLAT_HEADER);
  const u16 = new Uint16Array(buffer, 0, KSPLAT_HEADER / 2);
  const u32 = new Uint32Array(buffer, 0, KSPLAT_HEADER / 4);
  const f32 = new Float32Array(buffer, 0, KSPLAT_HEADER / 4);
  u8[0] = 0;
  u8[1] = 1;
  u32[1] = 1; // max sections
  u32[2] = 1; // sections
  u32[3] = capacity;
  u32[4] = count;
  u16[10] = 0; // compression level
  f32[6] = f32[7] = f32[8] = 0; // scene centre
  f32[9] = -1.5; // SH range (unused at degree 0), the library's defaults
  f32[10] = 1.5;
  const s32 = new Uint32Array(buffer, KSPLAT_HEADER, KSPLAT_SECTION_HEADER / 4);
  const s16 = new Uint16Array(buffer, KSPLAT_HEADER, KSPLAT_SECTION_HEADER / 2);
  s32.fill(0);
  s32[0] = count;
  s32[1] = capacity;
  s32[7] = capacity * KSPLAT_STRIDE; // storage size
  s16[20] = 0; // SH degree
}
