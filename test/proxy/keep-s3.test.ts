/**
 * Kept results in S3 (`@mediakit/elements/proxy/s3`) on a real S3 API (s3rver, in-process): the
 * shared contract of keep-suite.ts, and the store's own URL when the bucket is public.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { s3ResultStore } from '../../src/proxy/keep/s3-result-store.js';
import { startS3, type FakeS3 } from '../fixtures/s3.js';
import { makeImage } from '../fixtures/media.js';
import { syntheticUpstream } from '../fixtures/synthetic-upstream.js';
import { envelope, startSandbox, type Harness } from '../sandbox/harness.js';
import { bearer, startStack, videoInit, type Stack } from './harness.js';
import { imageInit, keepInit, keepSuite, sessionView } from './keep-suite.js';

let prefixes = 0;
keepSuite('s3ResultStore', {
  async open() {
    const s3 = await startS3();
    const prefix = `suite-${++prefixes}/`;
    return {
      store: s3ResultStore({ client: s3.client, bucket: s3.bucket, prefix }),
      objects: () => s3.count(prefix),
      close: () => s3.close(),
    };
  },
});

describe('s3ResultStore with a public bucket', () => {
  let s3: FakeS3;
  let sandbox: Harness;
  let s: Stack;
  before(async () => {
    s3 = await startS3();
    sandbox = await startSandbox({ speed: 1 });
    s = await startStack({
      sandboxHarness: sandbox,
      proxy: {
        results: {
          store: s3ResultStore({
            client: s3.client,
            bucket: s3.bucket,
            prefix: 'public/',
            publicBaseUrl: `${s3.endpoint}/${s3.bucket}/`,
          }),
        },
      },
    });
  });
  after(async () => {
    await s.close();
    await sandbox.close();
    await s3.close();
  });

  it("answers the bucket's own permanent URL, which serves the bytes with the kept type; the proxy's path serves them too", async () => {
    const png = await makeImage({ width: 40, height: 40 });
    const token = await s.login('pia');
    const r = await s.call('/mediakit/results', imageInit(token, png, 'image/png', { 'idempotency-key': 'p1' }));
    assert.equal(r.status, 201);
    const kept = ((await r.json()) as { data: { id: string; url: string; name: string } }).data;
    assert.equal(kept.url, `${s3.endpoint}/${s3.bucket}/public/${kept.id}`);
    const direct = await fetch(kept.url);
    assert.equal(direct.status, 200);
    assert.equal(direct.headers.get('content-type'), 'image/png');
    assert.equal(direct.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.deepEqual(new Uint8Array(await direct.arrayBuffer()), png);
    const again = await s.call('/mediakit/results', imageInit(token, png, 'image/png', { 'idempotency-key': 'p1' }));
    assert.equal(((await again.json()) as { data: { url: string } }).data.url, kept.url);
    const viaProxy = await s.call(`/mediakit/results/${kept.id}/${kept.name}`);
    assert.deepEqual(new Uint8Array(await viaProxy.arrayBuffer()), png);
  });

  it('keeps a scene of several parts in a multipart upload, and aborts one that passes the quota midway', async () => {
    const MiB = 1024 * 1024;
    const synth = syntheticUpstream(20 * MiB + 123, false);
    const big = await startStack({
      sandboxHarness: sandbox,
      proxy: {
        upstream: synth.fetch,
        results: { store: s3ResultStore({ client: s3.client, bucket: s3.bucket, prefix: 'multi/' }) },
      },
    });
    try {
      const tight = await big.proxy.mintToken({
        subject: 'tight',
        capabilities: ['video'],
        budget: 100,
        storageQuota: 12 * MiB,
      });
      const created = await big.call('/mediakit/api/v1/video-to-3d/jobs', videoInit(tight, new Uint8Array(64)));
      const handle = ((await created.json()) as { data: { job_id: string } }).data.job_id;
      const refused = await big.call('/mediakit/results', keepInit(tight, handle, 'ply'));
      assert.equal(refused.status, 413);
      assert.match((await envelope(refused)).message, /more than 1[34] MB of your 13 MB storage/);
      assert.equal(await s3.count('multi/'), 0, 'no object after the aborted multipart upload');
      assert.equal((await sessionView(big, tight)).results.used_bytes, 0);

      const roomy = await big.proxy.mintToken({
        subject: 'tight',
        capabilities: ['video'],
        budget: 100,
        storageQuota: 64 * MiB,
      });
      const ok = await big.call('/mediakit/results', keepInit(roomy, handle, 'ply'));
      assert.equal(ok.status, 201, await ok.clone().text());
      const kept = ((await ok.json()) as { data: { url: string; bytes: number } }).data;
      assert.equal(kept.bytes, synth.options.bytes);
      const served = new Uint8Array(await (await big.call(kept.url)).arrayBuffer());
      assert.equal(served.byteLength, synth.options.bytes);
      for (let i = 0; i < served.byteLength; i += 4093) assert.equal(served[i], synth.byteAt(i), `byte ${i}`);
      const across = await big.call(kept.url, { headers: { range: `bytes=${8 * MiB - 2}-${8 * MiB + 1}` } });
      assert.equal(across.status, 206);
      assert.deepEqual(
        [...new Uint8Array(await across.arrayBuffer())],
        [0, 1, 2, 3].map((i) => synth.byteAt(8 * MiB - 2 + i)),
      );
      assert.equal((await sessionView(big, roomy)).results.used_bytes, synth.options.bytes);
      const id = kept.url.split('/')[3]!;
      assert.equal(
        (await big.call(`/mediakit/results/${id}`, { method: 'DELETE', headers: bearer(roomy) })).status,
        200,
      );
      assert.equal(await s3.count('multi/'), 0);
    } finally {
      await big.close();
    }
  });

  it('refuses options that cannot work', () => {
    assert.throws(() => s3ResultStore({ client: {} as never, bucket: 'b' }), /S3Client/);
    assert.throws(() => s3ResultStore({ client: s3.client, bucket: '' }), /bucket/);
    assert.throws(() => s3ResultStore({ client: s3.client, bucket: 'b', partSize: 1024 }), /5 MiB/);
    assert.throws(() => s3ResultStore({ client: s3.client, bucket: 'b', publicBaseUrl: 'ftp://x' }), /http/);
  });
});
