/**
 * Remote image URLs cannot be aimed at private networks. The proxy refuses them before anything
 * goes upstream (`remoteImages`: 'public' by default, 'deny', or the site's own check), and
 * forwards exactly the body it checked.
 */
import { after, before, describe, it, mock } from 'node:test';
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { envelope, startSandbox, type Harness } from '../sandbox/harness.js';
import { makeImage, toBase64 } from '../fixtures/media.js';
import { bearer, jsonInit, spyUpstream, startStack, type Stack } from './harness.js';

describe('remote image URLs through the proxy', () => {
  let sandbox: Harness;
  let secret: Server;
  let secretUrl: string;
  let secretHits = 0;
  let spy: ReturnType<typeof spyUpstream>;
  let s: Stack;
  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
    const png = await makeImage({ width: 64, height: 64 });
    secret = createServer((_req, res) => {
      secretHits++;
      res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    await new Promise<void>((r) => secret.listen(0, '127.0.0.1', r));
    secretUrl = `http://127.0.0.1:${(secret.address() as AddressInfo).port}/admin/secret.png`;
    spy = spyUpstream(sandbox.url);
    s = await startStack({
      sandboxHarness: sandbox,
      proxy: { upstream: spy.fetch, rateLimits: { create: { limit: 10_000, windowSeconds: 60 } } },
    });
  });
  after(async () => {
    await s.close();
    await sandbox.close();
    secret.close();
  });

  const refusedUrls = [
    'http://127.0.0.1:8080/admin/secret.png',
    'http://localhost/secret.png',
    'http://[::1]/a.png',
    'http://[::ffff:127.0.0.1]/a.png',
    // IPv4-translated (RFC 2765, ::ffff:0:a.b.c.d): issue 19 found the first one passing.
    'http://[::ffff:0:7f00:1]/a.png',
    'http://[::ffff:0:10.0.0.7]/a.png',
    'http://[0:0:0:0:ffff:0:a9fe:a9fe]/latest/meta-data/',
    'http://10.0.0.7/a.png',
    'http://172.16.3.4/a.png',
    'http://192.168.1.1/a.png',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/a.png',
    'http://[fd12::1]/a.png',
    'http://[fe80::1]/a.png',
    'http://2130706433/a.png',
    'http://0x7f.1/a.png',
    'http://intranet/a.png',
    'http://printer.local/a.png',
    'http://db.internal/a.png',
    'ftp://example.com/a.png',
    'file:///etc/passwd',
  ];

  it('refuses private, loopback, link-local, CGNAT, ULA, mapped and local-name URLs with 400 naming the field, before anything goes upstream', async () => {
    const t = await s.login('prober', 1000);
    for (const url of refusedUrls) {
      const before = spy.calls.length;
      for (const [path, body, fieldName] of [
        ['/mediakit/api/v1/headshot', { image_url: url }, 'image_url'],
        ['/mediakit/api/v1', { image_url: url }, 'image_url'],
        [
          '/mediakit/api/v1/3d/jobs',
          {
            mode: 'image',
            images: ['data:image/png;base64,' + toBase64(await makeImage({ width: 8, height: 8 })), url],
          },
          'images\\[1\\]',
        ],
      ] as const) {
        const r = await s.call(path, jsonInit(t, body));
        assert.equal(r.status, 400, `${path} ${url}`);
        assert.match((await envelope(r)).message, new RegExp(`^${fieldName} `), `${path} ${url}`);
      }
      const form = new FormData();
      form.set('image_url', url);
      const r = await s.call('/mediakit/api/v1/headshot', { method: 'POST', headers: bearer(t), body: form });
      assert.equal(r.status, 400, `multipart ${url}`);
      assert.equal(spy.calls.length, before, `${url}: nothing went upstream`);
    }
    assert.equal(secretHits, 0);
  });

  it('refuses a public-looking name that resolves to a private address, and forwards one that resolves to a public address', async () => {
    // No DNS server here can be made to answer a private address for a public name, so the
    // resolver itself answers (Node's dns.lookup, which the proxy calls); everything else is real.
    const answers: Record<string, string> = {
      'rebound.example-cdn.com': '10.0.0.5',
      'photos.example-cdn.com': '93.184.216.34',
    };
    const real = dns.lookup;
    mock.method(
      dns,
      'lookup',
      (
        host: string,
        options: unknown,
        callback: (err: Error | null, addresses: { address: string; family: number }[]) => void,
      ) =>
        answers[host]
          ? callback(null, [{ address: answers[host]!, family: 4 }])
          : (real as (...a: unknown[]) => void)(host, options, callback),
    );
    syncBuiltinESMExports();
    try {
      const t = await s.login('rebinder', 100);
      const before = spy.calls.length;
      const refused = await s.call(
        '/mediakit/api/v1/headshot',
        jsonInit(t, { image_url: 'https://rebound.example-cdn.com/a.png' }),
      );
      assert.equal(refused.status, 400);
      assert.match((await envelope(refused)).message, /^image_url /);
      assert.equal(spy.calls.length, before, 'nothing went upstream');
      const forwarded = await s.call(
        '/mediakit/api/v1/headshot',
        jsonInit(t, { image_url: 'https://photos.example-cdn.com/a.png', variants: [0] }),
      );
      assert.equal(spy.calls.length, before + 1, 'a name resolving to a public address goes upstream');
      assert.notEqual(forwarded.status, 200, 'the sandbox cannot reach it (no network here)');
    } finally {
      mock.restoreAll();
      syncBuiltinESMExports();
    }
  });

  it("'deny' refuses every image URL; a function allows the site's own list", async () => {
    const deny = await startStack({ sandboxHarness: sandbox, proxy: { remoteImages: 'deny' } });
    const own = await startStack({
      sandboxHarness: sandbox,
      proxy: { remoteImages: (url) => url.hostname === 'cdn.example.com' },
    });
    try {
      const d = await deny.login('d', 100);
      const r = await deny.call(
        '/mediakit/api/v1/headshot',
        jsonInit(d, { image_url: 'https://cdn.example.com/a.png' }),
      );
      assert.equal(r.status, 400);
      assert.match((await envelope(r)).message, /image_url: this site does not accept image URLs/);
      const ok = await deny.call(
        '/mediakit/api/v1/headshot',
        jsonInit(d, { image_base64: toBase64(await makeImage({ width: 64, height: 64 })), variants: [0] }),
      );
      assert.equal(ok.status, 200, 'uploads still work');
      const o = await own.login('o', 100);
      const other = await own.call(
        '/mediakit/api/v1/headshot',
        jsonInit(o, { image_url: 'https://elsewhere.example.org/a.png' }),
      );
      assert.equal(other.status, 400);
      const listed = await own.call(
        '/mediakit/api/v1/headshot',
        jsonInit(o, { image_url: 'https://cdn.example.com/a.png' }),
      );
      assert.equal(listed.status, 400, 'forwarded: the sandbox cannot reach it (no network), and says so');
      assert.match((await envelope(listed)).message, /could not be fetched/);
    } finally {
      await deny.close();
      await own.close();
    }
  });

  it('forwards exactly what it checked: duplicate JSON keys are resolved before upstream sees them', async () => {
    const t = await s.login('dup', 100);
    const before = spy.calls.length;
    const body = `{"image_url":"https://example.com/a.png","image_url":"${secretUrl}"}`;
    const r = await s.call('/mediakit/api/v1/headshot', {
      method: 'POST',
      headers: bearer(t, { 'content-type': 'application/json' }),
      body,
    });
    assert.equal(r.status, 400);
    assert.equal(spy.calls.length, before);
    assert.equal(secretHits, 0);
  });
});

describe('remote image URLs in the sandbox', () => {
  let h: Harness;
  let server: Server;
  let base: string;
  const hits: string[] = [];
  before(async () => {
    const png = await makeImage({ width: 64, height: 64 });
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/ok.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      else if (req.url === '/to-metadata')
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      else if (req.url?.startsWith('/loop'))
        res.writeHead(302, { location: `/loop${Number(req.url.slice(5) || 0) + 1}` }).end();
      else if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.alloc(13 * 1024 * 1024));
      } else if (req.url === '/stall') res.writeHead(200, { 'content-type': 'image/png' }).write(png.subarray(0, 10));
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    h = await startSandbox({ imageUrls: { allowLoopback: true }, imageUrlTimeoutMs: 1000 });
  });
  after(async () => {
    await h.close();
    server.closeAllConnections();
    server.close();
  });

  const tool = async (key: string, url: string) =>
    h.call('/api/v1', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ image_url: url }),
    });

  it('refuses loopback by default, without connecting', async () => {
    const strict = await startSandbox();
    try {
      const { keys } = await strict.account(10);
      const before = hits.length;
      const r = await strict.call('/api/v1', {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.imageTools}`, 'content-type': 'application/json' },
        body: JSON.stringify({ image_url: `${base}/admin/secret.png` }),
      });
      assert.equal(r.status, 400);
      assert.match((await envelope(r)).message, /image_url could not be fetched as an image from a public address/);
      assert.equal(hits.length, before, 'the strict sandbox never connected');
    } finally {
      await strict.close();
    }
  });

  it('checks every redirect hop, limits redirects, bytes and time, and gives one message for every failure', async () => {
    const { keys } = await h.account(100);
    assert.equal(
      (await tool(keys.imageTools, `${base}/ok.png`)).status,
      200,
      'a reachable image (loopback allowed here)',
    );
    const messages = new Set<string>();
    for (const path of ['/to-metadata', '/loop0', '/missing.png', '/stall']) {
      const r = await tool(keys.imageTools, base + path);
      assert.equal(r.status, 400, path);
      messages.add((await envelope(r)).message);
    }
    const closed = await tool(keys.imageTools, 'http://127.0.0.1:9/a.png');
    messages.add((await envelope(closed)).message);
    assert.equal(messages.size, 1, [...messages].join('\n'));
    assert.ok(hits.filter((x) => x.startsWith('/loop')).length <= 4, 'at most 3 redirects followed');
    const huge = await tool(keys.imageTools, `${base}/huge`);
    assert.equal(huge.status, 400);
    assert.match((await envelope(huge)).message, /more than 12 MB/);
  });
});
