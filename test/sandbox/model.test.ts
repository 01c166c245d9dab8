import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeIO } from '@gltf-transform/core';
import sharp from 'sharp';
// @ts-expect-error gltf-validator ships no types
import validator from 'gltf-validator';
import { Input, BufferSource, ALL_FORMATS } from 'mediabunny';
import { envelope, jsonPost, settle, startSandbox, type Harness } from './harness.js';
import { dataUrl, makeImage } from '../fixtures/media.js';
import { inspectStats } from '../fixtures/inspect.js';

describe('3D generation', () => {
  let h: Harness;
  let photo: string;
  before(async () => {
    h = await startSandbox({ imageUrls: { allowLoopback: true } });
    photo = dataUrl(await makeImage({ width: 512, height: 512 }));
  });
  after(() => h.close());

  const create = (key: string, body: unknown, headers: Record<string, string> = {}) =>
    h.call('/api/v1/3d/jobs', jsonPost(key, body, headers));

  it('image mode: 202 with Location, 2 credits, then a validated GLB whose stats match inspect()', async () => {
    const { id, keys } = await h.account(10);
    const r = await create(keys.generate, { mode: 'image', images: [photo], quality: 'fast' });
    assert.equal(r.status, 202);
    assert.equal(r.headers.get('x-credits-charged'), '2');
    assert.equal(r.headers.get('x-credits-remaining'), '8');
    assert.ok(r.headers.get('x-ratelimit-limit'));
    const body = (await r.json()) as any;
    assert.equal(r.headers.get('location'), `/api/v1/3d/jobs/${body.data.job_id}`);
    assert.equal(body.data.status, 'queued');
    assert.equal(typeof body.data.seed, 'number', 'the drawn seed is returned');
    const data = await settle(h, r.headers.get('location')!, keys.generate);
    assert.equal(data.status, 'succeeded');
    assert.equal(data.progress, 100);
    const glb = new Uint8Array(await (await h.call(data.output.model_url)).arrayBuffer());
    const report = await validator.validateBytes(glb);
    assert.equal(report.issues.numErrors, 0, JSON.stringify(report.issues.messages.slice(0, 3)));
    assert.deepEqual(data.output.stats, await inspectStats(glb));
    assert.equal(data.output.stats.maxTextureSize, 512, 'fast quality: 512 px texture');
    assert.ok(data.output.stats.triangles > 1000);
    assert.equal((await h.ledger(id)).balance, 8);
  });

  it('the model download is attachment with download=1, and the provider link works until it expires', async () => {
    const { keys } = await h.account(10);
    const r = await create(keys.generate, { mode: 'image', images: [photo], quality: 'fast' });
    const data = await settle(h, r.headers.get('location')!, keys.generate);
    const dl = await h.call(data.output.model_url + '&download=1');
    assert.equal(dl.headers.get('content-type'), 'model/gltf-binary');
    assert.match(dl.headers.get('content-disposition')!, /attachment/);
    assert.equal((await h.call(data.output.provider_model_url)).status, 200);
    await h.advance(2 * 3_600_000);
    assert.equal((await h.call(data.output.provider_model_url)).status, 403);
  });

  it('the turntable is a playable H.264 MP4 (read back with mediabunny)', async () => {
    const { keys } = await h.account(10);
    const r = await create(keys.generate, { mode: 'image', images: [photo], quality: 'fast' });
    const data = await settle(h, r.headers.get('location')!, keys.generate);
    const mp4 = new Uint8Array(await (await h.call(data.output.turntable_url)).arrayBuffer());
    const input = new Input({ source: new BufferSource(mp4), formats: ALL_FORMATS });
    const track = await input.getPrimaryVideoTrack();
    assert.equal(await track?.getCodec(), 'avc');
    assert.equal(track?.displayWidth, 96);
    assert.ok((await input.computeDuration()) > 0.3);
  });

  it('text mode renders a square reference image first and returns reference_image_url and seed', async () => {
    const { keys } = await h.account(10);
    const r = await create(keys.generate, { mode: 'text', prompt: 'a small red teapot' });
    const body = (await r.json()) as any;
    assert.match(body.data.reference_image_url, /\/reference\?expires=\d+&sig=/);
    const ref = await h.call(body.data.reference_image_url);
    const meta = await sharp(new Uint8Array(await ref.arrayBuffer())).metadata();
    assert.equal(meta.width, meta.height);
    assert.equal(meta.format, 'png');
    const data = await settle(h, r.headers.get('location')!, keys.generate);
    assert.equal(data.status, 'succeeded');
    assert.equal(data.output.stats.maxTextureSize, 1024, 'standard quality: 1024 px');
  });

  it('the same seed gives the same model; another seed a variation', async () => {
    const { keys } = await h.account(20);
    const glbOf = async (seed: number) => {
      const r = await create(keys.generate, { mode: 'text', prompt: 'a blue vase', seed, quality: 'fast' });
      const data = await settle(h, r.headers.get('location')!, keys.generate);
      assert.equal(data.seed, seed);
      return new Uint8Array(await (await h.call(data.output.model_url)).arrayBuffer());
    };
    const a = await glbOf(42);
    const b = await glbOf(42);
    const c = await glbOf(43);
    assert.deepEqual(a, b);
    assert.notDeepEqual(a, c);
  });

  it('multi-view (2-6 photos) and remove_background give one textured panel per photo, masked', async () => {
    const { keys } = await h.account(10);
    const back = dataUrl(
      await makeImage({ width: 400, height: 400, background: '#223344', format: 'jpeg' }),
      'image/jpeg',
    );
    const r = await create(keys.generate, {
      mode: 'image',
      images: [photo, back],
      remove_background: true,
      quality: 'fast',
    });
    const data = await settle(h, r.headers.get('location')!, keys.generate);
    assert.equal(data.output.stats.materials, 2);
    assert.equal(data.output.stats.textures, 2);
    const doc = await new NodeIO().readBinary(
      new Uint8Array(await (await h.call(data.output.model_url)).arrayBuffer()),
    );
    assert.deepEqual(
      doc
        .getRoot()
        .listMaterials()
        .map((m) => m.getAlphaMode()),
      ['MASK', 'MASK'],
    );
  });

  it('fetches http(s) images, and refuses one that cannot be fetched with a 400', async () => {
    const png = await makeImage();
    const server = createServer((req, res) => {
      // CORS as a public image host sends it: the sandbox in a browser can read only such images.
      if (req.url === '/photo.png')
        res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' }).end(png);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const { id, keys } = await h.account(10);
      assert.equal((await create(keys.generate, { mode: 'image', images: [`${base}/photo.png`] })).status, 202);
      const missing = await create(keys.generate, { mode: 'image', images: [`${base}/nope.png`] });
      assert.equal(missing.status, 400);
      assert.match((await envelope(missing)).message, /images\[0\] could not be fetched/);
      assert.equal((await h.ledger(id)).entries.length, 1);
    } finally {
      server.close();
    }
  });

  it('a failure after creation is refunded; a failure at creation is 500 and not charged', async () => {
    const { id, keys } = await h.account(10);
    await h.fault(id, 'job_fail');
    const r = await create(keys.generate, { mode: 'text', prompt: 'a chair' });
    const data = await settle(h, r.headers.get('location')!, keys.generate);
    assert.equal(data.status, 'failed');
    assert.deepEqual(Object.keys(data.error).sort(), ['code', 'message']);
    await h.fault(id, 'create_error');
    const c = await create(keys.generate, { mode: 'text', prompt: 'a chair' });
    assert.equal(c.status, 500);
    assert.equal((await envelope(c)).code, 'provider_error');
    const ledger = await h.ledger(id);
    assert.deepEqual(
      ledger.entries.map((e) => e.type),
      ['charge', 'refund'],
    );
    assert.equal(ledger.balance, 10);
  });

  it('the slow fault makes the next job take that much longer (still processing where it would have finished), once', async () => {
    const { id, keys } = await h.account(10);
    const status = async (path: string) =>
      ((await (await h.call(path, { headers: { 'x-api-key': keys.generate } })).json()) as any).data.status;
    await h.fault(id, 'slow', { ms: 90_000 });
    const slow = (await create(keys.generate, { mode: 'image', images: [photo], quality: 'fast' })).headers.get(
      'location',
    )!;
    const plain = (await create(keys.generate, { mode: 'image', images: [photo], quality: 'fast' })).headers.get(
      'location',
    )!;
    // fast, one photo: 30 s; the slow one 120 s (the harness clock runs at real speed).
    await h.advance(40_000);
    await h.sandbox.idle();
    assert.equal(await status(plain), 'succeeded');
    assert.equal(await status(slow), 'processing');
    await h.advance(90_000);
    assert.equal(await status(slow), 'succeeded');
  });

  describe('refuses bad parameters with 400, naming the field, and charges nothing', () => {
    const cases: [string, unknown, RegExp][] = [
      ['no mode', { prompt: 'a chair' }, /mode is required/],
      ['unknown mode', { mode: 'video', prompt: 'a chair' }, /mode must be one of/],
      ['text without prompt', { mode: 'text' }, /prompt is required/],
      ['prompt of 2 characters', { mode: 'text', prompt: 'ab' }, /3 to 300/],
      ['prompt of 301 characters', { mode: 'text', prompt: 'x'.repeat(301) }, /3 to 300/],
      ['image mode without images', { mode: 'image' }, /images is required/],
      ['no images', { mode: 'image', images: [] }, /1 to 6/],
      ['seven images', { mode: 'image', images: Array(7).fill('data:image/png;base64,AA==') }, /1 to 6/],
      ['a non-URL image', { mode: 'image', images: ['file:///etc/passwd'] }, /images\[0\]/],
      [
        'bad quality',
        { mode: 'text', prompt: 'a chair', quality: 'ultra' },
        /quality must be one of fast, standard, high/,
      ],
      [
        'remove_background in text mode',
        { mode: 'text', prompt: 'a chair', remove_background: true },
        /image mode only/,
      ],
      [
        'remove_background not boolean',
        { mode: 'image', images: ['data:image/png;base64,AA=='], remove_background: 'yes' },
        /true or false/,
      ],
      ['a fractional seed', { mode: 'text', prompt: 'a chair', seed: 1.5 }, /seed must be a whole number/],
      ['a negative seed', { mode: 'text', prompt: 'a chair', seed: -1 }, /seed/],
      ['an unknown field', { mode: 'text', prompt: 'a chair', colour: 'red' }, /Unknown parameter colour/],
      [
        'a GIF data URL',
        { mode: 'image', images: ['data:image/gif;base64,R0lGODlhAQABAAAAACw='] },
        /not a JPG, PNG or WebP/,
      ],
      ['broken base64', { mode: 'image', images: ['data:image/png;base64,@@@'] }, /not valid base64/],
    ];
    for (const [name, body, message] of cases) {
      it(name, async () => {
        const { id, keys } = await h.account(10);
        const r = await create(keys.generate, body);
        assert.equal(r.status, 400);
        const err = await envelope(r);
        assert.equal(err.code, 'invalid_request');
        assert.match(err.message, message);
        assert.equal((await h.ledger(id)).entries.length, 0);
      });
    }
    it('multipart is 415: the endpoint takes JSON only', async () => {
      const { keys } = await h.account(10);
      const form = new FormData();
      form.set('mode', 'text');
      const r = await h.call('/api/v1/3d/jobs', {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.generate}` },
        body: form,
      });
      assert.equal(r.status, 415);
    });
    it('402 when the balance is below 2', async () => {
      const { keys } = await h.account(1);
      assert.equal((await create(keys.generate, { mode: 'text', prompt: 'a chair' })).status, 402);
    });
  });
});
