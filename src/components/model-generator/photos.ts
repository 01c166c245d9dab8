/**
 * The photos of a 3D job: each made to fit before spending (the kit's shared conversion: format
 * by its contents, HEIC decoded, EXIF turn applied, at most 12 MB and TARGET_SIDE px on the longer
 * side), kept in the user's order with an optional view label. Photos given as URLs are sent as
 * they are (the service fetches them).
 */
import type { ImageFormat } from '../../api/index.js';
import { fitChosenPhoto, type PhotoFit } from '../shared/photo-fit.js';

export type View = '' | 'front' | 'back' | 'left' | 'right' | 'top';
export const VIEWS: readonly View[] = ['', 'front', 'back', 'left', 'right', 'top'];
/** The string that names each view in the view menu. */
export const VIEW_LABELS = {
  '': 'mgViewNone',
  front: 'mgViewFront',
  back: 'mgViewBack',
  left: 'mgViewLeft',
  right: 'mgViewRight',
  top: 'mgViewTop',
} as const;

/** The longer side a photo is scaled to when it has more (the high quality texture is 2048 px). */
export const TARGET_SIDE = 4096;

export interface Photo {
  /** Stable key for rendering and reordering. */
  key: string;
  /** The file (the one chosen, or its converted copy once checked), or a URL the service fetches. */
  source: File | string;
  name: string;
  /** For the thumbnail: a blob: URL of the file, or the URL itself. */
  thumb: string;
  view: View;
  state: 'checking' | 'ok';
  width: number;
  height: number;
  bytes: number;
  format: ImageFormat | undefined;
  /** What was done to the file to make it fit (undefined when it is sent as chosen). */
  fit?: PhotoFit;
}

let n = 0;

/** A new entry for a file or URL, in the `checking` state. */
export function newPhoto(source: File | string): Photo {
  const isFile = typeof source !== 'string';
  return {
    key: `p${++n}`,
    source,
    name: isFile ? source.name || 'photo' : source.split('/').pop()?.split('?')[0] || 'photo',
    // A file is shown once checked, from the file that is sent (a HEIC original shows in no <img>).
    thumb: isFile ? '' : source,
    view: '',
    state: isFile ? 'checking' : 'ok',
    width: 0,
    height: 0,
    bytes: isFile ? source.size : 0,
    format: undefined,
  };
}

/**
 * Checks a photo's file and makes it fit. Resolves with the entry as it should now be (`ok`, its
 * source the file to send); throws the ValidationError of a file that cannot be used at all (not
 * an image, damaged, empty).
 */
export async function checkPhoto(photo: Photo): Promise<Photo> {
  if (typeof photo.source === 'string') return { ...photo, state: 'ok' };
  const { file, checked, fit } = await fitChosenPhoto(photo.source, photo.name, { maxSide: TARGET_SIDE });
  return {
    ...photo,
    source: file,
    thumb: URL.createObjectURL(file),
    width: checked.width,
    height: checked.height,
    bytes: checked.bytes,
    format: checked.format,
    state: 'ok',
    ...(fit ? { fit } : {}),
  };
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
