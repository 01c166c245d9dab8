/**
 * The kept-results contract, run against each ResultStore (keep.test.ts: the filesystem store;
 * keep-s3.test.ts: the S3 store on s3rver): real jobs from the sandbox kept through the proxy over
 * HTTP, served back byte for byte after the provider's links and the proxy's tickets are gone,
 * images kept from a page, quotas before and during the stream, and deletes. Every answer of
 * these routes is recorded and checked for keys, upstream job ids and upstream URLs.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KEY_PREFIXES } from '../../src/api/index.js';
import type { ResultStore } from '../../src/proxy/index.js';
import { envelope, startSandbox, type Harness } from '../sandbox/harness.js';
import { makeImage, makeVideo } from '../fixtures/media.js';
import { bearer, jsonInit, pollUntilDone, startStack, videoInit, type Stack } from './harness.js';

export interface StoreUnderTest {
  /** A fresh, empty store, how many objects it holds, and how to close it. */
  open(): Promise<{ store: ResultStore; objects(): Promise<number>; close(): Promise<void> }>;
}

export interface SessionView {
  budget: { used: number; remaining: number };
  results: { quota_bytes: number; used_bytes: number };
}

/** The session's budget and storage (GET /session). */
export async function sessionView(s: Stack, token: string): Promise<SessionView> {
  const r = await s.call('/mediakit/session', { headers: bearer(token) });
  assert.equal(r.status, 200);
  return ((await r.json()) as { data: SessionView }).data;
}

export function keepInit(token: string, job: string, file: string): RequestInit {
  return jsonInit(token, { job, file });
}

export function imageInit(
  token: string,
  bytes: Uint8Array | ReadableStream<Uint8Array>,
  type: string,
  headers: Record<string, string> = {},
): RequestInit {
  return {
    method: 'POST',
    headers: bearer(token, { 'content-type': type, ...headers }),
    body: bytes as BodyInit,
    ...(bytes instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit;
}

/** A body sent in chunks with no Content-Length (the proxy only learns its size as it arrives). */
export function chunked(bytes: Uint8Array, size = 16 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

/** An upstream function in front of the sandbox that can drop Content-Length from file answers. */
export function lengthlessUpstream(target: string) {
  const state = { strip: false };
  const fetchUpstream = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const init: RequestInit & { duplex?: 'half' } = {
      method: request.method,
      headers: request.headers,
      signal: request.signal,
    };
    if (request.body) Object.assign(init, { body: request.body, duplex: 'half' });
    const r = await fetch(target + url.pathname + url.search, init);
    if (!state.strip || request.method !== 'GET' || (r.headers.get('content-type') ?? '').includes('json')) return r;
    const headers = new Headers(r.headers);
    headers.delete('content-length');
    return new Response(r.body, { status: r.status, headers });
  };
  return { fetch: fetchUpstream, state };
}

export function keepSuite(name: string, under: StoreUnderTest): void {
  describe(`kept results (${name})`, () => {
    let sandbox: Harness;
    let s: Stack;
    let store: Awaited<ReturnType<StoreUnderTest['open']>>;
    let upstream: ReturnType<typeof lengthlessUpstream>;
    let video: Uint8Array;
    let alice: string;
    const seen: string[] = [];

    /** Calls the proxy and records every header and (text) body the browser would see. */
    async function call(path: string, init?: RequestInit): Promise<Response> {
      const r = await s.call(path, init);
      const copy = r.clone();
      seen.push(path, JSON.stringify([...r.headers]), new TextDecoder('latin1').decode(await copy.arrayBuffer()));
      return r;
    }

    async function kept(r: Response, status: number): Promise<Record<string, any>> {
      const text = await r.text();
      assert.equal(r.status, status, text);
      return (JSON.parse(text) as { data: Record<string, any> }).data;
    }

    before(async () => {
      sandbox = await startSandbox({ speed: 1 });
      store = await under.open();
      upstream = lengthlessUpstream(sandbox.url);
      s = await startStack({
        sandboxHarness: sandbox,
        proxy: {
          upstream: upstream.fetch,
          downloadTtlSeconds: 1,
          results: { store: store.store, maxImageBytes: 200_000 },
        },
      });
      alice = await s.login('alice', 1000);
      video = await makeVideo({ seconds: 2, width: 320, height: 240 });
    });
    after(async () => {
      await s.close();
      await sandbox.close();
      await store.close();
    });

    it("keeps a video job's ply and zip, serves the same bytes after the links expired, and counts them once", async () => {
      const before = await sessionView(s, alice);
      assert.deepEqual(before.results, { quota_bytes: 1024 * 1024 * 1024, used_bytes: 0 });
      // The token tells the page that results are kept.
      const claims = JSON.parse(Buffer.from(alice.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
      assert.equal(claims['keep'], true);

      const created = await call('/mediakit/api/v1/video-to-3d/jobs', videoInit(alice, video));
      const handle = ((await created.json()) as { data: { job_id: string } }).data.job_id;
      const pending = await call('/mediakit/results', keepInit(alice, handle, 'ply'));
      assert.equal(pending.status, 400);
      assert.match((await envelope(pending)).message, /not finished yet.*succeeded/);
      const job = await pollUntilDone(s, `/mediakit/api/v1/video-to-3d/jobs/${handle}`, alice);
      const upstreamPly = new Uint8Array(await (await s.call(job['output'].ply_url)).arrayBuffer());
      const upstreamZip = new Uint8Array(await (await s.call(job['output'].archive_url)).arrayBuffer());
      const afterJob = await sessionView(s, alice);

      const ply = await kept(await call('/mediakit/results', keepInit(alice, handle, 'ply')), 201);
      assert.match(ply['id'], /^[A-Za-z0-9_-]{32}$/);
      assert.equal(ply['url'], `/mediakit/results/${ply['id']}/scene.ply`);
      assert.equal(ply['type'], 'application/octet-stream');
      assert.equal(ply['name'], 'scene.ply');
      assert.equal(ply['bytes'], upstreamPly.byteLength);
      const zip = await kept(await call('/mediakit/results', keepInit(alice, handle, 'zip')), 201);
      assert.equal(zip['type'], 'application/zip');
      assert.notEqual(zip['id'], ply['id']);

      // Keeping again is the same result: nothing stored or counted twice.
      const again = await kept(await call('/mediakit/results', keepInit(alice, handle, 'ply')), 200);
      assert.deepEqual(again, ply);
      const objects = await store.objects();
      const view = await sessionView(s, alice);
      assert.equal(view.results.used_bytes, upstreamPly.byteLength + upstreamZip.byteLength);
      assert.deepEqual(view.budget, afterJob.budget, 'keeping charges no credits');

      const served = await call(ply['url']);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), 'application/octet-stream');
      assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(served.headers.get('content-disposition'), 'inline; filename="scene.ply"');
      assert.equal(served.headers.get('content-security-policy'), "default-src 'none'; sandbox");
      assert.equal(served.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(served.headers.get('accept-ranges'), 'bytes');
      assert.equal(served.headers.get('content-length'), String(upstreamPly.byteLength));
      assert.deepEqual(new Uint8Array(await served.arrayBuffer()), upstreamPly);
      const attachment = await call(zip['url'] + '?download=1');
      assert.equal(attachment.headers.get('content-disposition'), 'attachment; filename="scene.zip"');
      assert.deepEqual(new Uint8Array(await attachment.arrayBuffer()), upstreamZip);
      const head = await call(ply['url'], { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('content-length'), String(upstreamPly.byteLength));
      const range = await call(ply['url'], { headers: { range: 'bytes=10-19' } });
      assert.equal(range.status, 206);
      assert.equal(range.headers.get('content-range'), `bytes 10-19/${upstreamPly.byteLength}`);
      assert.deepEqual(new Uint8Array(await range.arrayBuffer()), upstreamPly.slice(10, 20));
      const suffix = await call(ply['url'], { headers: { range: 'bytes=-5' } });
      assert.deepEqual(new Uint8Array(await suffix.arrayBuffer()), upstreamPly.slice(-5));
      const outside = await call(ply['url'], { headers: { range: `bytes=${upstreamPly.byteLength}-` } });
      assert.equal(outside.status, 416);
      assert.equal(outside.headers.get('content-range'), `bytes */${upstreamPly.byteLength}`);

      // No listing, no other name, no guessing.
      assert.equal((await call('/mediakit/results')).status, 405);
      assert.equal((await call('/mediakit/results/')).status, 404);
      assert.equal((await call(`/mediakit/results/${ply['id']}`)).status, 404);
      assert.equal((await call(`/mediakit/results/${ply['id']}/scene.zip`)).status, 404);
      const guessed = ply['id'].slice(0, 31) + (ply['id'].endsWith('A') ? 'B' : 'A');
      assert.equal((await call(`/mediakit/results/${guessed}/scene.ply`)).status, 404);

      // The proxy's ticket expires (1 s here) and the provider purges the scene: the kept copy stays.
      await new Promise((r) => setTimeout(r, 1100));
      assert.equal((await s.call(job['output'].ply_url)).status, 403);
      await sandbox.fault(s.accountId, 'expire');
      const purged = await call(`/mediakit/api/v1/video-to-3d/jobs/${handle}`, { headers: bearer(alice) });
      assert.equal(((await purged.json()) as { data: { status: string } }).data.status, 'expired');
      const later = await call(ply['url']);
      assert.deepEqual(new Uint8Array(await later.arrayBuffer()), upstreamPly);
      // Keeping a kept file still answers it; nothing else of the purged job can be kept.
      assert.deepEqual(await kept(await call('/mediakit/results', keepInit(alice, handle, 'ply')), 200), ply);
      assert.equal(await store.objects(), objects);
    });

    it("keeps a 3D job's model, turntable and reference image", async () => {
      const created = await call(
        '/mediakit/api/v1/3d/jobs',
        jsonInit(alice, { mode: 'text', prompt: 'a small red chair', quality: 'fast' }),
      );
      const handle = ((await created.json()) as { data: { job_id: string } }).data.job_id;
      const job = await pollUntilDone(s, `/mediakit/api/v1/3d/jobs/${handle}`, alice);
      for (const [file, type, name, link] of [
        ['glb', 'model/gltf-binary', 'model.glb', job['output'].model_url],
        ['mp4', 'video/mp4', 'turntable.mp4', job['output'].turntable_url],
        ['image', 'image/png', 'reference.png', job['reference_image_url']],
      ] as const) {
        const direct = new Uint8Array(await (await s.call(link)).arrayBuffer());
        const k = await kept(await call('/mediakit/results', keepInit(alice, handle, file)), 201);
        assert.equal(k['type'], type);
        assert.equal(k['name'], name);
        const served = await call(k['url']);
        assert.equal(served.headers.get('content-type'), type);
        assert.deepEqual(new Uint8Array(await served.arrayBuffer()), direct, file);
      }
      // A 3D file of a video job's handle (or the other way round) is no job of this session.
      const wrong = await call('/mediakit/results', keepInit(alice, handle, 'ply'));
      assert.equal(wrong.status, 404);
    });

    it('keeps an image a page holds once per Idempotency-Key, and refuses lies, large bodies and missing keys', async () => {
      const png = await makeImage({ width: 64, height: 64 });
      const jpeg = await makeImage({ width: 64, height: 64, format: 'jpeg' });
      const used = (await sessionView(s, alice)).results.used_bytes;
      const k = await kept(
        await call(
          '/mediakit/results',
          imageInit(alice, png, 'image/png', {
            'idempotency-key': 'img-1',
            'x-mediakit-filename': 'My%20photo%20(1).PNG',
          }),
        ),
        201,
      );
      assert.equal(k['name'], 'My-photo-1.png');
      assert.equal(k['type'], 'image/png');
      assert.equal(k['bytes'], png.byteLength);
      const served = await call(k['url']);
      assert.equal(served.headers.get('content-type'), 'image/png');
      assert.deepEqual(new Uint8Array(await served.arrayBuffer()), png);
      const retry = await call('/mediakit/results', imageInit(alice, png, 'image/png', { 'idempotency-key': 'img-1' }));
      assert.deepEqual(await kept(retry, 200), k);
      const streamed = await kept(
        await call(
          '/mediakit/results',
          imageInit(alice, chunked(jpeg, 1000), 'image/jpeg', { 'idempotency-key': 'img-2' }),
        ),
        201,
      );
      assert.equal(streamed['name'], 'image.jpg');
      assert.equal((await sessionView(s, alice)).results.used_bytes, used + png.byteLength + jpeg.byteLength);

      const objects = await store.objects();
      const lie = await call('/mediakit/results', imageInit(alice, jpeg, 'image/png', { 'idempotency-key': 'img-3' }));
      assert.equal(lie.status, 422);
      assert.match((await envelope(lie)).message, /not a PNG image \(its bytes say JPEG\)/);
      const missing = await call('/mediakit/results', imageInit(alice, png, 'image/png'));
      assert.equal(missing.status, 400);
      assert.match((await envelope(missing)).message, /Idempotency-Key/);
      const big = new Uint8Array(300_000);
      big.set(png.slice(0, 16));
      const declared = await call(
        '/mediakit/results',
        imageInit(alice, big, 'image/png', { 'idempotency-key': 'img-4' }),
      );
      assert.equal(declared.status, 413);
      assert.match((await envelope(declared)).message, /larger than 200 KB/);
      const sent = await call(
        '/mediakit/results',
        imageInit(alice, chunked(big), 'image/png', { 'idempotency-key': 'img-5' }),
      );
      assert.equal(sent.status, 413);
      const xml = await call('/mediakit/results', imageInit(alice, png, 'image/svg+xml', { 'idempotency-key': 'x' }));
      assert.equal(xml.status, 415);
      assert.equal(await store.objects(), objects, 'nothing refused was stored');
      assert.equal((await sessionView(s, alice)).results.used_bytes, used + png.byteLength + jpeg.byteLength);
    });

    it('refuses past the quota before and during the stream, keeps nothing half-stored and leaks no quota', async () => {
      const small = await s.proxy.mintToken({
        subject: 'quota-carol',
        capabilities: ['video'],
        budget: 100,
        storageQuota: 5000,
      });
      assert.equal((await sessionView(s, small)).results.quota_bytes, 5000);
      const created = await call('/mediakit/api/v1/video-to-3d/jobs', videoInit(small, video));
      const handle = ((await created.json()) as { data: { job_id: string } }).data.job_id;
      await pollUntilDone(s, `/mediakit/api/v1/video-to-3d/jobs/${handle}`, small);
      const objects = await store.objects();

      const early = await call('/mediakit/results', keepInit(small, handle, 'ply'));
      assert.equal(early.status, 413);
      assert.match(
        (await envelope(early)).message,
        /^Keeping this would use \d+ KB of your 5 KB storage; remove kept results/,
      );
      upstream.state.strip = true;
      try {
        const midway = await call('/mediakit/results', keepInit(small, handle, 'zip'));
        assert.equal(midway.status, 413);
        assert.match((await envelope(midway)).message, /would use more than \d+ KB of your 5 KB storage/);
      } finally {
        upstream.state.strip = false;
      }
      assert.equal(await store.objects(), objects, 'the partial object was deleted');
      assert.equal((await sessionView(s, small)).results.used_bytes, 0, 'no quota held by a refused keep');

      // The quota that is left is still usable, to the byte.
      const png = await makeImage({ width: 32, height: 32 });
      const k = await kept(
        await call('/mediakit/results', imageInit(small, png, 'image/png', { 'idempotency-key': 'q' })),
        201,
      );
      assert.equal((await sessionView(s, small)).results.used_bytes, png.byteLength);

      // Deleting frees it; only the owner may delete; a deleted result is gone.
      const dave = await s.login('dave');
      assert.equal(
        (await call(`/mediakit/results/${k['id']}`, { method: 'DELETE', headers: bearer(dave) })).status,
        404,
      );
      assert.equal((await call(`/mediakit/results/${k['id']}`, { method: 'DELETE' })).status, 401);
      const deleted = await call(`/mediakit/results/${k['id']}`, { method: 'DELETE', headers: bearer(small) });
      assert.deepEqual(await kept(deleted, 200), { id: k['id'], deleted: true });
      assert.equal((await sessionView(s, small)).results.used_bytes, 0);
      assert.equal((await call(k['url'])).status, 404);
      assert.equal(await store.objects(), objects);
    });

    it("refuses another subject's job, and no answer carries a key, an upstream job id or an upstream URL", async () => {
      const created = await call(
        '/mediakit/api/v1/3d/jobs',
        jsonInit(alice, { mode: 'text', prompt: 'a brass key', quality: 'fast' }),
      );
      const handle = ((await created.json()) as { data: { job_id: string } }).data.job_id;
      await pollUntilDone(s, `/mediakit/api/v1/3d/jobs/${handle}`, alice);
      const bob = await s.login('bob');
      const other = await call('/mediakit/results', keepInit(bob, handle, 'glb'));
      assert.equal(other.status, 404);
      assert.match((await envelope(other)).message, /No job with this id exists for this session/);
      const bad = await call('/mediakit/results', jsonInit(alice, { job: handle, file: 'exe' }));
      assert.equal(bad.status, 400);

      const upstreamIds = (await sandbox.ledger(s.accountId)).entries.map((e) => e.job_id).filter(Boolean) as string[];
      assert.ok(upstreamIds.length >= 3);
      const everything = seen.join('\n');
      for (const secret of [...Object.values(s.keys), ...Object.values(KEY_PREFIXES), ...upstreamIds])
        assert.ok(!everything.includes(secret), `leaked: ${secret.slice(0, 10)}…`);
      assert.ok(!everything.includes(new URL(sandbox.url).host), 'leaked the upstream URL');
      assert.ok(!/api\/app\/jobs|api\/demo\/3d|expires=|sig=/.test(everything), 'leaked an upstream path or signature');
    });
  });
}
