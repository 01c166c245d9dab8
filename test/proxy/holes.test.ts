/**
 * The smaller holes: download tickets count against the poll rate limit, success bodies are
 * rebuilt and redacted, store keys carry the audience, log lines escape control characters,
 * configuration errors name what was passed, and the dev stack does not hand a real account to
 * anonymous visitors without an opt-in and a daily cap.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type Harness } from '../sandbox/harness.js';
import { createProxy, MemoryStore, type ProxyOptions } from '../../src/proxy/index.js';
import { createDevStack } from '../../src/dev/index.js';
import { jsonInit, SECRET, spyUpstream, startStack } from './harness.js';

describe('smaller holes', () => {
  let sandbox: Harness;
  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
  });
  after(() => sandbox.close());

  it("counts downloads by ticket against the subject's poll rate limit", async () => {
    const s = await startStack({
      sandboxHarness: sandbox,
      proxy: { rateLimits: { poll: { limit: 5, windowSeconds: 60 } } },
    });
    try {
      const t = await s.login('downloader', 10);
      const r = await s.call('/mediakit/api/v1/3d/jobs', jsonInit(t, { mode: 'text', prompt: 'a ticketed vase' }));
      const ticket = ((await r.json()) as { data: { reference_image_url: string } }).data.reference_image_url;
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const d = await s.call(ticket);
        statuses.push(d.status);
        await d.arrayBuffer();
      }
      assert.equal(statuses.filter((x) => x === 200).length, 5, statuses.join(','));
      assert.equal(statuses.filter((x) => x === 429).length, 7);
    } finally {
      await s.close();
    }
  });

  it("rebuilds success bodies from the spec's fields and redacts every string", async () => {
    const account = await sandbox.account(100);
    const leak = `${account.keys.headshot} job_abcdef123 hs_live_other`;
    const spy = spyUpstream(sandbox.url, (call) => {
      if (call.url.pathname === '/api/v1/headshot') {
        return Response.json(
          {
            data: {
              style: 'corporate',
              variants: [
                { variant: 0, status: 'failed', error: `slot failed: ${leak}` },
                {
                  variant: 1,
                  status: 'succeeded',
                  image_base64: 'iVBORw0KGgo=',
                  content_type: 'image/png',
                  width: 1,
                  height: 1,
                  debug: leak,
                },
              ],
              internal: leak,
            },
            credits_charged: 2,
            credits_remaining: 98,
            debug: { key: leak },
          },
          { headers: { 'x-credits-charged': '2' } },
        );
      }
      if (call.url.pathname === '/api/v1')
        return Response.json(
          { data: { image_base64: 'iVBORw0KGgo=', width: 1, height: 1, note: leak }, credits_charged: 1, trace: leak },
          { headers: { 'x-credits-charged': '1' } },
        );
      return undefined;
    });
    const s = await startStack({ sandboxHarness: sandbox, proxy: { upstream: spy.fetch, keys: account.keys } });
    try {
      const t = await s.login('reader', 100);
      const h = await s.call('/mediakit/api/v1/headshot', jsonInit(t, { image_base64: 'AAAA' }));
      const text = await h.text();
      assert.equal(h.status, 200, text);
      assert.doesNotMatch(text, /hs_live_|job_|debug|internal/, text);
      const body = JSON.parse(text) as { data: { variants: { error?: string }[] }; credits_charged: number };
      assert.match(body.data.variants[0]!.error!, /^slot failed: \[key\] \[job\] \[key\]$/);
      assert.deepEqual(Object.keys(body).sort(), ['credits_charged', 'credits_remaining', 'data']);
      const tool = await s.call(
        '/mediakit/api/v1',
        jsonInit(t, { image_base64: 'AAAA' }, { accept: 'application/json' }),
      );
      const toolText = await tool.text();
      assert.equal(tool.status, 200, toolText);
      assert.doesNotMatch(toolText, /live_|job_|note|trace/, toolText);
    } finally {
      await s.close();
    }
  });

  it('keeps two sites on one store apart: store keys carry the audience', async () => {
    const store = new MemoryStore();
    const a = await startStack({ sandboxHarness: sandbox, proxy: { store, audience: 'https://a.example' } });
    const b = await startStack({ sandboxHarness: sandbox, proxy: { store, audience: 'https://b.example' } });
    try {
      const ta = await a.login('42', 2);
      const tb = await b.login('42', 2);
      assert.equal(
        (await a.call('/mediakit/api/v1/3d/jobs', jsonInit(ta, { mode: 'text', prompt: 'site a' }))).status,
        202,
      );
      const r = await b.call('/mediakit/api/v1/3d/jobs', jsonInit(tb, { mode: 'text', prompt: 'site b' }));
      assert.equal(r.status, 202, 'subject 42 of site B has its own budget');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('escapes control characters in log lines', async () => {
    const events: string[] = [];
    const spy = spyUpstream(sandbox.url, () =>
      Response.json(
        { error: { code: 'weird', message: 'oops\n[mediakit proxy] store failed: forged line\r\u2028' } },
        { status: 500 },
      ),
    );
    const s = await startStack({
      sandboxHarness: sandbox,
      proxy: { upstream: spy.fetch, log: (e) => events.push(e.message) },
    });
    try {
      const t = await s.login('logger', 10);
      await (
        await s.call('/mediakit/api/v1/3d/jobs', jsonInit(t, { mode: 'text', prompt: 'a log line' }))
      ).arrayBuffer();
      const line = events.find((e) => e.includes('oops'));
      assert.ok(line, events.join(' | '));
      assert.doesNotMatch(line, /[\n\r\u2028]/);
      assert.match(line, /oops\\n\[mediakit proxy\] store failed: forged line\\r\\u2028/);
    } finally {
      await s.close();
    }
  });

  it('names what the user passed in configuration errors', () => {
    const base: ProxyOptions = {
      upstream: 'https://api.example',
      keys: { generate: 'g3_live_k' },
      secret: SECRET,
      authorize: () => null,
    };
    const error = (patch: Partial<ProxyOptions>) => {
      try {
        createProxy({ ...base, ...patch } as ProxyOptions);
      } catch (err) {
        return (err as Error).message;
      }
      return 'no error';
    };
    const short = error({ secret: 'short' });
    assert.match(short, /`secret` is 5 bytes; it must be at least 32 bytes/);
    assert.doesNotMatch(short, /k1/);
    assert.match(
      error({ secret: { current: { id: 'now', secret: SECRET }, previous: [{ id: 'old', secret: 'tiny' }] } }),
      /`secret\.previous\[0\]` \(id "old"\) is 4 bytes/,
    );
    assert.match(error({ allowedOrigins: ['shop.example'] }), /allowedOrigins entry "shop\.example"/);
    assert.match(error({ upstream: 'not a url' }), /upstream .*"not a url"/);
    assert.match(error({ upstreamTimeoutMs: -5 }), /upstreamTimeoutMs .* it was -5/);
    assert.match(error({ remoteImages: 'private' as never }), /remoteImages .* it was "private"/);
  });

  it("refuses to run the anonymous demo against a real upstream unless allowed, and then caps the day's total", async () => {
    const account = await sandbox.account(1000);
    const env = {
      MEDIAKIT_UPSTREAM: sandbox.url,
      MEDIAKIT_KEY_GENERATE: account.keys.generate,
      MEDIAKIT_SECRET: SECRET,
    };
    assert.throws(() => createDevStack({ env }), /MEDIAKIT_ALLOW_ANONYMOUS=1/);
    const stack = createDevStack({
      env: { ...env, MEDIAKIT_ALLOW_ANONYMOUS: '1', MEDIAKIT_ANONYMOUS_DAILY_CREDITS: '4' },
    });
    const server = createServer((req, res) => stack.middleware(req, res, () => res.writeHead(404).end()));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const statuses: number[] = [];
      for (let visitor = 0; visitor < 3; visitor++) {
        // A browser without a cookie: a new anonymous subject each time.
        const session = await fetch(url + '/mediakit/session', { method: 'POST' });
        const token = ((await session.json()) as { data: { token: string } }).data.token;
        for (let i = 0; i < 2; i++) {
          const r = await fetch(
            url + '/mediakit/api/v1/3d/jobs',
            jsonInit(token, { mode: 'text', prompt: `visitor ${visitor}` }),
          );
          statuses.push(r.status);
          await r.arrayBuffer();
        }
      }
      assert.deepEqual(statuses, [202, 202, 402, 402, 402, 402]);
      assert.equal(1000 - (await sandbox.ledger(account.id)).balance, 4);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
