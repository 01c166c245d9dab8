/**
 * Rate limits per subject, upstream 429s passed through, and uploads: streamed with a size cap
 * judged before reading, Content-Length required, an idle timeout, and an abort that reaches
 * upstream when the browser goes away.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { envelope, startSandbox, type Harness } from '../sandbox/harness.js';
import { makeImage, toBase64 } from '../fixtures/media.js';
import {
  bearer,
  collect,
  jsonInit,
  listen,
  spyUpstream,
  startStack,
  SECRET,
  cookieAuthorize,
  type Stack,
} from './harness.js';
import { createProxy, toNodeHandler } from '../../src/proxy/index.js';

/** Sends headers and `first` bytes of a body, then lets the test decide (wait, stop, hang up). */
function openUpload(base: string, headers: Record<string, string>, first: Uint8Array) {
  const u = new URL(base);
  const req = request({
    host: u.hostname,
    port: u.port,
    method: 'POST',
    path: '/mediakit/api/v1/video-to-3d/jobs',
    headers,
  });
  const response = collect(req);
  req.flushHeaders();
  if (first.byteLength) req.write(first);
  return { req, response };
}

describe('proxy rate limits and uploads', () => {
  let sandbox: Harness;
  let s: Stack;
  let spy: ReturnType<typeof spyUpstream>;
  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
    spy = spyUpstream(sandbox.url);
    s = await startStack({
      sandboxHarness: sandbox,
      proxy: {
        upstream: spy.fetch,
        uploadIdleTimeoutMs: 300,
        rateLimits: { create: { limit: 2, windowSeconds: 60 }, poll: { limit: 3, windowSeconds: 60 } },
      },
    });
  });
  after(async () => {
    await s.close();
    await sandbox.close();
  });

  it('limits creation and polling per subject, with Retry-After, and other subjects go on', async () => {
    const t = await s.login('hasty');
    const create = () => s.call('/mediakit/api/v1', jsonInit(t, { size: 'full' }));
    assert.equal((await create()).status, 400);
    assert.equal((await create()).status, 400);
    const limited = await create();
    assert.equal(limited.status, 429);
    const retry = Number(limited.headers.get('retry-after'));
    assert.ok(retry >= 1 && retry <= 60, String(retry));
    assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
    assert.match((await envelope(limited)).message, /wait \d+ s/);
    const poll = () => s.call(`/mediakit/api/v1/3d/jobs/${'A'.repeat(60)}`, { headers: bearer(t) });
    for (let i = 0; i < 3; i++) assert.equal((await poll()).status, 404);
    assert.equal((await poll()).status, 429);
    const other = await s.login('patient');
    assert.equal((await s.call('/mediakit/api/v1', jsonInit(other, { size: 'full' }))).status, 400);
  });

  it('passes an upstream 429 through with its Retry-After, charging nothing', async () => {
    const t = await s.login('crowded', 5);
    await sandbox.fault(s.accountId, 'rate_limit');
    const png = toBase64(await makeImage({ width: 64, height: 64 }));
    const r = await s.call('/mediakit/api/v1', jsonInit(t, { image_base64: png }));
    assert.equal(r.status, 429);
    assert.equal(r.headers.get('retry-after'), '1');
    assert.equal((await envelope(r)).code, 'rate_limited');
    const budget = (
      (await (await s.call('/mediakit/session', { headers: bearer(t) })).json()) as {
        data: { budget: { remaining: number } };
      }
    ).data.budget;
    assert.equal(budget.remaining, 5);
  });

  it('answers 413 from Content-Length before reading a byte, and 411 without one', async () => {
    const t = await s.login('uploader');
    const before = spy.calls.length;
    const big = openUpload(
      s.url,
      {
        authorization: `Bearer ${t}`,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(600 * 1024 * 1024),
      },
      new Uint8Array(0),
    );
    const r = await big.response;
    big.req.destroy();
    assert.equal(r.status, 413);
    assert.match(JSON.parse(r.body).error.message, /larger than 500 MB/);
    const chunked = openUpload(
      s.url,
      {
        authorization: `Bearer ${t}`,
        'content-type': 'multipart/form-data; boundary=x',
        'transfer-encoding': 'chunked',
      },
      new Uint8Array(10),
    );
    chunked.req.end();
    const c = await chunked.response;
    assert.equal(c.status, 411);
    assert.match(JSON.parse(c.body).error.message, /Content-Length/);
    assert.equal(spy.calls.length, before, 'nothing went upstream');
  });

  it('cuts an upload that stalls (408) and releases its reservation', async () => {
    const t = await s.login('staller', 20);
    const stalled = openUpload(
      s.url,
      { authorization: `Bearer ${t}`, 'content-type': 'multipart/form-data; boundary=x', 'content-length': '100000' },
      new Uint8Array(1000),
    );
    const r = await stalled.response;
    stalled.req.destroy();
    assert.equal(r.status, 408);
    assert.match(JSON.parse(r.body).error.message, /stalled/);
    const budget = (
      (await (await s.call('/mediakit/session', { headers: bearer(t) })).json()) as {
        data: { budget: { remaining: number } };
      }
    ).data.budget;
    assert.equal(budget.remaining, 20);
  });

  it('aborts the upstream upload when the browser goes away', async () => {
    let upstreamSawEnd: 'aborted' | 'completed' | undefined;
    const upstream = async (req: Request): Promise<Response> => {
      try {
        for await (const _ of req.body as unknown as AsyncIterable<Uint8Array>) void _;
        upstreamSawEnd = 'completed';
      } catch {
        upstreamSawEnd = 'aborted';
      }
      return new Response('{}', { status: 500 });
    };
    const p = createProxy({ upstream, keys: s.keys, secret: SECRET, authorize: cookieAuthorize, log: () => {} });
    const { server, url } = await listen(toNodeHandler(p));
    try {
      const t = await p.mintToken({ subject: 'leaver', capabilities: ['video'], budget: 100 });
      const upload = openUpload(
        url,
        {
          authorization: `Bearer ${t}`,
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': '10000000',
        },
        new Uint8Array(64 * 1024),
      );
      upload.response.catch(() => {});
      await new Promise((r) => setTimeout(r, 100));
      upload.req.destroy();
      for (let i = 0; i < 50 && !upstreamSawEnd; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(upstreamSawEnd, 'aborted');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
