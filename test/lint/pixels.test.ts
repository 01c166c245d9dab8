// The story screenshots' PNG reading and writing and their tolerant comparison (scripts/pixels.ts,
// used by scripts/stories.mjs against test/stories-baselines).
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { compareImages, decodePng, encodePng, type Image } from '../../scripts/pixels.js';

/** A card: a white page, a grey box with a dark border, a line of "text" (dark stripes) inside. */
function card(width: number, height: number, options: { padding?: number; text?: number[] } = {}): Image {
  const { padding = 10, text = [40, 40, 40] } = options;
  const data = new Uint8Array(width * height * 4).fill(255);
  const put = (x: number, y: number, rgb: number[]) => data.set([...rgb, 255], (y * width + x) * 4);
  for (let y = 5; y < height - 5; y++)
    for (let x = 5; x < width - 5; x++) {
      const border = y === 5 || y === height - 6 || x === 5 || x === width - 6;
      put(x, y, border ? [60, 60, 60] : [240, 240, 240]);
    }
  for (let y = 5 + padding; y < 5 + padding + 8; y++)
    for (let x = 5 + padding; x < width - 5 - padding; x++) if (x % 3) put(x, y, text);
  return { width, height, data };
}

/** A PNG as Chromium writes one: RGB, no alpha, one filter for all rows. */
function rgbPng(image: Image, filter: number): Buffer {
  const { width, height, data } = image;
  const stride = width * 3;
  const raw = Buffer.alloc(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = filter;
    for (let i = 0; i < stride; i++) {
      const v = data[(y * width + Math.floor(i / 3)) * 4 + (i % 3)]!;
      const a = i >= 3 ? data[(y * width + Math.floor(i / 3) - 1) * 4 + (i % 3)]! : 0;
      const b = y ? data[((y - 1) * width + Math.floor(i / 3)) * 4 + (i % 3)]! : 0;
      raw[y * (stride + 1) + 1 + i] = (v - (filter === 1 ? a : filter === 2 ? b : 0)) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    withCrc(chunkOf('IHDR', ihdr)),
    withCrc(chunkOf('IDAT', deflateSync(raw))),
    withCrc(chunkOf('IEND', Buffer.alloc(0))),
  ]);
}

function chunkOf(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body, Buffer.alloc(4)]);
}

/** Fills in a chunk's CRC (the decoder does not check it; a PNG viewer would). */
function withCrc(chunk: Buffer): Buffer {
  let c = 0xffffffff;
  for (const byte of chunk.subarray(4, chunk.length - 4)) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  chunk.writeUInt32BE((c ^ 0xffffffff) >>> 0, chunk.length - 4);
  return chunk;
}

describe('pixels: PNG', () => {
  it('reads back what it writes, pixel for pixel', () => {
    const image = card(64, 40);
    image.data[3] = 128;
    const back = decodePng(encodePng(image));
    assert.equal(back.width, 64);
    assert.equal(back.height, 40);
    assert.deepEqual(back.data, image.data);
  });

  it('reads RGB without alpha, with the Sub and Up filters', () => {
    const image = card(30, 20);
    for (const filter of [0, 1, 2]) assert.deepEqual(decodePng(rgbPng(image, filter)).data, image.data);
  });

  it('refuses what it cannot read rather than misreading it', () => {
    assert.throws(() => decodePng(Buffer.from('GIF89a')), /not a PNG/);
    const png = encodePng(card(8, 8));
    png[8 + 8 + 8] = 16; // bit depth 16
    assert.throws(() => decodePng(png), /only 8-bit/);
  });
});

describe('pixels: comparison', () => {
  it('passes the same image and a few anti-aliased pixels, and shows no red in the diff', () => {
    const expected = card(200, 60);
    const same = compareImages(card(200, 60), expected);
    assert.equal(same.differing, 0);
    assert.ok(same.ok);
    assert.ok(!same.diff.data.some((v, i) => i % 4 === 1 && v === 0));
    const aliased = card(200, 60);
    // A glyph edge drawn a shade lighter on another machine: under the threshold.
    for (let x = 20; x < 60; x++) if (x % 3) aliased.data.set([52, 52, 52, 255], (15 * 200 + x) * 4);
    // And a handful of pixels drawn quite differently: under 0.5 % of the image.
    for (let x = 100; x < 150; x++) aliased.data.set([40, 40, 40, 255], (40 * 200 + x) * 4);
    const c = compareImages(aliased, expected);
    assert.equal(c.differing, 50);
    assert.ok(c.ok, `${c.ratio}`);
  });

  it('fails a wrong padding, a wrong text colour and another size, and marks them red', () => {
    const expected = card(200, 60);
    const padding = compareImages(card(200, 60, { padding: 14 }), expected);
    assert.ok(!padding.ok);
    assert.ok(padding.ratio > 0.05, `${padding.ratio}`);
    const colour = compareImages(card(200, 60, { text: [150, 150, 150] }), expected);
    assert.ok(!colour.ok);
    const red = colour.diff.data.findIndex((v, i) => i % 4 === 0 && v === 255 && colour.diff.data[i + 1] === 0);
    assert.ok(red >= 0, 'the diff marks the changed text red');
    const taller = compareImages(card(200, 61), expected);
    assert.equal(taller.sameSize, false);
    assert.ok(!taller.ok);
  });
});
