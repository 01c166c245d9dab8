/**
 * The browser's image artifact makers (issue 23): the same pictures, sizes and rules as Node's
 * (../artifacts/{background,headshot,image-tool,reference,relief,glb-stats}.ts, sharp), whose
 * platform-free halves they share (../artifacts/{mask,headshot-looks,image-tool-rules,
 * reference-layout,relief-mesh,glb-count}.ts). They run in a Service Worker as well as in a page,
 * so they use only what workers have: createImageBitmap (which decodes the whole image and applies
 * its EXIF orientation), OffscreenCanvas 2D, Blob and CompressionStream. PNGs are written here
 * (exact pixels: a canvas keeps premultiplied alpha, which would round the colours of soft edges);
 * JPEGs come from the canvas's encoder.
 */
import { WebIO } from '@gltf-transform/core';
import type { HeadshotStyle, ModelStats, VariantSlot } from '../../api/index.js';
import {
  NoSubjectError,
  type Cutout,
  type HeadshotImage,
  type ImageToolOptions,
  type ImageToolOutput,
  type Relief,
  type ReliefFace,
  type ReliefOptions,
} from '../platform.js';
import { countStats } from '../artifacts/glb-count.js';
import {
  BACKDROP_GRADIENT,
  HEADSHOT_SIZE,
  LOOKS,
  TURN,
  WARM,
  headshotFrame,
  hex,
  slotGrade,
  tintOutfit,
} from '../artifacts/headshot-looks.js';
import { JPEG_QUALITY, contentTypeOf, flattenColour, outputSize } from '../artifacts/image-tool-rules.js';
import { applyMask, featherMask, scaleMask, segment, workSize, type Box } from '../artifacts/mask.js';
import { BODY_GRADIENT, REFERENCE_BACKGROUND, conePoints, referenceLayout } from '../artifacts/reference-layout.js';
import {
  GRID,
  TEXTURE_JPEG_QUALITY,
  panelGeometry,
  reliefDocument,
  reliefShape,
  type TexturedPanel,
} from '../artifacts/relief-mesh.js';

/** The size of an image that decodes completely; throws when it does not (damaged or truncated). */
export async function decodeSize(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  const bitmap = await decode(bytes);
  const size = { width: bitmap.width, height: bitmap.height };
  bitmap.close();
  return size;
}

/** Background removal: ../artifacts/mask.ts on a work copy, the mask feathered and scaled to full size. */
export async function removeBackground(image: Uint8Array): Promise<Cutout> {
  const bitmap = await decode(image);
  const { width, height } = bitmap;
  const { w, h } = workSize(width, height);
  let rgba: Uint8Array;
  let small: Uint8Array;
  try {
    rgba = draw(bitmap, width, height);
    small = w === width && h === height ? rgba : draw(bitmap, w, h);
  } finally {
    bitmap.close();
  }
  const mask = segment(small, w, h, 4);
  const box = applyMask(rgba, scaleMask(featherMask(mask, w, h), w, h, width, height), width, height);
  return { rgba, width, height, box };
}

/** PNG of RGBA pixels. */
export function encodePng(rgba: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  return png(rgba, width, height);
}

export async function renderHeadshot(cut: Cutout, style: HeadshotStyle, slot: VariantSlot): Promise<HeadshotImage> {
  const look = LOOKS[style];
  const size = HEADSHOT_SIZE;
  const { left, top, side } = headshotFrame(cut, slot);
  // The square may reach past the photo: drawImage clips the source and the destination alike, so
  // the padding stays transparent.
  const source = await cutoutBitmap(cut);
  const [layer, lx] = canvas(size, size);
  lx.drawImage(source, left, top, side, side, 0, 0, size, size);
  const person = lx.getImageData(0, 0, size, size);
  tintOutfit(person.data, size, look, slot);
  grade(person.data, slotGrade(look, slot), slot === 1 ? WARM : undefined);
  lx.putImageData(person, 0, 0);

  const [, ctx] = canvas(size, size);
  const [from, to] = look.backdrop;
  const g = ctx.createRadialGradient(
    (size * BACKDROP_GRADIENT.cx) / 100,
    (size * BACKDROP_GRADIENT.cy) / 100,
    0,
    (size * BACKDROP_GRADIENT.cx) / 100,
    (size * BACKDROP_GRADIENT.cy) / 100,
    (size * BACKDROP_GRADIENT.r) / 100,
  );
  g.addColorStop(0, from);
  g.addColorStop(1, to);
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, size, size);
  if (slot === 1) {
    // A three-quarter turn: sharp's affine gives a layer as wide as the sheared square, which Node
    // then scales back to the square; one transform here does both.
    const k = size / Math.round(size * (TURN.a + TURN.c));
    ctx.setTransform(TURN.a * k, 0, TURN.c * k, 1, 0, 0);
  }
  ctx.drawImage(layer, 0, 0);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  return { png: await png(ctx.getImageData(0, 0, size, size).data, size, size), width: size, height: size };
}

/** Background removal with the image tool's output options; throws `NoSubjectError`. */
export async function runImageTool(image: Uint8Array, options: ImageToolOptions): Promise<ImageToolOutput> {
  const cut = await removeBackground(image);
  if (!cut.box) throw new NoSubjectError('no subject');
  const region: Box = options.crop ? cut.box : { left: 0, top: 0, width: cut.width, height: cut.height };
  let rgba = options.crop ? extract(cut.rgba, cut.width, region) : cut.rgba;
  const out = outputSize(region.width, region.height, options.size);
  if (out.scaled) rgba = await resize(rgba, region.width, region.height, out.width, out.height);
  const background = flattenColour(options);
  if (background) flatten(rgba, hex(background));
  const bytes =
    options.format === 'jpg'
      ? await jpeg(rgba, out.width, out.height, JPEG_QUALITY)
      : await png(rgba, out.width, out.height);
  return { bytes, width: out.width, height: out.height, contentType: contentTypeOf(options.format) };
}

/** The prompt's reference picture (3D generation from text), a PNG: ../artifacts/reference-layout.ts drawn on a canvas. */
export async function renderReference(prompt: string, seed: number, size: number): Promise<Uint8Array> {
  const layout = referenceLayout(prompt, seed, size);
  const { cx, cy, r, kind, body, accent, shadow } = layout;
  const [, ctx] = canvas(size, size);
  ctx.fillStyle = REFERENCE_BACKGROUND;
  ctx.fillRect(0, 0, size, size);
  ctx.globalAlpha = 0.15;
  ctx.fillStyle = '#000';
  ctx.beginPath();
  ctx.ellipse(shadow.cx, shadow.cy, shadow.rx, shadow.ry, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.globalAlpha = 1;

  ctx.beginPath();
  let box: Box;
  if (kind === 0) {
    ctx.arc(cx, cy, r, 0, Math.PI * 2);
    box = { left: cx - r, top: cy - r, width: 2 * r, height: 2 * r };
  } else if (kind === 1) {
    ctx.roundRect(cx - r, cy - r, 2 * r, 2 * r, r * 0.2);
    box = { left: cx - r, top: cy - r, width: 2 * r, height: 2 * r };
  } else {
    const points = conePoints(layout);
    points.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.closePath();
    box = { left: cx - r, top: cy - r * 1.2, width: 2 * r, height: r * 2.2 };
  }
  // SVG's objectBoundingBox gradient: drawn in the shape's box scaled to a unit square (the path
  // was set before the transform, so only the gradient is scaled).
  ctx.save();
  ctx.translate(box.left, box.top);
  ctx.scale(box.width, box.height);
  const g = ctx.createRadialGradient(
    BODY_GRADIENT.cx,
    BODY_GRADIENT.cy,
    0,
    BODY_GRADIENT.cx,
    BODY_GRADIENT.cy,
    BODY_GRADIENT.r,
  );
  for (const stop of BODY_GRADIENT.stops)
    g.addColorStop(stop.offset, withOpacity(stop.colour === 'body' ? body : stop.colour, stop.opacity));
  ctx.fillStyle = g;
  ctx.fill();
  ctx.restore();

  ctx.globalAlpha = 0.8;
  ctx.fillStyle = accent;
  for (const spot of layout.spots) {
    ctx.beginPath();
    ctx.arc(spot.x, spot.y, spot.r, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.globalAlpha = 1;
  return png(ctx.getImageData(0, 0, size, size).data, size, size);
}

/** The textured relief of the photos as a GLB (../artifacts/relief-mesh.ts), and its faces for the turntable. */
export async function buildRelief(images: Uint8Array[], options: ReliefOptions): Promise<Relief> {
  const shape = reliefShape(options.seed);
  const texSize = options.textureSize;
  const panels: TexturedPanel[] = [];
  const faces: ReliefFace[] = [];
  for (let i = 0; i < images.length; i++) {
    const bitmap = await decode(images[i]!);
    const aspect = bitmap.width / bitmap.height;
    let grid: Uint8Array;
    let texture: Uint8Array;
    try {
      grid = draw(bitmap, GRID, GRID);
      texture = draw(bitmap, texSize, texSize);
    } finally {
      bitmap.close();
    }
    const image = options.cutout
      ? await png(texture, texSize, texSize)
      : await jpeg(texture, texSize, texSize, TEXTURE_JPEG_QUALITY);
    const geometry = panelGeometry(grid, aspect, i, images.length, shape, options.cutout);
    panels.push({ ...geometry, image });
    faces.push({ ...geometry, texture: { data: texture, width: texSize, height: texSize } });
  }
  const glb = await new WebIO().writeBinary(reliefDocument(panels, options.cutout));
  return { glb, faces };
}

export async function glbStats(glb: Uint8Array): Promise<ModelStats> {
  return countStats(await new WebIO().readBinary(glb), glb.byteLength);
}

// ------------------------------------------------------------------ pixels

async function decode(bytes: Uint8Array): Promise<ImageBitmap> {
  try {
    // createImageBitmap rejects an image that does not decode to its last row (checked for
    // truncated PNG, JPEG and WebP), unlike an <img>, which shows what arrived.
    return await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]), { imageOrientation: 'from-image' });
  } catch {
    throw new Error('The image could not be decoded (the file is damaged, truncated or not an image).');
  }
}

function canvas(width: number, height: number): [OffscreenCanvas, OffscreenCanvasRenderingContext2D] {
  const c = new OffscreenCanvas(width, height);
  const ctx = c.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('No 2D canvas.');
  ctx.imageSmoothingQuality = 'high';
  return [c, ctx];
}

/** RGBA pixels (straight alpha) of an image drawn at `width` x `height`. */
function draw(source: CanvasImageSource, width: number, height: number): Uint8Array {
  const [, ctx] = canvas(width, height);
  ctx.drawImage(source, 0, 0, width, height);
  return bytesOf(ctx.getImageData(0, 0, width, height).data);
}

function bytesOf(data: Uint8ClampedArray): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

function imageData(rgba: Uint8Array, width: number, height: number): ImageData {
  return new ImageData(
    new Uint8ClampedArray(rgba.buffer as ArrayBuffer, rgba.byteOffset, rgba.byteLength),
    width,
    height,
  );
}

/** Every slot of a batch starts from the same cut-out: it becomes a bitmap once. */
const cutoutBitmaps = new WeakMap<Cutout, Promise<ImageBitmap>>();

function cutoutBitmap(cut: Cutout): Promise<ImageBitmap> {
  let bitmap = cutoutBitmaps.get(cut);
  if (!bitmap) {
    bitmap = createImageBitmap(imageData(cut.rgba, cut.width, cut.height));
    cutoutBitmaps.set(cut, bitmap);
  }
  return bitmap;
}

function extract(rgba: Uint8Array, width: number, box: Box): Uint8Array {
  const out = new Uint8Array(box.width * box.height * 4);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.top + y) * width + box.left) * 4;
    out.set(rgba.subarray(from, from + box.width * 4), y * box.width * 4);
  }
  return out;
}

async function resize(rgba: Uint8Array, width: number, height: number, w: number, h: number): Promise<Uint8Array> {
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
function flatten(rgba: Uint8Array, [r, g, b]: [number, number, number]): void {
  for (let i = 0; i < rgba.length; i += 4) {
    const a = rgba[i + 3]! / 255;
    rgba[i] = Math.round(rgba[i]! * a + r * (1 - a));
    rgba[i + 1] = Math.round(rgba[i + 1]! * a + g * (1 - a));
    rgba[i + 2] = Math.round(rgba[i + 2]! * a + b * (1 - a));
    rgba[i + 3] = 255;
  }
}

/**
 * A slot's grade on the person's pixels: brightness and saturation around each pixel's luma (close
 * to sharp's modulate, which scales lightness and chroma), then an optional colour matrix.
 */
function grade(
  raw: Uint8ClampedArray,
  { brightness, saturation }: { brightness: number; saturation: number },
  matrix?: readonly (readonly number[])[],
): void {
  for (let i = 0; i < raw.length; i += 4) {
    if (raw[i + 3] === 0) continue;
    const r = raw[i]!,
      g = raw[i + 1]!,
      b = raw[i + 2]!;
    const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let r1 = (y + (r - y) * saturation) * brightness;
    let g1 = (y + (g - y) * saturation) * brightness;
    let b1 = (y + (b - y) * saturation) * brightness;
    if (matrix) {
      const [m0, m1, m2] = matrix as [number[], number[], number[]];
      [r1, g1, b1] = [
        m0[0]! * r1 + m0[1]! * g1 + m0[2]! * b1,
        m1[0]! * r1 + m1[1]! * g1 + m1[2]! * b1,
        m2[0]! * r1 + m2[1]! * g1 + m2[2]! * b1,
      ];
    }
    raw[i] = r1;
    raw[i + 1] = g1;
    raw[i + 2] = b1;
  }
}

/** A CSS colour (`#rrggbb` or `hsl(…)`) with an opacity, as SVG's stop-opacity gives it. */
function withOpacity(colour: string, opacity: number): string {
  if (opacity === 1) return colour;
  if (colour.startsWith('#')) return `rgba(${hex(colour).join(',')},${opacity})`;
  return colour.replace(/^hsl\((.*)\)$/, `hsla($1,${opacity})`);
}

// ------------------------------------------------------------------ encoders

/** JPEG of RGBA pixels, their alpha ignored (as Node's removeAlpha()). */
async function jpeg(rgba: Uint8Array, width: number, height: number, quality: number): Promise<Uint8Array> {
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
async function png(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Promise<Uint8Array> {
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
