/**
 * The browser's image artifact makers: the same pictures, sizes and rules as Node's
 * (../artifacts/{background,headshot,image-tool,reference,relief,glb-stats}.ts, sharp), whose
 * platform-free halves they share (../artifacts/{mask,headshot-looks,image-tool-rules,
 * reference-layout,relief-mesh,glb-count}.ts). They run in a Service Worker as well as in a page,
 * so they use only what workers have: createImageBitmap (which decodes the whole image and applies
 * its EXIF orientation), OffscreenCanvas 2D, Blob and CompressionStream; the pixel work and the
 * encoders are in pixels.ts.
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
import { canvas, decode, draw, extract, flatten, imageData, jpeg, png, resize } from './pixels.js';
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
