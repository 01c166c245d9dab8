/**
 * What a Vite dev server with `mediakitDev()` shows to a page of another origin (issue 31, item 2),
 * over real HTTP: no CORS grant to another localhost origin, no dev secret and no kept file through
 * Vite's `/@fs/` route, `npm start`'s secret and kept results outside everything it serves, and no
 * download ticket (even one forged with a stolen secret) that makes the proxy fetch a host other
 * than the upstream's or a configured provider's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InlineConfig, Plugin, ViteDevServer } from 'vite';
import { createDevStack, type DevStack } from '../../src/dev/index.js';
import { Sealer } from '../../src/proxy/tokens/handles.js';
import { Keyring } from '../../src/proxy/tokens/secrets.js';
import { makeImage } from '../fixtures/media.js';
import { SECRET, startStack } from '../proxy/harness.js';

const FOREIGN = 'http://localhost:3000';
const REPO = fileURLToPath(new URL('../..', import.meta.url));

const corsHeaders = (r: Response) => [...r.headers.keys()].filter((k) => k.startsWith('access-control-'));

/** Every file under `dir`, absolute. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/** True when `path` is `folder` or inside it. */
function inside(folder: string, path: string): boolean {
  const rel = relative(resolve(folder), resolve(path));
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

async function startVite(config: InlineConfig): Promise<{
  vite: ViteDevServer;
  url: string;
}> {
  const { createServer: createVite } = await import('vite');
  const vite = await createVite({
    logLevel: 'silent',
    optimizeDeps: { noDiscovery: true, include: [] },
    ...config,
    server: { host: '127.0.0.1', port: 0, strictPort: false, ws: false, ...config.server },
  });
  await vite.listen();
  return { vite, url: `http://localhost:${(vite.httpServer!.address() as AddressInfo).port}` };
}

/** Keeps a PNG through the stack's proxy at `url`, as a visitor's page would. */
async function keepOne(url: string): Promise<void> {
  const s = await fetch(`${url}/mediakit/session`, { method: 'POST' });
  assert.equal(s.status, 200);
  const { token } = ((await s.json()) as { data: { token: string } }).data;
  const r = await fetch(`${url}/mediakit/results`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png', 'idempotency-key': 'exposure-1' },
    body: (await makeImage({ width: 24, height: 24 })) as Uint8Array<ArrayBuffer>,
  });
  assert.equal(r.status, 201, await r.clone().text());
}

describe('dev server: another origin reads nothing secret through Vite', () => {
  it('grants no CORS to another localhost origin, and serves no secret or kept file at /@fs/, even with the results inside the served tree', async () => {
    const { mediakitDev } = await import('../../src/dev/index.js');
    // A project laid out like this repository: Vite's root is demo/, the whole project is in fs.allow,
    // and the kept results (with the dev secret) are asked for inside it.
    const project = mkdtempSync(join(tmpdir(), 'mk-exposure-'));
    const root = join(project, 'demo');
    mkdirSync(root);
    writeFileSync(join(root, 'index.html'), '<!doctype html><script type="module" src="/main.ts"></script>');
    writeFileSync(join(root, 'main.ts'), 'export const PRIVATE_SOURCE = "source text";\n');
    writeFileSync(join(project, '.env'), 'API_KEY=not-for-pages\n');
    const resultsDir = join(project, '.mediakit', 'results');
    const { vite, url } = await startVite({
      configFile: false,
      root,
      server: { fs: { allow: ['..'] } },
      plugins: [mediakitDev({ env: {}, sandbox: { speed: 1 }, resultsDir })],
    });
    try {
      await keepOne(url);
      const secret = readFileSync(join(resultsDir, '.secret'), 'utf8').trim();
      assert.match(secret, /^[0-9a-f]{64}$/);
      const files = filesUnder(resultsDir);
      assert.ok(files.length >= 3, `the secret, a kept file and its sidecar: ${files.join(', ')}`);

      for (const file of files) {
        const path = '/@fs/' + file.split(sep).join('/').replace(/^\/+/, '');
        for (const origin of [FOREIGN, url]) {
          const r = await fetch(url + path, { headers: { origin } });
          const body = await r.text();
          assert.notEqual(r.status, 200, `${path} (Origin ${origin}) was served: ${body.slice(0, 80)}`);
          assert.ok(!body.includes(secret), `${path} answered the dev secret`);
          if (origin === FOREIGN) assert.deepEqual(corsHeaders(r), [], `${path} granted CORS to ${FOREIGN}`);
        }
      }

      // A source file: the dev server's own page loads it, another origin gets no CORS grant to read it.
      const own = await fetch(`${url}/main.ts`);
      assert.equal(own.status, 200);
      assert.match(await own.text(), /PRIVATE_SOURCE/);
      const foreign = await fetch(`${url}/main.ts`, { headers: { origin: FOREIGN } });
      assert.equal(foreign.headers.get('access-control-allow-origin'), null);
      assert.deepEqual(corsHeaders(foreign), []);
      const preflight = await fetch(`${url}/main.ts`, {
        method: 'OPTIONS',
        headers: { origin: FOREIGN, 'access-control-request-method': 'GET' },
      });
      assert.equal(preflight.headers.get('access-control-allow-origin'), null);
      // Another port of this machine is another origin too.
      const otherPort = await fetch(`${url}/main.ts`, { headers: { origin: 'http://127.0.0.1:1' } });
      assert.equal(otherPort.headers.get('access-control-allow-origin'), null);

      // Vite's own deny list still holds beside the stack's.
      const env = await fetch(`${url}/@fs/${join(project, '.env').split(sep).join('/').replace(/^\/+/, '')}`);
      assert.notEqual(env.status, 200);
      assert.ok(!(await env.text()).includes('not-for-pages'));
    } finally {
      await vite.close();
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("keeps npm start's dev secret and kept results outside every folder its dev server serves", async () => {
    const cache = mkdtempSync(join(tmpdir(), 'mk-cache-'));
    const saved = process.env['XDG_CACHE_HOME'];
    process.env['XDG_CACHE_HOME'] = cache;
    const { vite, url } = await startVite({ configFile: join(REPO, 'vite.config.ts') });
    try {
      const dirs = vite.config.plugins
        .filter((p: Plugin) => p.name === 'mediakit-dev')
        .map((p: Plugin) => (p.api as { stack(): DevStack }).stack().resultsDir!);
      assert.equal(dirs.length, 2, 'npm start mounts two stacks');
      await keepOne(url);
      const served = [vite.config.root, ...vite.config.server.fs.allow, REPO];
      for (const dir of dirs) {
        for (const folder of served) assert.ok(!inside(folder, dir), `${dir} is inside ${folder}, which Vite serves`);
        const secret = join(dir, '.secret');
        assert.equal(statSync(secret).mode & 0o077, 0, 'the dev secret is readable by its owner only');
        const r = await fetch(`${url}/@fs/${secret.split(sep).join('/').replace(/^\/+/, '')}`, {
          headers: { origin: FOREIGN },
        });
        assert.notEqual(r.status, 200);
        assert.ok(!(await r.text()).includes(readFileSync(secret, 'utf8').trim()));
        assert.deepEqual(corsHeaders(r), []);
      }
    } finally {
      await vite.close();
      if (saved === undefined) delete process.env['XDG_CACHE_HOME'];
      else process.env['XDG_CACHE_HOME'] = saved;
      rmSync(cache, { recursive: true, force: true });
    }
  });
});

/** A service on another port of this machine that counts what reaches it. */
async function bait(): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"admin":"internal only"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** A ticket sealed with `secret`, as someone who read the secret could make one. */
async function forgeTicket(secret: string, target: string, basePath = '/mediakit'): Promise<string> {
  const sealer = new Sealer(new Keyring(secret), basePath, 900_000);
  return (await sealer.rewriter('forged-subject', (t) => t).ticket(target, 'glb')).url;
}

describe('proxy: a download ticket names only the upstream or a provider', () => {
  let internal: Awaited<ReturnType<typeof bait>>;
  before(async () => {
    internal = await bait();
  });
  after(() => internal.close());

  const spellings = (base: string) => {
    const host = base.replace(/^http:\/\//, '');
    return [
      `${base}/admin?x=1`,
      `//${host}/admin?x=1`,
      `\\\\${host}/admin?x=1`,
      `http://upstream.invalid@${host}/admin?x=1`,
      `HTTP://${host.replace('127.0.0.1', 'localhost')}/admin?x=1`,
    ];
  };

  it('refuses a forged ticket naming another host of this machine, without fetching it (dev stack)', async () => {
    const secret = 'd'.repeat(64);
    const stack = createDevStack({ env: { MEDIAKIT_SECRET: secret }, sandbox: { speed: 1 }, resultsDir: false });
    const server = createServer((req, res) => stack.middleware(req, res, () => res.writeHead(404).end()));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const target of spellings(internal.url)) {
        const r = await fetch(url + (await forgeTicket(secret, target)));
        const body = await r.text();
        assert.notEqual(r.status, 200, `${target}: ${body.slice(0, 100)}`);
        assert.doesNotMatch(body, /internal only/);
      }
      assert.deepEqual(internal.hits, [], 'the internal service was never called');
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it("serves the upstream's files, and another origin only when downloadOrigins names it", async () => {
    internal.hits.length = 0;
    const strict = await startStack({});
    try {
      const forged = await forgeTicket(SECRET, `${internal.url}/admin?x=1`);
      const refused = await strict.call(forged);
      assert.equal(refused.status, 404);
      assert.match(((await refused.json()) as { error: { message: string } }).error.message, /not available/);
      // Another port of the upstream's own host is another origin.
      const port = new URL(strict.sandbox.url);
      port.port = new URL(internal.url).port;
      assert.equal((await strict.call(await forgeTicket(SECRET, `${port.origin}/admin`))).status, 404);
      assert.deepEqual(internal.hits, []);
    } finally {
      await strict.close();
    }
    const provider = await startStack({ proxy: { downloadOrigins: [internal.url] } });
    try {
      const r = await provider.call(await forgeTicket(SECRET, `${internal.url}/models/m.glb`));
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'model/gltf-binary');
      await r.arrayBuffer();
      assert.deepEqual(internal.hits, ['GET /models/m.glb']);
    } finally {
      await provider.close();
    }
  });

  it('refuses downloadOrigins entries that are not origins, naming the entry', async () => {
    const { createProxy } = await import('../../src/proxy/index.js');
    const base = {
      upstream: 'https://api.example',
      keys: { video: 'v3_live_x' },
      secret: SECRET,
      authorize: () => null,
    };
    for (const bad of ['cdn.example', 'ftp://cdn.example', 'https://cdn.example/path']) {
      assert.throws(
        () => createProxy({ ...base, downloadOrigins: [bad] }),
        (err: Error) =>
          err instanceof TypeError && err.message.includes('downloadOrigins') && err.message.includes(bad),
      );
    }
  });
});
