/**
 * Pixels in a browser or a Service Worker for the browser's image artifact makers (images.ts):
 * decoding (createImageBitmap, which applies EXIF orientation), drawing, cropping and scaling RGBA
 * (straight alpha), and encoding. PNGs are written here (exact pixels: a canvas keeps
 * premultiplied alpha, which would round the colours of soft edges); JPEGs come from the canvas's
 * encoder.
 */
import type { Box } from '../artifacts/mask.js';

export async function decode(bytes: Uint8Array): Promise<ImageBitmap> {
  try {
    // createImageBitmap rejects an image that does not decode to its last row (checked for
    // truncated PNG, JPEG and WebP), unlike an <img>, which shows what arrived.
    return await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]), { imageOrientation: 'from-image' });
  } catch {
    throw new Error('The image could not be decoded (the file is damaged, truncated or not an image).');
  }
}

export function canvas(width: number, height: number): [OffscreenCanvas, OffscreenCanvasRenderingContext2D] {
  const c = new OffscreenCanvas(width, height);
  const ctx = c.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('No 2D canvas.');
  ctx.imageSmoothingQuality = 'high';
  return [c, ctx];
}

/** RGBA pixels (straight alpha) of an image drawn at `width` x `height`. */
export function draw(source: CanvasImageSource, width: number, height: number): Uint8Array {
  const [, ctx] = canvas(width, height);
  ctx.drawImage(source, 0, 0, width, height);
  return bytesOf(ctx.getImageData(0, 0, width, height).data);
}

function bytesOf(data: Uint8ClampedArray): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

export function imageData(rgba: Uint8Array, width: number, height: number): ImageData {
  return new ImageData(
    new Uint8ClampedArray(rgba.buffer as ArrayBuffer, rgba.byteOffset, rgba.byteLength),
    width,
    height,
  );
}

export function extract(rgba: Uint8Array, width: number, box: Box): Uint8Array {
  const out = new Uint8Array(box.width * box.height * 4);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.top + y) * width + box.left) * 4;
    out.set(rgba.subarray(from, from + box.width * 4), y * box.width * 4);
  }
  return out;
}

export async function resize(
  rgba: Uint8Array,
  width: number,
  height: number,
  w: number,
  h: number,
): Promise<Uint8Array> {
  // Scaled premultiplied (createImageBitmap's default), as sharp does, so transparent pixels'
  // colours do not bleed into the subject's edge.
  const bitmap = await createImageBitmap(imageData(rgba, width, height), {
    resizeWidth: w,
    resizeHeight: h,
    resizeQuality: 'high',
  });
  try {
    return draw(bitmap, w, h);
  } finally {
    bitmap.close();
  }
}

/** Puts a colour behind the pixels (alpha becomes opaque). */
export function flatten(rgba: Uint8Array, [r, g, b]: [number, number, number]): void {
  for (let i = 0; i < rgba.length; i += 4) {
    const a = rgba[i + 3]! / 255;
    rgba[i] = Math.round(rgba[i]! * a + r * (1 - a));
    rgba[i + 1] = Math.round(rgba[i + 1]! * a + g * (1 - a));
    rgba[i + 2] = Math.round(rgba[i + 2]! * a + b * (1 - a));
    rgba[i + 3] = 255;
  }
}

/** JPEG of RGBA pixels, their alpha ignored (as Node's removeAlpha()). */
export async function jpeg(rgba: Uint8Array, width: number, height: number, quality: number): Promise<Uint8Array> {
  const opaque = new Uint8ClampedArray(rgba);
  for (let i = 3; i < opaque.length; i += 4) opaque[i] = 255;
  const c = new OffscreenCanvas(width, height);
  const ctx = c.getContext('2d');
  if (!ctx) throw new Error('No 2D canvas.');
  ctx.putImageData(new ImageData(opaque, width, height), 0, 0);
  const blob = await c.convertToBlob({ type: 'image/jpeg', quality: quality / 100 });
  return new Uint8Array(await blob.arrayBuffer());
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 255]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * PNG of RGBA pixels, written as RGB when every pixel is opaque: Paeth-filtered rows deflated by
 * CompressionStream (zlib format, which is what IDAT holds).
 */
export async function png(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Promise<Uint8Array> {
  let opaque = true;
  for (let i = 3; i < rgba.length; i += 4)
    if (rgba[i] !== 255) {
      opaque = false;
      break;
    }
  const bpp = opaque ? 3 : 4;
  let pixels: Uint8Array | Uint8ClampedArray = rgba;
  if (opaque) {
    pixels = new Uint8Array(width * height * 3);
    for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
      pixels[j] = rgba[i]!;
      pixels[j + 1] = rgba[i + 1]!;
      pixels[j + 2] = rgba[i + 2]!;
    }
  }
  const stride = width * bpp;
  const filtered = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * stride,
      prev = row - stride,
      o = y * (stride + 1);
    filtered[o] = 4; // Paeth
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? pixels[row + i - bpp]! : 0;
      const b = y > 0 ? pixels[prev + i]! : 0;
      const c = i >= bpp && y > 0 ? pixels[prev + i - bpp]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a),
        pb = Math.abs(p - b),
        pc = Math.abs(p - c);
      const predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      filtered[o + 1 + i] = (pixels[row + i]! - predictor) & 255;
    }
  }
  const deflated = new Uint8Array(
    await new Response(new Blob([filtered]).stream().pipeThrough(new CompressionStream('deflate'))).arrayBuffer(),
  );
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header[8] = 8; // bits per channel
  header[9] = opaque ? 2 : 6; // RGB or RGBA
  const chunks = [chunk('IHDR', header), chunk('IDAT', deflated), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(8 + chunks.reduce((n, c) => n + c.length, 0));
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let at = 8;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length + 12);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(data.length + 8, crc32(out.subarray(4, data.length + 8)));
  return out;
}
