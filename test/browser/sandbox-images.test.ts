/**
 * The browser sandbox's image artifact makers (issue 23, src/sandbox/browser/images.ts) in real
 * Chromium: what a user of the no-server sandbox sees in headshots, background removal, the image
 * tool's options, text mode's reference picture and the relief GLB, and that they run in a Worker.
 */
import { expect } from '@open-wc/testing';
import { WebIO } from '@gltf-transform/core';
import {
  buildRelief,
  decodeSize,
  encodePng,
  glbStats,
  removeBackground,
  renderHeadshot,
  renderReference,
  runImageTool,
} from '../../src/sandbox/browser/images.js';
import { NoSubjectError } from '../../src/sandbox/platform.js';
import { referenceLayout } from '../../src/sandbox/artifacts/reference-layout.js';

type RGB = [number, number, number];

const BACKDROP: RGB = [0xdd, 0xe3, 0xea];
const LEFT: RGB = [0xc0, 0x39, 0x2b]; // the subject's left half
const RIGHT: RGB = [0x2e, 0x86, 0xde]; // and its right half

/**
 * A selfie-like photo: a plain backdrop and one ellipse, red on its left half and blue on its right,
 * so a result shows where its subject pixels came from.
 */
async function photo(width = 240, height = 300, type = 'image/png', quality?: number): Promise<Uint8Array> {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = css(BACKDROP);
  ctx.fillRect(0, 0, width, height);
  ctx.save();
  ctx.beginPath();
  ctx.ellipse(width / 2, height * 0.55, width * 0.25, height * 0.3, 0, 0, Math.PI * 2);
  ctx.clip();
  ctx.fillStyle = css(LEFT);
  ctx.fillRect(0, 0, width / 2, height);
  ctx.fillStyle = css(RIGHT);
  ctx.fillRect(width / 2, 0, width / 2, height);
  ctx.restore();
  return bytesOf(await canvas.convertToBlob({ type, quality }));
}

/** The subject's bounding box in `photo(width, height)`. */
function subjectBox(width: number, height: number) {
  return { left: width * 0.25, top: height * 0.25, width: width * 0.5, height: height * 0.6 };
}

/** A photo of noise (every byte matters, so a cut file is missing real pixels). */
async function noise(type: string): Promise<Uint8Array> {
  const canvas = new OffscreenCanvas(200, 160);
  const ctx = canvas.getContext('2d')!;
  const data = ctx.createImageData(200, 160);
  for (let i = 0; i < data.data.length; i++) data.data[i] = i % 4 === 3 ? 255 : (i * 7919) ^ ((i >> 3) * 31);
  ctx.putImageData(data, 0, 0);
  return bytesOf(await canvas.convertToBlob({ type, quality: 0.9 }));
}

async function blank(): Promise<Uint8Array> {
  const canvas = new OffscreenCanvas(160, 120);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#e8e8e8';
  ctx.fillRect(0, 0, 160, 120);
  return bytesOf(await canvas.convertToBlob({ type: 'image/png' }));
}

async function bytesOf(blob: Blob | Promise<Blob>): Promise<Uint8Array> {
  return new Uint8Array(await (await blob).arrayBuffer());
}

function css([r, g, b]: RGB): string {
  return `rgb(${r},${g},${b})`;
}

interface Pixels {
  width: number;
  height: number;
  at(x: number, y: number): [number, number, number, number];
}

/** Decodes image bytes as a browser shows them (straight alpha, no colour conversion). */
async function pixels(bytes: Uint8Array): Promise<Pixels> {
  const bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
    premultiplyAlpha: 'none',
    colorSpaceConversion: 'none',
  });
  return raw(await readBitmap(bitmap), bitmap.width, bitmap.height);
}

async function readBitmap(bitmap: ImageBitmap): Promise<Uint8ClampedArray> {
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(bitmap, 0, 0);
  return ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
}

function raw(data: ArrayLike<number>, width: number, height: number): Pixels {
  return {
    width,
    height,
    at(x, y) {
      const i = (Math.round(y) * width + Math.round(x)) * 4;
      return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
    },
  };
}

function distance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const isPng = (bytes: Uint8Array) => PNG.every((b, i) => bytes[i] === b);
const isJpeg = (bytes: Uint8Array) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

/** A JPEG with an EXIF APP1 segment saying orientation `value` (6: rotate 90° clockwise to show). */
function withOrientation(jpeg: Uint8Array, value: number): Uint8Array {
  // prettier-ignore
  const app1 = [
    0xff, 0xe1, 0x00, 0x22, // APP1, 34 bytes
    0x45, 0x78, 0x69, 0x66, 0x00, 0x00, // "Exif\0\0"
    0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08, // big-endian TIFF, first IFD at 8
    0x00, 0x01, // one entry
    0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, value, 0x00, 0x00, // Orientation, SHORT
    0x00, 0x00, 0x00, 0x00, // no next IFD
  ];
  const out = new Uint8Array(jpeg.length + app1.length);
  out.set(jpeg.subarray(0, 2));
  out.set(app1, 2);
  out.set(jpeg.subarray(2), 2 + app1.length);
  return out;
}

describe('browser sandbox: decoding', () => {
  it('decodeSize answers the size of a whole image and throws for a truncated PNG or JPEG', async () => {
    expect(await decodeSize(await photo(240, 300))).to.deep.equal({ width: 240, height: 300 });
    for (const type of ['image/png', 'image/jpeg']) {
      const whole = await noise(type);
      expect(await decodeSize(whole)).to.deep.equal({ width: 200, height: 160 });
      let error: unknown;
      try {
        await decodeSize(whole.slice(0, Math.floor(whole.length * 0.8)));
      } catch (e) {
        error = e;
      }
      expect(error, `a truncated ${type}`).to.be.instanceOf(Error);
    }
    let garbage: unknown;
    await decodeSize(new TextEncoder().encode('not an image at all')).catch((e) => (garbage = e));
    expect(garbage).to.be.instanceOf(Error);
  });

  it('an EXIF-rotated JPEG comes out upright', async () => {
    // Stored 200x100 with the subject's red half on the left: shown upright it is 100x200, red on top.
    const stored = await photo(200, 100, 'image/jpeg', 0.95);
    const rotated = withOrientation(stored, 6);
    expect(await decodeSize(stored)).to.deep.equal({ width: 200, height: 100 });
    expect(await decodeSize(rotated)).to.deep.equal({ width: 100, height: 200 });
    const cut = await removeBackground(rotated);
    expect([cut.width, cut.height]).to.deep.equal([100, 200]);
    const upright = raw(cut.rgba, cut.width, cut.height);
    expect(distance(upright.at(50, 80), LEFT)).to.be.lessThan(30);
    expect(distance(upright.at(50, 120), RIGHT)).to.be.lessThan(30);
    const tool = await runImageTool(rotated, { size: 'full', format: 'png', bgColor: undefined, crop: false });
    expect([tool.width, tool.height]).to.deep.equal([100, 200]);
  });

  it('encodePng keeps every channel of every pixel, alpha included', async () => {
    // prettier-ignore
    const rgba = new Uint8Array([
      255, 0, 0, 255,  10, 200, 30, 255,  1, 2, 3, 128,
      0, 0, 255, 0,    90, 90, 90, 255,   250, 250, 5, 64,
    ]);
    const png = await encodePng(rgba, 3, 2);
    expect(isPng(png)).to.equal(true);
    const px = await pixels(png);
    expect([px.width, px.height]).to.deep.equal([3, 2]);
    expect(px.at(0, 0)).to.deep.equal([255, 0, 0, 255]);
    expect(px.at(1, 0)).to.deep.equal([10, 200, 30, 255]);
    expect(px.at(2, 0)[3]).to.equal(128);
    expect(px.at(0, 1)[3]).to.equal(0);
    expect(px.at(1, 1)).to.deep.equal([90, 90, 90, 255]);
    expect(px.at(2, 1)[3]).to.equal(64);
    // Opaque pixels are written as RGB, and still read back exactly.
    const opaque = await pixels(await encodePng(new Uint8Array([7, 8, 9, 255, 200, 100, 50, 255]), 2, 1));
    expect(opaque.at(0, 0)).to.deep.equal([7, 8, 9, 255]);
    expect(opaque.at(1, 0)).to.deep.equal([200, 100, 50, 255]);
  });
});

describe('browser sandbox: background removal and the image tool', () => {
  it('removeBackground makes the backdrop transparent and keeps the subject unchanged', async () => {
    const cut = await removeBackground(await photo(240, 300));
    expect([cut.width, cut.height]).to.deep.equal([240, 300]);
    const px = raw(cut.rgba, cut.width, cut.height);
    expect(px.at(3, 3)[3]).to.equal(0);
    expect(px.at(236, 296)[3]).to.equal(0);
    expect(px.at(90, 165)).to.deep.equal([...LEFT, 255]);
    expect(px.at(150, 165)).to.deep.equal([...RIGHT, 255]);
    const box = subjectBox(240, 300);
    expect(cut.box).to.not.equal(undefined);
    expect(Math.abs(cut.box!.left - box.left)).to.be.lessThan(4);
    expect(Math.abs(cut.box!.top - box.top)).to.be.lessThan(4);
    expect(Math.abs(cut.box!.width - box.width)).to.be.lessThan(6);
    expect(Math.abs(cut.box!.height - box.height)).to.be.lessThan(6);
  });

  it('png output: a transparent backdrop and the opaque subject, at full size', async () => {
    const t0 = performance.now();
    const out = await runImageTool(await photo(1600, 1200, 'image/jpeg', 0.92), {
      size: 'auto',
      format: 'png',
      bgColor: undefined,
      crop: false,
    });
    const ms = performance.now() - t0;
    console.log(`[timing] image tool, 1600x1200 JPEG to PNG: ${ms.toFixed(0)} ms`);
    expect(out.contentType).to.equal('image/png');
    expect(isPng(out.bytes)).to.equal(true);
    expect([out.width, out.height]).to.deep.equal([1600, 1200]);
    const px = await pixels(out.bytes);
    expect([px.width, px.height]).to.deep.equal([1600, 1200]);
    expect(px.at(10, 10)[3]).to.equal(0);
    expect(px.at(600, 660)[3]).to.equal(255);
    expect(distance(px.at(600, 660), LEFT)).to.be.lessThan(12);
    expect(distance(px.at(1000, 660), RIGHT)).to.be.lessThan(12);
  });

  it('jpg output is a JPEG with the bg colour behind the subject', async () => {
    const out = await runImageTool(await photo(), { size: 'full', format: 'jpg', bgColor: '#00c000', crop: false });
    expect(out.contentType).to.equal('image/jpeg');
    expect(isJpeg(out.bytes)).to.equal(true);
    const px = await pixels(out.bytes);
    expect([px.width, px.height]).to.deep.equal([240, 300]);
    expect(distance(px.at(5, 5), [0, 0xc0, 0])).to.be.lessThan(12);
    expect(px.at(5, 5)[3]).to.equal(255);
    expect(distance(px.at(90, 165), LEFT)).to.be.lessThan(20);
    // jpg without a colour is on white; png with one is opaque on it.
    const white = await pixels(
      (await runImageTool(await photo(), { size: 'full', format: 'jpg', bgColor: undefined, crop: false })).bytes,
    );
    expect(distance(white.at(5, 5), [255, 255, 255])).to.be.lessThan(8);
    const coloured = await pixels(
      (await runImageTool(await photo(), { size: 'full', format: 'png', bgColor: '#102030', crop: false })).bytes,
    );
    expect(coloured.at(5, 5)).to.deep.equal([0x10, 0x20, 0x30, 255]);
  });

  it('crop shrinks the result to the subject; preview stays within 0.25 megapixels', async () => {
    const cropped = await runImageTool(await photo(240, 300), {
      size: 'full',
      format: 'png',
      bgColor: undefined,
      crop: true,
    });
    const box = subjectBox(240, 300);
    expect(Math.abs(cropped.width - box.width)).to.be.lessThan(6);
    expect(Math.abs(cropped.height - box.height)).to.be.lessThan(6);
    const px = await pixels(cropped.bytes);
    expect([px.width, px.height]).to.deep.equal([cropped.width, cropped.height]);
    expect(distance(px.at(cropped.width * 0.25, cropped.height / 2), LEFT)).to.be.lessThan(12);

    const preview = await runImageTool(await photo(1000, 800), {
      size: 'preview',
      format: 'png',
      bgColor: undefined,
      crop: false,
    });
    expect(preview.width * preview.height).to.be.at.most(250_000);
    expect(preview.width * preview.height).to.be.greaterThan(240_000);
    expect(preview.width / preview.height).to.be.closeTo(1.25, 0.01);
    const small = await pixels(preview.bytes);
    expect([small.width, small.height]).to.deep.equal([preview.width, preview.height]);
    expect(small.at(5, 5)[3]).to.equal(0);
    expect(distance(small.at(preview.width * 0.4, preview.height * 0.55), LEFT)).to.be.lessThan(12);
  });

  it('an image with no subject throws NoSubjectError', async () => {
    let error: unknown;
    try {
      await runImageTool(await blank(), { size: 'auto', format: 'png', bgColor: undefined, crop: false });
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(NoSubjectError);
    expect((await removeBackground(await blank())).box).to.equal(undefined);
  });
});

describe('browser sandbox: headshots', () => {
  it('a batch of four 512x512 PNGs whose subject pixels come from the selfie', async () => {
    const selfie = await photo(960, 1200, 'image/jpeg', 0.92);
    const t0 = performance.now();
    const cut = await removeBackground(selfie);
    const shots = await Promise.all(([0, 1, 2, 3] as const).map((slot) => renderHeadshot(cut, 'corporate', slot)));
    const ms = performance.now() - t0;
    console.log(`[timing] headshot batch, 960x1200 JPEG selfie, 4 variants: ${ms.toFixed(0)} ms`);
    for (const shot of shots) {
      expect([shot.width, shot.height]).to.deep.equal([512, 512]);
      expect(isPng(shot.png)).to.equal(true);
    }
    const [exact, turned, outfit, tight] = await Promise.all(shots.map((s) => pixels(s.png)));
    expect([exact!.width, exact!.height]).to.deep.equal([512, 512]);
    // The subject (its box framed with headroom, centred) keeps its two halves' colours.
    expect(distance(exact!.at(200, 200), LEFT)).to.be.lessThan(40);
    expect(distance(exact!.at(312, 200), RIGHT)).to.be.lessThan(40);
    expect(distance(exact!.at(200, 200), exact!.at(8, 200))).to.be.greaterThan(100);
    // Slot 2 re-tints the outfit (the lower third) in another colour than slot 0, and only there.
    expect(distance(outfit!.at(220, 440), exact!.at(220, 440))).to.be.greaterThan(6);
    expect(outfit!.at(200, 200)).to.deep.equal(exact!.at(200, 200));
    // Slot 1's light is warmer.
    const warmth = (p: number[]) => p[0]! - p[2]!;
    expect(warmth(turned!.at(300, 200))).to.be.greaterThan(warmth(exact!.at(300, 200)) + 10);
    // Slot 3 is cropped tighter: the subject reaches where slot 0 shows the backdrop.
    expect(distance(exact!.at(100, 256), LEFT)).to.be.greaterThan(100);
    expect(distance(tight!.at(100, 256), LEFT)).to.be.lessThan(60);
  });

  it('a frame reaching past the photo is padded with backdrop, the subject neither moved nor stretched', async () => {
    // 120x300 with a 60x180 subject: the 223 px square frame starts 51 px left of the photo.
    const cut = await removeBackground(await photo(120, 300));
    const shot = await pixels((await renderHeadshot(cut, 'corporate', 0)).png);
    expect(distance(shot.at(225, 200), LEFT)).to.be.lessThan(40);
    expect(distance(shot.at(285, 200), RIGHT)).to.be.lessThan(40);
    const [r, g, b] = shot.at(20, 200);
    expect(Math.max(Math.abs(r - g), Math.abs(r - b))).to.be.lessThan(12);
    expect(distance(shot.at(20, 200), shot.at(492, 200))).to.be.lessThan(4);
  });

  it('the backdrop differs by style: corporate grey, creative warm', async () => {
    const cut = await removeBackground(await photo());
    const corporate = await pixels((await renderHeadshot(cut, 'corporate', 0)).png);
    const creative = await pixels((await renderHeadshot(cut, 'creative', 0)).png);
    const [r1, g1, b1] = corporate.at(6, 6);
    expect(Math.max(Math.abs(r1 - g1), Math.abs(r1 - b1))).to.be.lessThan(12);
    const [r2, , b2] = creative.at(6, 6);
    expect(r2 - b2).to.be.greaterThan(50);
    // The person is the same in both.
    expect(distance(corporate.at(200, 200), creative.at(200, 200))).to.be.lessThan(30);
  });
});

describe('browser sandbox: 3D generation', () => {
  it('the reference picture follows the prompt and is the same for the same prompt and seed', async () => {
    const red = await renderReference('a red chair', 7, 256);
    expect(isPng(red)).to.equal(true);
    expect(await renderReference('a red chair', 7, 256)).to.deep.equal(red);
    const blue = await renderReference('a blue chair', 7, 256);
    expect(blue).to.not.deep.equal(red);
    expect(await renderReference('a red chair', 8, 256)).to.not.deep.equal(red);
    // Below the accent spots, above the shadow: the object's own colour.
    const sample = async (prompt: string, bytes: Uint8Array) => {
      const { cx, cy, r } = referenceLayout(prompt, 7, 256);
      return (await pixels(bytes)).at(cx, cy + r * 0.85);
    };
    const [rr, rg, rb] = await sample('a red chair', red);
    expect(rr - Math.max(rg, rb)).to.be.greaterThan(60);
    const [br, , bb] = await sample('a blue chair', blue);
    expect(bb - br).to.be.greaterThan(60);
    const px = await pixels(red);
    expect([px.width, px.height]).to.deep.equal([256, 256]);
    expect(px.at(3, 3)).to.deep.equal([0xf3, 0xf3, 0xf1, 255]);
  });

  it('buildRelief writes a GLB whose faces carry the photos as textures', async () => {
    const photos = [await photo(240, 300), await photo(300, 240, 'image/jpeg', 0.9)];
    const relief = await buildRelief(photos, { textureSize: 128, seed: 3, cutout: false });
    expect(new TextDecoder().decode(relief.glb.subarray(0, 4))).to.equal('glTF');
    const stats = await glbStats(relief.glb);
    expect(stats).to.deep.include({ meshes: 1, materials: 2, textures: 2, maxTextureSize: 128, animations: 0 });
    expect(stats.triangles).to.equal(2 * 47 * 47 * 2);
    expect(stats.vertices).to.equal(2 * 48 * 48);
    expect(stats.bytes).to.equal(relief.glb.byteLength);

    const doc = await new WebIO().readBinary(relief.glb);
    const prims = doc.getRoot().listMeshes()[0]!.listPrimitives();
    expect(prims).to.have.length(2);
    for (const prim of prims) {
      const texture = prim.getMaterial()?.getBaseColorTexture();
      expect(texture?.getMimeType()).to.equal('image/jpeg');
      const image = await pixels(texture!.getImage()!);
      expect([image.width, image.height]).to.deep.equal([128, 128]);
      expect(distance(image.at(10, 10), BACKDROP)).to.be.lessThan(12);
      expect(distance(image.at(45, 70), LEFT)).to.be.lessThan(25);
    }
    expect(relief.faces).to.have.length(2);
    const face = raw(relief.faces[0]!.texture.data, 128, 128);
    expect(distance(face.at(45, 70), LEFT)).to.be.lessThan(12);
    expect(distance(face.at(83, 70), RIGHT)).to.be.lessThan(12);
    // A portrait and a landscape photo: their panels' aspect follows the photos.
    const extent = (positions: Float32Array) => {
      let min = Infinity,
        max = -Infinity;
      for (let i = 1; i < positions.length; i += 3)
        [min, max] = [Math.min(min, positions[i]!), Math.max(max, positions[i]!)];
      return max - min;
    };
    expect(extent(relief.faces[0]!.positions)).to.be.closeTo(1, 1e-6);
    expect(extent(relief.faces[1]!.positions)).to.be.closeTo(0.8, 1e-6);

    // The same photos and seed give the same bytes; another seed another shape.
    expect((await buildRelief(photos, { textureSize: 128, seed: 3, cutout: false })).glb).to.deep.equal(relief.glb);
    expect((await buildRelief(photos, { textureSize: 128, seed: 4, cutout: false })).glb).to.not.deep.equal(relief.glb);
  });

  it('cut-out photos give PNG textures with alpha and masked materials', async () => {
    const cut = await removeBackground(await photo());
    const png = await encodePng(cut.rgba, cut.width, cut.height);
    const relief = await buildRelief([png], { textureSize: 64, seed: 1, cutout: true });
    const doc = await new WebIO().readBinary(relief.glb);
    const material = doc.getRoot().listMaterials()[0]!;
    expect(material.getAlphaMode()).to.equal('MASK');
    const texture = material.getBaseColorTexture()!;
    expect(texture.getMimeType()).to.equal('image/png');
    const image = await pixels(texture.getImage()!);
    expect(image.at(2, 2)[3]).to.equal(0);
    expect(image.at(20, 35)[3]).to.equal(255);
    // Transparent pixels get no height: the corners of the panel lie flat.
    const { positions } = relief.faces[0]!;
    expect(positions[2]).to.equal(0);
  });
});

describe('browser sandbox: in a Worker', () => {
  it('the makers run without a DOM', async () => {
    // A module worker from a Blob imports the makers from the test server like the page does.
    const url = new URL('/src/sandbox/browser/images.ts', location.href).href;
    const source = `
      const m = await import(${JSON.stringify(url)});
      self.onmessage = async ({ data }) => {
        try {
          const size = await m.decodeSize(data);
          const cut = await m.removeBackground(data);
          const shot = await m.renderHeadshot(cut, 'creative', 1);
          const tool = await m.runImageTool(data, { size: 'auto', format: 'jpg', bgColor: '#ffffff', crop: true });
          const reference = await m.renderReference('a green cube', 1, 128);
          const relief = await m.buildRelief([data], { textureSize: 64, seed: 2, cutout: false });
          const stats = await m.glbStats(relief.glb);
          self.postMessage({ size, box: cut.box, shot: shot.png.length, tool: [tool.contentType, tool.width, tool.height], reference: reference.length, triangles: stats.triangles, hasDocument: typeof document !== 'undefined' });
        } catch (e) {
          self.postMessage({ error: String(e && e.stack || e) });
        }
      };
      self.postMessage('ready');`;
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })), { type: 'module' });
    try {
      const next = () =>
        new Promise<Record<string, unknown> | string>((resolve, reject) => {
          worker.onmessage = (e) => resolve(e.data);
          worker.onerror = (e) => reject(new Error(e.message));
        });
      expect(await next()).to.equal('ready');
      const answer = next();
      worker.postMessage(await photo(240, 300));
      const result = (await answer) as Record<string, unknown>;
      expect(result['error']).to.equal(undefined);
      expect(result['hasDocument']).to.equal(false);
      expect(result['size']).to.deep.equal({ width: 240, height: 300 });
      expect(result['box']).to.not.equal(undefined);
      expect(result['shot']).to.be.greaterThan(1000);
      expect((result['tool'] as unknown[])[0]).to.equal('image/jpeg');
      expect((result['tool'] as number[])[1]).to.be.lessThan(240);
      expect(result['reference']).to.be.greaterThan(100);
      expect(result['triangles']).to.equal(47 * 47 * 2);
    } finally {
      worker.terminate();
    }
  });
});
