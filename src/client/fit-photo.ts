/**
 * Photos made to fit, in the browser, before anything is spent (one behaviour for
 * <headshot-studio>, <bg-tool> and <model-generator>). The API takes JPG, PNG and WebP up to
 * 12 MB; phones make HEIC and 15-30 MB JPEGs. A photo is read by its bytes, decoded (HEIC/HEIF and
 * AVIF by the browser where it can, else HEIC by a WebAssembly decoder fetched only then), drawn
 * upright (EXIF orientation applied), and re-encoded only when it must be: a format the API does
 * not take, an EXIF turn, more than 12 MB, or more pixels than the element's limit. Opaque photos
 * become JPEG at the best quality that fits; a photo with transparency stays PNG (or WebP when a
 * PNG cannot fit), so the transparency is kept. A file that cannot be read is refused with a
 * ValidationError that names the problem and what to do. The element imports this module when a
 * photo is chosen, never with the page.
 */
import { LIMITS, sniffImage, type ImageFormat } from '../api/index.js';
import { refuse } from './validate.js';
import { validateImage, type CheckedImage } from './validate-input.js';

/** What an element allows beyond the API's 12 MB: a pixel count and a longer side. */
export interface PhotoLimits {
  maxPixels?: number;
  maxSide?: number;
}

/** What was done to a photo to make it fit (the facts line says it). */
export interface PhotoFit {
  /** The format it came in, by its bytes. */
  from: 'heic' | 'avif' | ImageFormat;
  fromWidth: number;
  fromHeight: number;
  fromBytes: number;
  /** Whether an EXIF orientation was drawn into the pixels. */
  turned: boolean;
}

export interface FittedPhoto {
  /** The file to send: the one chosen, or its converted copy. */
  file: File;
  checked: CheckedImage;
  /** Set when the file was converted. */
  fit?: PhotoFit;
}

/** JPEG qualities tried in turn before a photo is made smaller. */
const QUALITIES = [0.92, 0.85, 0.75, 0.6];

/** Reads, checks and where needed converts `file`; `field` names it in a refusal. */
export async function fitPhoto(file: File, field: string, limits: PhotoLimits = {}): Promise<FittedPhoto> {
  if (file.size === 0) refuse('invalid_request', field, `${field} is empty. Choose the image again.`, 'empty');
  const head = new Uint8Array(await file.slice(0, 64).arrayBuffer());
  const format = sniffImage(head);
  const heif = format ? undefined : sniffHeif(head);
  if (!format && !heif)
    refuse(
      'invalid_request',
      field,
      `${field} is not a JPG, PNG, WebP or HEIC image (judged by its contents, not its name). Save it in one of those formats.`,
      'not_image',
    );
  const turned = format === 'jpeg' && (await exifOrientation(file)) > 1;
  if (format && !turned && file.size <= LIMITS.image.maxBytes) {
    const checked = await validateImage(file, field);
    if (!overLimits(checked.width, checked.height, limits)) return { file, checked };
  }
  const bitmap = await decode(file, field, format ?? heif!);
  try {
    const fit: PhotoFit = {
      from: format ?? heif!,
      fromWidth: bitmap.width,
      fromHeight: bitmap.height,
      fromBytes: file.size,
      turned,
    };
    const out = await encode(bitmap, limits, format === 'png' || format === 'webp');
    if (!out)
      refuse(
        'invalid_request',
        field,
        `${field} could not be made smaller than 12 MB in this browser. Save it as a JPEG and choose the new file.`,
        'too_large',
        { bytes: file.size, max: LIMITS.image.maxBytes },
      );
    const { blob, width, height, type } = out!;
    const ext = type === 'image/png' ? 'png' : type === 'image/webp' ? 'webp' : 'jpg';
    const name = (file.name || 'photo').replace(/\.[^.]*$/, '') + '.' + ext;
    const converted = new File([blob], name, { type, lastModified: file.lastModified });
    const outFormat: ImageFormat = ext === 'jpg' ? 'jpeg' : ext;
    return { file: converted, checked: { format: outFormat, bytes: converted.size, width, height }, fit };
  } finally {
    bitmap.close();
  }
}

function overLimits(width: number, height: number, limits: PhotoLimits): boolean {
  return (
    (limits.maxPixels !== undefined && width * height > limits.maxPixels) ||
    (limits.maxSide !== undefined && Math.max(width, height) > limits.maxSide)
  );
}

/** HEIC/HEIF or AVIF by the ISO-BMFF `ftyp` box and its brands. */
export function sniffHeif(head: Uint8Array): 'heic' | 'avif' | undefined {
  if (head.length < 16 || String.fromCharCode(...head.subarray(4, 8)) !== 'ftyp') return undefined;
  const size = Math.min(head.length, (head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!);
  const brands: string[] = [];
  for (let i = 8; i + 4 <= size; i += 4) if (i !== 12) brands.push(String.fromCharCode(...head.subarray(i, i + 4)));
  if (brands.some((b) => b === 'avif' || b === 'avis')) return 'avif';
  if (brands.some((b) => ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(b))) return 'heic';
  return undefined;
}

/** The EXIF orientation (1-8) of a JPEG, 1 when it has none. Reads the first 128 KB at most. */
export async function exifOrientation(file: Blob): Promise<number> {
  const b = new DataView(await file.slice(0, 128 * 1024).arrayBuffer());
  let o = 2;
  while (o + 4 <= b.byteLength && b.getUint8(o) === 0xff) {
    const marker = b.getUint8(o + 1);
    const length = b.getUint16(o + 2);
    if (marker === 0xda || marker === 0xd9) break;
    // APP1 "Exif\0\0" then a TIFF header: byte order, 42, offset of IFD0.
    if (marker === 0xe1 && o + 10 <= b.byteLength && b.getUint32(o + 4) === 0x45786966) {
      const tiff = o + 10;
      if (tiff + 8 > b.byteLength) return 1;
      const little = b.getUint16(tiff) === 0x4949;
      const ifd = tiff + b.getUint32(tiff + 4, little);
      if (ifd + 2 > b.byteLength) return 1;
      const count = b.getUint16(ifd, little);
      for (let i = 0; i < count; i++) {
        const entry = ifd + 2 + i * 12;
        if (entry + 12 > b.byteLength) return 1;
        if (b.getUint16(entry, little) === 0x0112) {
          const v = b.getUint16(entry + 8, little);
          return v >= 1 && v <= 8 ? v : 1;
        }
      }
      return 1;
    }
    o += 2 + length;
  }
  return 1;
}

/**
 * Decodes upright. HEIC and AVIF go to the browser first (Safari decodes HEIC, Chromium AVIF);
 * HEIC it cannot decode goes to libheif (WebAssembly, in a worker), loaded now and only now.
 */
async function decode(file: File, field: string, format: 'heic' | 'avif' | ImageFormat): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    // Not decodable natively: HEIC has a fallback below; anything else is refused.
  }
  if (format === 'heic') {
    try {
      const { heicTo } = await import('heic-to');
      return await heicTo({ blob: file, type: 'bitmap', options: { imageOrientation: 'from-image' } });
    } catch {
      refuse(
        'invalid_request',
        field,
        `${field} is a HEIC photo that cannot be decoded; it may be damaged. Export it as JPEG (on an iPhone: Settings > Camera > Formats > Most Compatible) and choose the new file.`,
        'undecodable',
      );
    }
  }
  const name = format === 'avif' ? 'AVIF' : format === 'jpeg' ? 'JPG' : format.toUpperCase();
  return refuse(
    'invalid_request',
    field,
    `${field} looks like a ${name} but cannot be decoded; it may be damaged. Save it again.`,
    'undecodable',
  );
}

interface Encoded {
  blob: Blob;
  width: number;
  height: number;
  type: string;
}

/**
 * Draws the photo at most at the element's limits and encodes it under 12 MB: JPEG when it is
 * opaque (qualities from 0.92 down), PNG then WebP when it has transparency; a quarter fewer
 * pixels per round when nothing fits. Undefined when nothing fits in eight rounds.
 */
async function encode(bitmap: ImageBitmap, limits: PhotoLimits, mayHaveAlpha: boolean): Promise<Encoded | undefined> {
  const { width: w0, height: h0 } = bitmap;
  let k = Math.min(
    1,
    limits.maxPixels ? Math.sqrt(limits.maxPixels / (w0 * h0)) : 1,
    limits.maxSide ? limits.maxSide / Math.max(w0, h0) : 1,
  );
  let alpha: boolean | undefined;
  for (let round = 0; round < 8; round++, k *= Math.sqrt(0.75)) {
    const width = Math.max(1, Math.floor(w0 * k));
    const height = Math.max(1, Math.floor(h0 * k));
    const canvas = new OffscreenCanvas(width, height);
    const ctx = canvas.getContext('2d', { alpha: mayHaveAlpha })!;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(bitmap, 0, 0, width, height);
    alpha ??= mayHaveAlpha && hasTransparency(ctx, width, height);
    const tries: ImageEncodeOptions[] = alpha
      ? [{ type: 'image/png' }, { type: 'image/webp', quality: 0.9 }]
      : QUALITIES.map((quality) => ({ type: 'image/jpeg', quality }));
    for (const options of tries) {
      const blob = await canvas.convertToBlob(options);
      // A browser without a WebP encoder answers PNG: not what was asked, try smaller instead.
      if (blob.type === options.type && blob.size <= LIMITS.image.maxBytes)
        return { blob, width, height, type: blob.type };
    }
  }
  return undefined;
}

function hasTransparency(ctx: OffscreenCanvasRenderingContext2D, width: number, height: number): boolean {
  // In bands, so a 48 MP photo never holds a second full copy of its pixels.
  const band = Math.max(1, Math.floor(4_000_000 / width));
  for (let y = 0; y < height; y += band) {
    const data = ctx.getImageData(0, y, width, Math.min(band, height - y)).data;
    for (let i = 3; i < data.length; i += 4) if (data[i]! < 255) return true;
  }
  return false;
}
