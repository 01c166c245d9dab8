/**
 * Format detection from bytes, never from names or declared types (spec "Limits": formats).
 * Shared by the client (before upload) and the sandbox (on receipt).
 */
import type { ImageFormat } from './limits.js';

/** JPEG (FF D8 FF), PNG (89 50 4E 47 0D 0A 1A 0A) or WebP (RIFF....WEBP); undefined otherwise. */
export function sniffImage(head: Uint8Array): ImageFormat | undefined {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length >= 8 && png.every((b, i) => head[i] === b)) return 'png';
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/**
 * ISO-BMFF (MP4/MOV): bytes 4..7 are `ftyp`, the major brand follows. Some QuickTime files start
 * with `moov`/`mdat`/`wide`/`free` instead of `ftyp`; those are accepted as MOV too.
 */
export function sniffVideo(head: Uint8Array): 'mp4' | 'mov' | undefined {
  if (head.length < 12) return undefined;
  const box = ascii(head, 4, 8);
  if (box === 'ftyp') return ascii(head, 8, 12) === 'qt  ' ? 'mov' : 'mp4';
  if (box === 'moov' || box === 'mdat' || box === 'wide' || box === 'free') return 'mov';
  return undefined;
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}
