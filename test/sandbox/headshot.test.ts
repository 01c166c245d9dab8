import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { headshotCharge } from '../../src/api/index.js';
import { envelope, formPost, jsonPost, startSandbox, type Harness } from './harness.js';
import { makeImage, toBase64 } from '../fixtures/media.js';

describe('headshots', () => {
  let h: Harness;
  let selfie: Uint8Array;
  before(async () => {
    h = await startSandbox();
    selfie = await makeImage({ width: 360, height: 480, format: 'jpeg' });
  });
  after(() => h.close());

  const post = (key: string, body: unknown, headers?: Record<string, string>) =>
    h.call('/api/v1/headshot', jsonPost(key, body, headers));
  const pixels = async (b64: string) => sharp(Buffer.from(b64, 'base64')).raw().toBuffer({ resolveWithObject: true });

  it('a full batch: four PNG variants of the selfie, 10 credits in body and headers', async () => {
    const { id, keys } = await h.account(30);
    const r = await post(keys.headshot, { image_base64: toBase64(selfie) });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-credits-charged'), '10');
    assert.equal(r.headers.get('x-credits-remaining'), '20');
    const body = (await r.json()) as any;
    assert.equal(body.data.style, 'corporate');
    assert.equal(body.credits_charged, 10);
    assert.deepEqual(
      body.data.variants.map((v: any) => [v.variant, v.status, v.content_type]),
      [0, 1, 2, 3].map((i) => [i, 'succeeded', 'image/png']),
    );
    const images = await Promise.all(body.data.variants.map((v: any) => pixels(v.image_base64)));
    for (const [i, { info }] of images.entries()) {
      assert.equal(info.width, body.data.variants[i].width);
      assert.equal(info.height, body.data.variants[i].height);
    }
    // Every slot is its own picture.
    for (let a = 0; a < 4; a++)
      for (let b = a + 1; b < 4; b++) assert.notDeepEqual(images[a]!.data, images[b]!.data, `slot ${a} vs ${b}`);
    assert.equal((await h.ledger(id)).balance, 20);
  });

  it('styles differ: the backdrop of corporate is grey, of creative warm', async () => {
    const { keys } = await h.account(30);
    const corner = async (style: string) => {
      const r = await post(keys.headshot, { image_base64: toBase64(selfie), style, variants: [0] });
      const { data } = await pixels(((await r.json()) as any).data.variants[0].image_base64);
      return [data[0]!, data[1]!, data[2]!] as const;
    };
    const [cr, cg, cb] = await corner('corporate');
    const [wr, , wb] = await corner('creative');
    assert.ok(Math.abs(cr - cg) < 12 && Math.abs(cg - cb) < 12, `corporate grey: ${cr},${cg},${cb}`);
    assert.ok(wr - wb > 40, `creative warm: ${wr} vs ${wb}`);
  });

  it('multipart with variants "0,2" returns exactly those slots and charges by the written rule', async () => {
    const { keys } = await h.account(30);
    const form = new FormData();
    form.set('image_file', new Blob([selfie as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), 'me.jpg');
    form.set('variants', '0,2');
    form.set('style', 'bewerbung');
    const r = await h.call('/api/v1/headshot', formPost(keys.headshot, form));
    assert.equal(r.status, 200);
    const body = (await r.json()) as any;
    assert.deepEqual(
      body.data.variants.map((v: any) => v.variant),
      [0, 2],
    );
    assert.equal(body.credits_charged, headshotCharge(2));
    assert.equal(r.headers.get('x-credits-charged'), '5');
  });

  it('partial failure: failed slots carry an error string and are not charged (3 of 4 cost 7)', async () => {
    const { id, keys } = await h.account(30);
    await h.fault(id, 'variant_fail', { variants: [1] });
    const r = await post(keys.headshot, { image_base64: toBase64(selfie) });
    assert.equal(r.status, 200);
    const body = (await r.json()) as any;
    const failed = body.data.variants.find((v: any) => v.variant === 1);
    assert.equal(failed.status, 'failed');
    assert.equal(typeof failed.error, 'string');
    assert.equal(failed.image_base64, undefined);
    assert.equal(body.credits_charged, 7);
    assert.equal(r.headers.get('x-credits-charged'), '7');
    assert.equal((await h.ledger(id)).balance, 23);
    const retry = await post(keys.headshot, { image_base64: toBase64(selfie), variants: [1] });
    assert.equal(((await retry.json()) as any).data.variants[0].status, 'succeeded');
    assert.equal((await h.ledger(id)).balance, 21);
  });

  it('every variant failing is 500 provider_error and charges nothing', async () => {
    const { id, keys } = await h.account(30);
    await h.fault(id, 'all_variants_fail');
    const r = await post(keys.headshot, { image_base64: toBase64(selfie) });
    assert.equal(r.status, 500);
    assert.equal((await envelope(r)).code, 'provider_error');
    assert.equal((await h.ledger(id)).entries.length, 0);
  });

  it('402 before work when the balance is below the batch price', async () => {
    const { id, keys } = await h.account(9);
    const r = await post(keys.headshot, { image_base64: toBase64(selfie) });
    assert.equal(r.status, 402);
    assert.equal((await h.ledger(id)).balance, 9);
    assert.equal(
      (await post(keys.headshot, { image_base64: toBase64(selfie), variants: [0, 1, 2] })).status,
      200,
      '7 credits fit in 9',
    );
  });

  describe('bad input is a 400 that names the fix, with no charge', () => {
    const cases: [string, () => Promise<unknown>, RegExp][] = [
      [
        'no image',
        async () => ({ style: 'corporate' }),
        /exactly one of image_file \(multipart\), image_base64 or image_url/,
      ],
      [
        'two sources',
        async () => ({ image_base64: toBase64(selfie), image_url: 'https://example.com/a.jpg' }),
        /exactly one image source/,
      ],
      [
        'unknown style',
        async () => ({ image_base64: toBase64(selfie), style: 'punk' }),
        /style must be one of corporate, business-casual, bewerbung, creative/,
      ],
      ['slot 4', async () => ({ image_base64: toBase64(selfie), variants: [4] }), /slots 0, 1, 2 and 3/],
      ['a slot twice', async () => ({ image_base64: toBase64(selfie), variants: [1, 1] }), /twice/],
      ['empty variants', async () => ({ image_base64: toBase64(selfie), variants: [] }), /at least one slot/],
      [
        'variants as an object',
        async () => ({ image_base64: toBase64(selfie), variants: { a: 1 } }),
        /array of slot numbers/,
      ],
      [
        'a data URL in image_base64',
        async () => ({ image_base64: 'data:image/png;base64,' + toBase64(selfie) }),
        /without a data: URL prefix/,
      ],
      ['not base64', async () => ({ image_base64: '%%%not base64%%%' }), /not valid base64/],
      [
        'a GIF',
        async () => ({ image_base64: 'R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==' }),
        /not a JPG, PNG or WebP/,
      ],
      ['a truncated JPEG', async () => ({ image_base64: toBase64(selfie.subarray(0, 400)) }), /could not be decoded/],
      [
        'over 12 MB',
        async () => ({ image_base64: toBase64(new Uint8Array(12 * 1024 * 1024 + 10).fill(0xff)) }),
        /at most 12 MB/,
      ],
      ['an ftp URL', async () => ({ image_url: 'ftp://example.com/a.jpg' }), /http or https/],
      ['a URL with credentials', async () => ({ image_url: 'http://user:pw@127.0.0.1:1/a.jpg' }), /credentials/],
      ['an unreachable URL', async () => ({ image_url: 'http://127.0.0.1:1/a.jpg' }), /could not be fetched/],
    ];
    for (const [name, make, message] of cases) {
      it(name, async () => {
        const { id, keys } = await h.account(30);
        const r = await post(keys.headshot, await make());
        assert.equal(r.status, 400);
        assert.match((await envelope(r)).message, message);
        assert.equal((await h.ledger(id)).entries.length, 0);
      });
    }
  });
});
