/**
 * The budget against aborts and failures, over real HTTP: the browser's socket is cut while an
 * HTTP upstream works on the call, the upstream times out, is unreachable, or the store hangs.
 * Rule: once the body is handed upstream, the call is settled at X-Credits-Charged whatever the
 * browser does; a reservation is released only when upstream certainly charged nothing.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { startSandbox, type Harness } from '../sandbox/harness.js';
import { makeImage, makeVideo, toBase64 } from '../fixtures/media.js';
import { MemoryStore, type ProxyStore } from '../../src/proxy/index.js';
import { bearer, jsonInit, startStack, type Stack } from './harness.js';
import { closedPort, cutRequest, sleep, slowUpstream, until, type SlowUpstream } from './net.js';

const CREDITS = 10_000;

async function usedOf(s: Stack, token: string): Promise<number> {
  const r = await s.call('/mediakit/session', { headers: bearer(token) });
  return ((await r.json()) as { data: { budget: { used: number } } }).data.budget.used;
}

/** What upstream charged this stack's account, net of refunds. */
async function upstreamCharged(s: Stack): Promise<number> {
  return CREDITS - (await s.sandbox.ledger(s.accountId)).balance;
}

describe('the budget holds against aborts, timeouts and failures', () => {
  let sandbox: Harness;
  let slow: SlowUpstream;
  let selfie: string;
  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
    slow = await slowUpstream(sandbox.url, 300);
    selfie = toBase64(await makeImage({ width: 128, height: 128 }));
  });
  after(async () => {
    await slow.close();
    await sandbox.close();
  });

  it('keeps a headshot reservation when the browser cuts its socket mid-call, and settles at what upstream charged', async () => {
    const s = await startStack({ sandboxHarness: sandbox, credits: CREDITS, proxy: { upstream: slow.url } });
    try {
      const t = await s.login('cutter', 10);
      const body = JSON.stringify({ image_base64: selfie });
      const outcomes = [];
      for (let i = 0; i < 5; i++) {
        outcomes.push(
          await cutRequest(
            s.url,
            '/mediakit/api/v1/headshot',
            bearer(t, { 'content-type': 'application/json' }),
            body,
            slow.nextReceived(),
          ),
        );
      }
      // Upstream finishes the calls it received; the proxy settles each (or, before the fix, had released it).
      await until(
        async () =>
          slow.received.length > 0 &&
          (await usedOf(s, t)) === (await upstreamCharged(s)) &&
          (await upstreamCharged(s)) > 0,
        15_000,
        'the session to match upstream',
      ).catch(() => undefined);
      await sleep(500);
      const charged = await upstreamCharged(s);
      const used = await usedOf(s, t);
      assert.ok(charged > 0, 'upstream did the work of the first call');
      assert.equal(
        used,
        charged,
        `the session counts what upstream charged (outcomes: ${JSON.stringify(outcomes.map((o) => (typeof o === 'string' ? o : o.status)))})`,
      );
      assert.ok(charged <= 10, `upstream charged ${charged} of a budget of 10`);
    } finally {
      await s.close();
    }
  });

  it('releases the reservation when the browser goes away in the middle of a video upload (upstream never had the whole body)', async () => {
    const s = await startStack({ sandboxHarness: sandbox, credits: CREDITS, proxy: { upstream: slow.url } });
    try {
      const t = await s.login('uploader', 20);
      const video = await makeVideo({ seconds: 1, width: 160, height: 120 });
      const boundary = 'cutboundary';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="video_file"; filename="a.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
      );
      const u = new URL(s.url);
      const req = httpRequest({
        host: u.hostname,
        port: u.port,
        method: 'POST',
        path: '/mediakit/api/v1/video-to-3d/jobs',
        headers: bearer(t, {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + video.byteLength + 1000),
        }),
      });
      req.on('error', () => {});
      req.write(head);
      req.write(video.subarray(0, 1000));
      await until(async () => (await usedOf(s, t)) === 20, 5000, 'the reservation');
      req.destroy();
      await until(async () => (await usedOf(s, t)) === 0, 5000, 'the release');
      assert.equal(await upstreamCharged(s), 0);
    } finally {
      await s.close();
    }
  });

  it('keeps the reservation when upstream does not answer in time, and says so in the log', async () => {
    const logs: string[] = [];
    const s = await startStack({
      sandboxHarness: sandbox,
      credits: CREDITS,
      proxy: { upstream: slow.url, upstreamTimeoutMs: 100, log: (e) => logs.push(e.message) },
    });
    try {
      const t = await s.login('patient', 10);
      const r = await s.call('/mediakit/api/v1/3d/jobs', jsonInit(t, { mode: 'text', prompt: 'a slow lamp' }));
      assert.equal(r.status, 504);
      assert.equal(await usedOf(s, t), 2, 'the reservation is kept');
      assert.ok(
        logs.some((l) => /reservation of 2 credits is kept/.test(l)),
        logs.join('\n'),
      );
      await until(async () => (await upstreamCharged(s)) === 2, 15_000, 'upstream to finish').catch(() => undefined);
      assert.equal(await upstreamCharged(s), 2, 'upstream did charge: the budget was right to keep it');
    } finally {
      await s.close();
    }
  });

  it('releases the reservation when upstream refuses the connection', async () => {
    const s = await startStack({
      sandboxHarness: sandbox,
      credits: CREDITS,
      proxy: { upstream: `http://127.0.0.1:${await closedPort()}` },
    });
    try {
      const t = await s.login('refused', 10);
      const r = await s.call('/mediakit/api/v1/3d/jobs', jsonInit(t, { mode: 'text', prompt: 'a lamp' }));
      assert.equal(r.status, 502);
      assert.equal(await usedOf(s, t), 0);
    } finally {
      await s.close();
    }
  });

  it('bounds release() by storeTimeoutMs when the store hangs after an upstream failure', async () => {
    const inner = new MemoryStore();
    const store: ProxyStore = {
      reserve: (...a) => inner.reserve(...a),
      settle: (...a) => inner.settle(...a),
      used: (...a) => inner.used(...a),
      hit: (...a) => inner.hit(...a),
      release: () => new Promise(() => {}),
    };
    const s = await startStack({
      sandboxHarness: sandbox,
      credits: CREDITS,
      proxy: { upstream: `http://127.0.0.1:${await closedPort()}`, store, storeTimeoutMs: 200 },
    });
    try {
      const t = await s.login('hanging', 10);
      const started = Date.now();
      const r = await Promise.race([
        s.call('/mediakit/api/v1/3d/jobs', jsonInit(t, { mode: 'text', prompt: 'a lamp' })),
        sleep(3000).then(() => 'no answer' as const),
      ]);
      assert.notEqual(r, 'no answer', 'the proxy answered');
      assert.equal((r as Response).status, 502);
      assert.ok(Date.now() - started < 2000);
    } finally {
      await s.close();
    }
  });
});
