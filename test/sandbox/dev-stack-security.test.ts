/**
 * The dev stack (src/dev) as a hostile page or a hostile local service would meet it, over real
 * HTTP: what `npm start`, Storybook and the browser tests serve to anything that can reach them.
 * Issue 19: the trickle relay, the control plane's gate, the dev ledger and the demo subject.
 */
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createDevStack, type DevStack } from '../../src/dev/index.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(
  handler: Handler,
): Promise<{ server: Server; url: string; port: number; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** A server with the stack in front and `fallback` (the rest of the dev server) behind it. */
function serveStack(stack: DevStack, fallback: Handler = (_req, res) => res.writeHead(404).end()) {
  return listen((req, res) => stack.middleware(req, res, () => fallback(req, res)));
}

/**
 * A GET with a Host header of our choosing (fetch drops `host`, a forbidden header name): what a
 * browser sends for a page on a DNS name that an attacker rebound to 127.0.0.1.
 */
function getWithHost(port: number, path: string, headers: Record<string, string>): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, setHost: !headers['host'] }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers))
          for (const one of [v].flat()) if (one !== undefined) h.append(k, one);
        resolve(new Response(chunks.length ? Buffer.concat(chunks) : null, { status: res.statusCode, headers: h }));
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('dev stack: the trickle route relays only its own listed files', () => {
  const page =
    '<!doctype html><script>fetch("/mediakit/session",{method:"POST"})</script>secret page of another service';
  let other: Awaited<ReturnType<typeof listen>>;
  before(async () => {
    other = await listen((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
  });
  after(() => other.close());

  it('refuses control characters, other origins and files that are not on its list', async () => {
    const stack = createDevStack({ env: {}, trickleFiles: ['/assets/model.glb'] });
    const s = await serveStack(stack, (req, res) =>
      req.url === '/assets/model.glb'
        ? res.writeHead(200).end('glb')
        : res.writeHead(200, { 'content-type': 'text/html' }).end(page),
    );
    const auth = { 'x-mediakit-dev-token': stack.devToken };
    try {
      const hostile = [
        // The attack of issue 19: the URL parser drops the tab, so the path became //127.0.0.1:port/x.
        `/%09/127.0.0.1:${other.port}/x`,
        `/%0a/127.0.0.1:${other.port}/x`,
        `/%0d/127.0.0.1:${other.port}/x`,
        `/%7f/127.0.0.1:${other.port}/x`,
        `/assets/model.glb%00`,
        encodeURIComponent(`//127.0.0.1:${other.port}/x`),
        encodeURIComponent(`/\\127.0.0.1:${other.port}/x`),
        encodeURIComponent(`http://127.0.0.1:${other.port}/assets/model.glb`),
        // Files of this same server that the stories do not use (Vite serves /@fs/ and the sources).
        encodeURIComponent('/assets/other.glb'),
        encodeURIComponent('/@fs/etc/passwd'),
        encodeURIComponent('/assets/model.glb/../../index.html'),
        '',
      ];
      for (const src of hostile) {
        const r = await fetch(`${s.url}/sandbox/__dev/trickle?src=${src}&seconds=1`, { headers: auth });
        const body = await r.text();
        assert.equal(r.status, 400, `src=${src} answered ${r.status}: ${body.slice(0, 80)}`);
        assert.doesNotMatch(body, /secret page/, src);
        assert.match(body, /\/assets\/model\.glb/, 'the refusal names the files it relays');
      }
    } finally {
      await s.close();
    }
  });

  it('answers a listed file as inert bytes: octet-stream, nosniff, a sandboxing CSP', async () => {
    const stack = createDevStack({ env: {}, trickleFiles: ['/assets/model.glb'] });
    // Whatever the file's own server says it is, the relay's answer never runs as a page.
    const s = await serveStack(stack, (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
    try {
      const r = await fetch(`${s.url}/sandbox/__dev/trickle?src=/assets/model.glb&seconds=1`, {
        headers: { 'x-mediakit-dev-token': stack.devToken },
      });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'application/octet-stream');
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(r.headers.get('content-security-policy'), 'sandbox');
      assert.equal(await r.text(), page);
    } finally {
      await s.close();
    }
  });

  it('refuses a file over the size cap, by its length or while reading, without reading it all', async () => {
    const stack = createDevStack({
      env: {},
      trickleFiles: ['/big-declared', '/big-streamed'],
      trickleMaxBytes: 100_000,
    });
    let sentPastCap = 0;
    let streamClosed = false;
    const s = await serveStack(stack, (req, res) => {
      if (req.url === '/big-declared')
        return void res.writeHead(200, { 'content-length': String(600_000_000) }).write(new Uint8Array(1000));
      // No length: 16 KiB pieces forever, until the relay hangs up.
      res.writeHead(200);
      res.on('close', () => (streamClosed = true));
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(new Uint8Array(16_384));
        sentPastCap += 16_384;
      }, 2);
    });
    try {
      const declared = await fetch(`${s.url}/sandbox/__dev/trickle?src=/big-declared&seconds=1`, {
        headers: { 'x-mediakit-dev-token': stack.devToken },
      });
      assert.equal(declared.status, 502);
      assert.match(await declared.text(), /larger than 100000 bytes/);
      const streamed = await fetch(`${s.url}/sandbox/__dev/trickle?src=/big-streamed&seconds=1`, {
        headers: { 'x-mediakit-dev-token': stack.devToken },
      });
      assert.equal(streamed.status, 502);
      assert.match(await streamed.text(), /larger than 100000 bytes/);
      const deadline = Date.now() + 5000;
      while (!streamClosed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.ok(streamClosed, 'the relay stopped reading and hung up once past the cap');
      assert.ok(sentPastCap < 5_000_000, `the relay read on ${sentPastCap} bytes`);
    } finally {
      await s.close();
    }
  });

  it('gives up on a file that does not arrive in time', async () => {
    const stack = createDevStack({ env: {}, trickleFiles: ['/slow'], trickleTimeoutMs: 500 });
    const s = await serveStack(stack, (_req, res) => void res.writeHead(200, { 'content-length': '10' }).write('1'));
    try {
      const t0 = Date.now();
      const r = await fetch(`${s.url}/sandbox/__dev/trickle?src=/slow&seconds=1`, {
        headers: { 'x-mediakit-dev-token': stack.devToken },
      });
      assert.equal(r.status, 504);
      assert.match(await r.text(), /did not arrive within 500 ms/);
      assert.ok(Date.now() - t0 < 4000);
    } finally {
      await s.close();
    }
  });

  it('lists the files the stories relay by default', async () => {
    const stack = createDevStack({ env: {} });
    const s = await serveStack(stack, (req, res) => res.writeHead(200).end(req.url));
    try {
      for (const file of ['/assets/DamagedHelmet.glb', '/assets/guitar.compressed.ply']) {
        const r = await fetch(`${s.url}/sandbox/__dev/trickle?src=${file}&seconds=1`, {
          headers: { 'x-mediakit-dev-token': stack.devToken },
        });
        assert.equal(r.status, 200, file);
        assert.equal(await r.text(), file);
      }
      assert.equal(
        (
          await fetch(`${s.url}/sandbox/__dev/trickle?src=/assets/Duck.glb&seconds=1`, {
            headers: { 'x-mediakit-dev-token': stack.devToken },
          })
        ).status,
        400,
      );
    } finally {
      await s.close();
    }
  });
});

describe('dev stack: the control plane answers only its own pages', () => {
  let stack: DevStack;
  let s: Awaited<ReturnType<typeof listen>>;
  before(async () => {
    stack = createDevStack({ env: {}, sandbox: { speed: 1 } });
    // What Vite's default CORS middleware does before the plugin's middleware runs.
    s = await listen((req, res) => {
      res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
      res.setHeader('access-control-allow-credentials', 'true');
      stack.middleware(req, res, () =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>demo</title>'),
      );
    });
  });
  after(() => s.close());

  const account = (headers: Record<string, string>) => fetch(`${s.url}/sandbox/__dev/account`, { headers });
  const token = () => ({ 'x-mediakit-dev-token': stack.devToken });

  function assertNoCors(r: Response, what: string): void {
    const cors = [...r.headers.keys()].filter((k) => k.startsWith('access-control-'));
    assert.deepEqual(cors, [], `${what}: no CORS grant`);
  }

  async function assertRefused(r: Response, what: string, pattern: RegExp): Promise<void> {
    assert.equal(r.status, 403, `${what} answered ${r.status}`);
    assertNoCors(r, what);
    const body = (await r.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'forbidden', what);
    assert.match(body.error.message, pattern, what);
  }

  it('refuses a caller without the dev token, and says how to get it', async () => {
    await assertRefused(await account({}), 'no token', /mediakit_dev_\d+ cookie|x-mediakit-dev-token/);
    await assertRefused(
      await account({ 'x-mediakit-dev-token': 'a'.repeat(64) }),
      'a wrong token',
      /x-mediakit-dev-token/,
    );
    await assertRefused(
      await fetch(`${s.url}/sandbox/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ account_id: await stack.account, kind: 'rate_limit', count: 5 }),
      }),
      'arming a fault',
      /x-mediakit-dev-token/,
    );
    await assertRefused(
      await fetch(`${s.url}/sandbox/__sandbox/clock`, { method: 'POST', body: '{"advance_ms":60000}' }),
      'the clock',
      /x-mediakit-dev-token/,
    );
    await assertRefused(
      await fetch(`${s.url}/sandbox/__sandbox/accounts`, { method: 'POST', body: '{"credits":5}' }),
      'a new account',
      /x-mediakit-dev-token/,
    );
    await assertRefused(await fetch(`${s.url}/sandbox/__dev/ledger`), 'the dev ledger', /x-mediakit-dev-token/);
    // Spellings the sandbox's URL parser turns into its control plane (sent raw: fetch would normalize them).
    for (const path of [
      '/sandbox/./__sandbox/accounts/x/ledger',
      '/sandbox/%2e/__sandbox/accounts/x/ledger',
      '/sandbox/x/%2E%2E/__sandbox/accounts/x/ledger',
      '/sandbox//__sandbox/accounts/x/ledger',
      '/sandbox/%5F_dev/account',
    ]) {
      await assertRefused(await getWithHost(s.port, path, {}), path, /x-mediakit-dev-token/);
    }
    // The refused fault was never armed: the next call through the proxy is not rate limited.
    const session = await fetch(`${s.url}/mediakit/session`, {
      method: 'POST',
      headers: { cookie: `mediakit_demo=${randomUUID()}` },
    });
    const { token: t } = ((await session.json()) as { data: { token: string } }).data;
    const job = await fetch(`${s.url}/mediakit/api/v1/3d/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
      body: '{"mode":"text","prompt":"a cup"}',
    });
    assert.equal(job.status, 202);
  });

  it('answers the token in the header or in its per-port cookie, with no CORS grant', async () => {
    const ok = await account(token());
    assert.equal(ok.status, 200);
    assertNoCors(ok, 'with the token');
    assert.equal(((await ok.json()) as { account_id: string }).account_id, await stack.account);
    assert.equal((await account({ cookie: `other=1; mediakit_dev_${s.port}=${stack.devToken}` })).status, 200);
    // Another dev server's cookie on the same host (Storybook beside `npm start`) is not this one's.
    await assertRefused(
      await account({ cookie: `mediakit_dev_${s.port + 1}=${stack.devToken}` }),
      "another port's cookie",
      /mediakit_dev_\d+/,
    );
  });

  it('refuses other origins, cross-site fetches and foreign Host names even with the token', async () => {
    for (const origin of [
      'http://localhost:3000',
      `http://127.0.0.1:${s.port + 1}`,
      'https://evil.example',
      'null',
      `https://127.0.0.1:${s.port}`,
    ]) {
      await assertRefused(await account({ ...token(), origin }), `origin ${origin}`, /Origin/);
    }
    for (const site of ['same-site', 'cross-site'])
      await assertRefused(await account({ ...token(), 'sec-fetch-site': site }), site, /Sec-Fetch-Site/);
    // DNS rebinding: a name the attacker controls, pointed at 127.0.0.1.
    for (const host of [`evil.example:${s.port}`, `localhost.evil.example:${s.port}`, `127.0.0.1.nip.io:${s.port}`]) {
      await assertRefused(
        await getWithHost(s.port, '/sandbox/__dev/account', { ...token(), host }),
        `host ${host}`,
        /Host/,
      );
    }
    for (const host of [`localhost:${s.port}`, `127.0.0.1:${s.port}`, `[::1]:${s.port}`]) {
      const origin = `http://${host}`;
      const r = await getWithHost(s.port, '/sandbox/__dev/account', {
        ...token(),
        host,
        origin,
        'sec-fetch-site': 'same-origin',
      });
      assert.equal(r.status, 200, host);
    }
    assert.equal((await account({ ...token(), 'sec-fetch-site': 'none' })).status, 200);
  });

  it('gives its cookie to its own pages only (same-origin or typed navigations, loopback Host)', async () => {
    const page = (headers: Record<string, string>) => fetch(`${s.url}/index.html`, { headers });
    const granted = await page({
      'sec-fetch-site': 'none',
      'sec-fetch-dest': 'document',
      'sec-fetch-mode': 'navigate',
    });
    const cookie = granted.headers.get('set-cookie') ?? '';
    assert.match(cookie, new RegExp(`^mediakit_dev_${s.port}=${stack.devToken};`));
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    assert.match(cookie, /Path=\//);
    assert.equal((await account({ cookie: cookie.split(';')[0]! })).status, 200);
    assert.match(
      (await page({ 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'iframe' })).headers.get('set-cookie') ?? '',
      /mediakit_dev_/,
    );
    // Storybook's dev server answers iframe.html itself: a story's module scripts are its first requests through the stack.
    assert.match(
      (await page({ 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'script' })).headers.get('set-cookie') ?? '',
      /mediakit_dev_/,
    );
    for (const site of ['same-site', 'cross-site']) {
      for (const dest of ['iframe', 'document', 'script', 'empty']) {
        assert.equal(
          (await page({ 'sec-fetch-site': site, 'sec-fetch-dest': dest })).headers.get('set-cookie'),
          null,
          `${site} ${dest}`,
        );
      }
    }
    assert.equal(
      (await page({ 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' })).headers.get('set-cookie'),
      null,
      'a fetch',
    );
    assert.equal(
      (
        await page({ 'sec-fetch-site': 'none', 'sec-fetch-dest': 'document', origin: 'http://localhost:3000' })
      ).headers.get('set-cookie'),
      null,
      'another origin',
    );
    assert.equal(
      (
        await getWithHost(s.port, '/index.html', {
          'sec-fetch-site': 'none',
          'sec-fetch-dest': 'document',
          host: `evil.example:${s.port}`,
        })
      ).headers.get('set-cookie'),
      null,
      'a rebound name',
    );
    assert.equal((await page({})).headers.get('set-cookie'), null, 'a script outside a browser');
    // A page that already has it is not given it again.
    assert.equal(
      (
        await page({ 'sec-fetch-site': 'none', 'sec-fetch-dest': 'document', cookie: cookie.split(';')[0]! })
      ).headers.get('set-cookie'),
      null,
    );
  });
});

describe('dev stack: the dev ledger shows no job ids', () => {
  it("answers the dev account's balance and entries, without job ids, behind the gate", async () => {
    const stack = createDevStack({ env: {}, sandbox: { speed: 1 }, credits: 1000 });
    const s = await serveStack(stack);
    try {
      const session = await fetch(`${s.url}/mediakit/session`, {
        method: 'POST',
        headers: { cookie: `mediakit_demo=${randomUUID()}` },
      });
      const { token } = ((await session.json()) as { data: { token: string } }).data;
      const job = await fetch(`${s.url}/mediakit/api/v1/3d/jobs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"mode":"text","prompt":"a cup"}',
      });
      assert.equal(job.status, 202);
      assert.equal((await fetch(`${s.url}/sandbox/__dev/ledger`)).status, 403);
      const r = await fetch(`${s.url}/sandbox/__dev/ledger`, { headers: { 'x-mediakit-dev-token': stack.devToken } });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('cache-control'), 'no-store');
      const text = await r.text();
      const ledger = JSON.parse(text) as {
        account_id: string;
        balance: number;
        entries: Array<Record<string, unknown>>;
      };
      assert.equal(ledger.account_id, await stack.account);
      assert.ok(ledger.balance < 1000, `charged: ${ledger.balance}`);
      assert.ok(
        ledger.entries.some((e) => e['type'] === 'charge' && e['endpoint'] && typeof e['amount'] === 'number'),
        text,
      );
      for (const e of ledger.entries) assert.ok(!('job_id' in e), `an entry shows a job id: ${JSON.stringify(e)}`);
      assert.doesNotMatch(text, /job_|"job_id"/);
    } finally {
      await s.close();
    }
  });
});

describe('dev stack: the demo session token does not reveal the cookie', () => {
  it('names the visitor by an HMAC of the cookie id, the same for the same cookie', async () => {
    const stack = createDevStack({ env: {}, sandbox: { speed: 1 } });
    const s = await serveStack(stack);
    const subject = async (id: string) => {
      const r = await fetch(`${s.url}/mediakit/session`, {
        method: 'POST',
        headers: { cookie: `mediakit_demo=${id}` },
      });
      assert.equal(r.status, 200);
      const { token } = ((await r.json()) as { data: { token: string } }).data;
      const [header, payload] = token.split('.').map((p) => Buffer.from(p, 'base64url').toString('utf8'));
      for (const text of [token, header!, payload!])
        assert.ok(
          !text.includes(id) && !text.includes(id.replaceAll('-', '')),
          `the token carries the cookie value: ${payload}`,
        );
      return (JSON.parse(payload!) as { sub: string }).sub;
    };
    try {
      const a = randomUUID();
      const first = await subject(a);
      assert.match(first, /^demo:[A-Za-z0-9_-]{22}$/);
      assert.equal(await subject(a), first, 'the same visitor keeps their subject (and so their jobs)');
      assert.notEqual(await subject(randomUUID()), first);
    } finally {
      await s.close();
    }
  });
});

describe('dev stack on a real Vite dev server', () => {
  it("refuses another localhost origin despite Vite's CORS, and gives its own page the cookie", async () => {
    const { createServer: createVite } = await import('vite');
    const { mediakitDev } = await import('../../src/dev/index.js');
    const root = mkdtempSync(join(tmpdir(), 'mk-vite-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>dev</title>');
    const vite = await createVite({
      configFile: false,
      root,
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0, strictPort: false, ws: false },
      optimizeDeps: { noDiscovery: true, include: [] },
      plugins: [mediakitDev({ env: {}, sandbox: { speed: 1 } })],
    });
    await vite.listen();
    const port = (vite.httpServer!.address() as AddressInfo).port;
    const url = `http://localhost:${port}`;
    try {
      const page = await fetch(`${url}/`, {
        headers: { 'sec-fetch-site': 'none', 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' },
      });
      assert.equal(page.status, 200);
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
      assert.match(cookie, new RegExp(`^mediakit_dev_${port}=[0-9a-f]{64}$`));
      const own = await fetch(`${url}/sandbox/__dev/account`, {
        headers: { cookie, origin: url, 'sec-fetch-site': 'same-origin' },
      });
      assert.equal(own.status, 200);
      assert.deepEqual(
        [...own.headers.keys()].filter((k) => k.startsWith('access-control-')),
        [],
      );
      // Another local dev server's page (same site: localhost cookies are shared across ports).
      const foreign = await fetch(`${url}/sandbox/__dev/account`, {
        headers: { cookie, origin: 'http://localhost:3000', 'sec-fetch-site': 'same-site' },
      });
      assert.equal(foreign.status, 403);
      assert.deepEqual(
        [...foreign.headers.keys()].filter((k) => k.startsWith('access-control-')),
        [],
        "Vite's CORS grant was removed",
      );
      const fault = await fetch(`${url}/sandbox/__sandbox/faults`, {
        method: 'POST',
        headers: {
          cookie,
          origin: 'http://localhost:3000',
          'sec-fetch-site': 'same-site',
          'content-type': 'application/json',
        },
        body: '{"kind":"rate_limit"}',
      });
      assert.equal(fault.status, 403);
      assert.equal(fault.headers.get('access-control-allow-origin'), null);
    } finally {
      await vite.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
