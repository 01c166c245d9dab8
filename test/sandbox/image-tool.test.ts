import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { envelope, jsonPost, startSandbox, type Harness } from './harness.js';
import { makeImage, toBase64 } from '../fixtures/media.js';

describe('image tools: background removal', () => {
  let h: Harness;
  let photo: Uint8Array;
  before(async () => {
    h = await startSandbox();
    photo = await makeImage({ width: 600, height: 800 });
  });
  after(() => h.close());

  const form = (fields: Record<string, string>, image = photo) => {
    const f = new FormData();
    f.set('image_file', new Blob([image as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'photo.png');
    for (const [k, v] of Object.entries(fields)) f.set(k, v);
    return f;
  };
  const call = (key: string, body: FormData | object, headers: Record<string, string> = {}) =>
    body instanceof FormData
      ? h.call('/api/v1', { method: 'POST', headers: { authorization: `Bearer ${key}`, ...headers }, body })
      : h.call('/api/v1', jsonPost(key, body, headers));

  it('answers a PNG with a transparent background and an opaque subject, 1 credit', async () => {
    const { id, keys } = await h.account(5);
    const r = await call(keys.imageTools, form({}));
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'image/png');
    assert.equal(r.headers.get('x-credits-charged'), '1');
    assert.equal(r.headers.get('x-credits-remaining'), '4');
    assert.ok(r.headers.get('x-ratelimit-remaining'));
    const { data, info } = await sharp(new Uint8Array(await r.arrayBuffer()))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    assert.deepEqual([info.width, info.height], [600, 800]);
    const alpha = (x: number, y: number) => data[(y * info.width + x) * 4 + 3]!;
    assert.equal(alpha(5, 5), 0, 'corner is background');
    assert.equal(alpha(300, 440), 255, 'centre is subject');
    assert.equal(alpha(300, 240), 255, 'head is subject');
    const edge = [...Array(40).keys()].map((i) => alpha(150 - 20 + i, 440));
    assert.ok(
      edge.some((a) => a > 0 && a < 255),
      'a feathered edge, not a hard cut',
    );
    assert.equal((await h.ledger(id)).balance, 4);
  });

  it('size=preview stays within 0.25 megapixels; full keeps the size', async () => {
    const { keys } = await h.account(5);
    const preview = await sharp(
      new Uint8Array(await (await call(keys.imageTools, form({ size: 'preview' }))).arrayBuffer()),
    ).metadata();
    assert.ok(preview.width! * preview.height! <= 250_000);
    assert.ok(preview.width! * preview.height! > 200_000);
    const full = await sharp(
      new Uint8Array(await (await call(keys.imageTools, form({ size: 'full' }))).arrayBuffer()),
    ).metadata();
    assert.deepEqual([full.width, full.height], [600, 800]);
  });

  it('format=jpg with bg_color composites the colour behind the subject', async () => {
    const { keys } = await h.account(5);
    const r = await call(keys.imageTools, form({ format: 'jpg', bg_color: '#00ff00' }));
    assert.equal(r.headers.get('content-type'), 'image/jpeg');
    const { data, info } = await sharp(new Uint8Array(await r.arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    assert.equal(info.channels, 3);
    const [R, G, B] = [data[0]!, data[1]!, data[2]!];
    assert.ok(G > 230 && R < 30 && B < 30, `green corner: ${R},${G},${B}`);
  });

  it('crop=true crops to the subject bounding box', async () => {
    const { keys } = await h.account(5);
    const meta = await sharp(
      new Uint8Array(await (await call(keys.imageTools, form({ crop: 'true' }))).arrayBuffer()),
    ).metadata();
    assert.ok(Math.abs(meta.width! - 300) < 20, `width ${meta.width}`);
    assert.ok(meta.height! < 600 && meta.height! > 450, `height ${meta.height}`);
  });

  it('Accept: application/json answers the JSON result with base64, size and credits', async () => {
    const { keys } = await h.account(5);
    const r = await call(
      keys.imageTools,
      { image_base64: toBase64(photo), size: 'preview' },
      { accept: 'application/json' },
    );
    assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
    const body = (await r.json()) as any;
    const meta = await sharp(Buffer.from(body.data.image_base64, 'base64')).metadata();
    assert.deepEqual([meta.width, meta.height], [body.data.width, body.data.height]);
    assert.equal(body.credits_charged, 1);
    assert.equal(body.credits_remaining, 4);
  });

  it('takes the key only as Authorization: Bearer (the spec states only that form)', async () => {
    const { keys } = await h.account(5);
    const r = await h.call('/api/v1', { method: 'POST', headers: { 'x-api-key': keys.imageTools }, body: form({}) });
    assert.equal(r.status, 401);
    assert.match((await envelope(r)).message, /Authorization: Bearer/);
  });

  it('an image with no subject is a 400 and is not charged', async () => {
    const { id, keys } = await h.account(5);
    const r = await call(keys.imageTools, form({}, await makeImage({ subject: false })));
    assert.equal(r.status, 400);
    assert.match((await envelope(r)).message, /No foreground subject/);
    assert.equal((await h.ledger(id)).entries.length, 0);
  });

  describe('bad parameters are 400 and free', () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      ['size', { size: 'huge' }, /size must be one of auto, preview, full/],
      ['format', { format: 'gif' }, /format must be one of png, jpg/],
      ['bg_color', { bg_color: 'green' }, /hex colour/],
      ['crop', { crop: 'maybe' }, /crop must be true or false/],
      ['operation', { operation: 'upscale' }, /operation must be one of remove_background/],
      ['unknown field', { scale: '2' }, /Unknown parameter scale/],
    ];
    for (const [name, fields, message] of cases) {
      it(name, async () => {
        const { id, keys } = await h.account(5);
        const r = await call(keys.imageTools, form(fields));
        assert.equal(r.status, 400);
        assert.match((await envelope(r)).message, message);
        assert.equal((await h.ledger(id)).entries.length, 0);
      });
    }
  });

  it('the slow fault holds back the next answer by its ms, once, and still charges it; a bad ms is refused', async () => {
    const { id, keys } = await h.account(5);
    await h.fault(id, 'slow', { ms: 700 });
    const t0 = performance.now();
    assert.equal((await call(keys.imageTools, form({}))).status, 200);
    assert.ok(performance.now() - t0 >= 700, 'held back');
    assert.equal((await call(keys.imageTools, form({}))).status, 200);
    assert.equal((await h.ledger(id)).entries.filter((e) => e.type === 'charge').length, 2);
    const bad = await fetch(`${h.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account_id: id, kind: 'slow', ms: -1 }),
    });
    assert.equal(bad.status, 400);
    assert.match((await envelope(bad)).message, /slow needs ms/);
  });

  it('402 with a zero balance; provider failure is 500 and free', async () => {
    const empty = await h.account(0);
    assert.equal((await call(empty.keys.imageTools, form({}))).status, 402);
    const { id, keys } = await h.account(5);
    await h.fault(id, 'create_error');
    assert.equal((await call(keys.imageTools, form({}))).status, 500);
    assert.equal((await h.ledger(id)).entries.length, 0);
  });
});
