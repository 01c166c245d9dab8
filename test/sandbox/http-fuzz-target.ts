/**
 * One target of the HTTP fuzz (./http-fuzz.ts), in a process of its own so that a crash is seen as
 * the process dying:
 *   node --import tsx test/sandbox/http-fuzz-target.ts memory|redis <redis url>|dev
 * - `memory`, `redis`: the session-token proxy (toNodeHandler) with that store and kept results in
 *   a file store, in front of a healthy sandbox on its own HTTP port (so any 5xx is the proxy's).
 * - `dev`: a real Vite dev server with `mediakitDev()`, as `npm start` runs it.
 * The standalone sandbox needs no wrapper: the fuzz starts `src/sandbox/cli.ts` itself.
 * Prints one line `READY <json>` when it listens; writes unexpected errors to stderr.
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import {
  createProxy,
  fileResultStore,
  MemoryStore,
  RedisStore,
  toNodeHandler,
  type ProxyStore,
} from '../../src/proxy/index.js';
import { createSandbox, serve } from '../../src/sandbox/index.js';
import { cookieAuthorize, SECRET } from '../proxy/harness.js';
import type { AuthorizeResult } from '../../src/proxy/index.js';

const [kind, redisUrl] = process.argv.slice(2);
const temp = mkdtempSync(join(tmpdir(), `mk-fuzz-${kind}-`));
process.once('exit', () => rmSync(temp, { recursive: true, force: true }));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => process.exit(0));

/**
 * A site's login check that reads its own cookie carefully: a budget that is not a whole number
 * or an unknown capability is no session (401). The proxy answers a hook that returns such claims
 * with a deliberate 503 (the site's sign-in check is broken; README, "The authorize hook"), which
 * is the site's bug, not the proxy's, so the fuzz's hook returns none.
 */
function siteAuthorize(request: Request): AuthorizeResult | null {
  const result = cookieAuthorize(request);
  if (!result || !Number.isSafeInteger(result.budget) || result.budget < 0) return null;
  const known = ['video', 'headshot', 'generate', 'imageTools'];
  const capabilities = result.capabilities as string[] | undefined;
  if (capabilities && !capabilities.every((c) => known.includes(c))) return null;
  return result;
}

const LIMIT = { limit: 1_000_000, windowSeconds: 60 };

async function proxyTarget(): Promise<Record<string, unknown>> {
  const sandbox = createSandbox({
    speed: 1,
    artifacts: { turntableFrames: 8, turntableSize: 96, sceneColumns: 16, sceneFrames: 4 },
  });
  const upstream = await serve((r) => sandbox.fetch(r), 0);
  // The upstream keeps idle connections longer than the fuzz runs: Node's 5 s default closes a
  // kept-alive socket just as the proxy's fetch reuses it (a "socket hang up", answered 502), a race
  // between two local processes that says nothing about the proxy's handling of the fuzz's requests.
  upstream.server.keepAliveTimeout = 120_000;
  const made = await fetch(upstream.url + '/__sandbox/accounts', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"credits":1000000}',
  });
  const account = (await made.json()) as { keys: Record<string, string> };
  let store: ProxyStore;
  if (kind === 'redis') {
    const { createClient } = await import('redis');
    const client = await createClient({ url: redisUrl }).connect();
    store = new RedisStore(client, { prefix: `fuzz:${process.pid}:${Date.now()}:` });
  } else {
    store = new MemoryStore();
  }
  const proxy = createProxy({
    upstream: upstream.url,
    keys: account.keys,
    secret: SECRET,
    authorize: siteAuthorize,
    store,
    results: { store: fileResultStore({ dir: join(temp, 'results') }), access: 'owner', quotaBytes: 50_000_000 },
    // Rate limits out of the way, so generated requests reach the routes behind them.
    rateLimits: { create: LIMIT, poll: LIMIT, session: LIMIT, keep: LIMIT },
    // A body that stops arriving is cut well inside the fuzz's 10 s deadline.
    uploadIdleTimeoutMs: 3000,
    log: (event) => {
      if (event.level === 'error') console.error(`[proxy] ${event.message}`);
    },
  });
  const server = createServer(toNodeHandler(proxy));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, upstream: upstream.url };
}

async function devTarget(): Promise<Record<string, unknown>> {
  const { createServer: createVite } = await import('vite');
  const { mediakitDev } = await import('../../src/dev/index.js');
  writeFileSync(
    join(temp, 'index.html'),
    '<!doctype html><title>dev</title><script type="module" src="/main.js"></script>',
  );
  writeFileSync(join(temp, 'main.js'), 'document.title = "fuzz";\n');
  const vite = await createVite({
    configFile: false,
    root: temp,
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0, strictPort: false, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
    plugins: [mediakitDev({ env: {}, sandbox: { speed: 1 }, resultsDir: join(temp, '.mediakit', 'results') })],
  });
  await vite.listen();
  return { url: `http://127.0.0.1:${(vite.httpServer!.address() as AddressInfo).port}`, root: temp };
}

process.on('unhandledRejection', (err) => {
  console.error('[target] unhandled rejection:', err);
  process.exit(70);
});

const info = kind === 'dev' ? await devTarget() : await proxyTarget();
console.log(`READY ${JSON.stringify(info)}`);
