/**
 * The photos of a 3D job: each checked before spending (bytes, format by its contents, a decode),
 * kept in the user's order with an optional view label, and an oversized one made smaller in the
 * browser on request. Photos given as URLs are sent as they are (the service fetches them).
 */
import { LIMITS, sniffImage, type ImageFormat } from '../../api/index.js';
import { ValidationError } from '../../client/validate.js';
import { validateImage } from '../../client/validate-input.js';

export type View = '' | 'front' | 'back' | 'left' | 'right' | 'top';
export const VIEWS: readonly View[] = ['', 'front', 'back', 'left', 'right', 'top'];

/** Past this many pixels on a side a photo is only slow to send and to decode: offered a downscale. */
export const HUGE_SIDE = 8192;
/** The longer side a downscale aims for (the high quality texture is 2048 px). */
export const TARGET_SIDE = 4096;

export interface Photo {
  /** Stable key for rendering and reordering. */
  key: string;
  /** The file, or a URL the service fetches. */
  source: File | string;
  name: string;
  /** For the thumbnail: a blob: URL of the file, or the URL itself. */
  thumb: string;
  view: View;
  state: 'checking' | 'ok' | 'oversized' | 'downscaling';
  width: number;
  height: number;
  bytes: number;
  format: ImageFormat | undefined;
  /** Set after a downscale: what it became. */
  downscaled?: { width: number; height: number; bytes: number };
}

let n = 0;

/** A new entry for a file or URL, in the `checking` state. */
export function newPhoto(source: File | string): Photo {
  const isFile = typeof source !== 'string';
  return {
    key: `p${++n}`,
    source,
    name: isFile ? source.name || 'photo' : source.split('/').pop()?.split('?')[0] || 'photo',
    thumb: isFile ? URL.createObjectURL(source) : source,
    view: '',
    state: isFile ? 'checking' : 'ok',
    width: 0,
    height: 0,
    bytes: isFile ? source.size : 0,
    format: undefined,
  };
}

/**
 * Checks a photo's file. Resolves with the entry as it should now be (`ok` or `oversized`);
 * throws the ValidationError of a file that cannot be used at all (not an image, damaged, empty).
 */
export async function checkPhoto(photo: Photo): Promise<Photo> {
  if (typeof photo.source === 'string') return { ...photo, state: 'ok' };
  const file = photo.source;
  try {
    const c = await validateImage(file, photo.name);
    const huge = Math.max(c.width, c.height) > HUGE_SIDE;
    return {
      ...photo,
      width: c.width,
      height: c.height,
      bytes: c.bytes,
      format: c.format,
      state: huge ? 'oversized' : 'ok',
    };
  } catch (err) {
    if (!(err instanceof ValidationError) || err.reason !== 'too_large') throw err;
    // Too many bytes is fixable here: read what it is, then offer to make it smaller.
    const { width, height, format } = await measure(file);
    return { ...photo, width, height, format, bytes: file.size, state: 'oversized' };
  }
}

async function measure(file: File): Promise<{ width: number; height: number; format: ImageFormat }> {
  const format = sniffImage(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  if (!format)
    throw new ValidationError(
      'invalid_request',
      file.name,
      `${file.name} is not a JPG, PNG or WebP image.`,
      'not_image',
    );
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return { ...size, format };
  } catch {
    throw new ValidationError('invalid_request', file.name, `${file.name} cannot be decoded.`, 'undecodable');
  }
}

/**
 * A smaller copy of a photo, in the browser: drawn upright (EXIF orientation applied by
 * `createImageBitmap`'s `imageOrientation: 'from-image'`, since the copy carries no EXIF), at most
 * TARGET_SIDE px on the longer side and under the 12 MB limit, in the same format (PNG keeps its
 * transparency), or JPEG when a PNG cannot get under the limit.
 */
export async function downscale(file: File, format: ImageFormat | undefined, signal?: AbortSignal): Promise<File> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    let side = Math.min(TARGET_SIDE, Math.max(bitmap.width, bitmap.height));
    let type = format === 'png' ? 'image/png' : format === 'webp' ? 'image/webp' : 'image/jpeg';
    for (let attempt = 0; attempt < 8; attempt++) {
      signal?.throwIfAborted();
      const scale = side / Math.max(bitmap.width, bitmap.height);
      const w = Math.max(1, Math.round(bitmap.width * scale));
      const h = Math.max(1, Math.round(bitmap.height * scale));
      const canvas = new OffscreenCanvas(w, h);
      const ctx = canvas.getContext('2d')!;
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(bitmap, 0, 0, w, h);
      const blob = await canvas.convertToBlob(type === 'image/png' ? { type } : { type, quality: 0.9 });
      if (blob.size <= LIMITS.image.maxBytes && blob.type === type) {
        const ext = type === 'image/png' ? 'png' : type === 'image/webp' ? 'webp' : 'jpg';
        return new File([blob], file.name.replace(/\.[^.]*$/, '') + '-smaller.' + ext, { type });
      }
      // A browser without a WebP encoder answers PNG; a PNG too big even at this size: JPEG.
      if (blob.type !== type || type === 'image/png') type = 'image/jpeg';
      else side = Math.round(side * 0.75);
    }
    throw new ValidationError(
      'invalid_request',
      file.name,
      `${file.name} could not be made small enough.`,
      'too_large',
      { bytes: file.size, max: LIMITS.image.maxBytes },
    );
  } finally {
    bitmap.close();
  }
}

/** A small JPEG of the first photo for the history list (kept in Cache Storage, never sent). */
export async function thumbnail(source: File | string): Promise<Blob | undefined> {
  if (typeof source === 'string') return undefined;
  try {
    const bitmap = await createImageBitmap(source, {
      imageOrientation: 'from-image',
      resizeWidth: 160,
      resizeQuality: 'medium',
    });
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
    bitmap.close();
    return await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.8 });
  } catch {
    return undefined;
  }
}

/** Moves the item at `from` to `to` (a new array). */
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(next.length, to)), 0, item!);
  return next;
}
