/**
 * One process of the cluster bench (cluster.ts), started with fork():
 *   sandbox: the sandbox on PORT with a funded account; prints { port, accountId, keys } to the parent
 *   proxy:   a proxy on PORT in front of UPSTREAM, budgets and rate limits in Redis (REDIS_URL),
 *            kept results in the file store under RESULTS_DIR; the same SECRET on every instance
 */
import { createClient } from 'redis';
import { createSandbox, serve } from '../../src/sandbox/index.js';
import { createProxy, fileResultStore, RedisStore, toNodeHandler } from '../../src/proxy/index.js';
import { createServer } from 'node:http';

const mode = process.argv[2];
const port = Number(process.env['PORT'] ?? 0);

if (mode === 'sandbox') {
  // Fast enough that a 3D job succeeds within the run; no rate limit of its own but the bursts armed by the bench.
  // Real time (the bench moves the clock an hour once, after its setup): a 3D job made under load
  // takes about a minute, so the sandbox renders few files during the measurement; small files, as
  // the tests use. (A fractional speed makes fractional link expiries, which the sandbox refuses.)
  const sandbox = createSandbox({
    speed: 1,
    rateLimit: { limit: 1_000_000_000, windowMs: 60_000 },
    artifacts: { turntableFrames: 8, turntableSize: 96, sceneColumns: 16, sceneFrames: 4 },
  });
  const { url } = await serve((r) => sandbox.fetch(r), port);
  const post = async (path: string, body: unknown) =>
    (await (
      await fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as Record<string, any>;
  const account = await post('/__sandbox/accounts', { credits: 100_000_000 });
  process.send!({ url, accountId: account['account_id'], keys: account['keys'] });
} else if (mode === 'proxy') {
  const redis = createClient({ url: process.env['REDIS_URL'], socket: { reconnectStrategy: () => 100 } });
  // A Redis restart is part of the bench: errors are expected, and the proxy answers 503 meanwhile.
  redis.on('error', () => {});
  await redis.connect();
  const proxy = createProxy({
    upstream: process.env['UPSTREAM']!,
    keys: JSON.parse(process.env['KEYS']!),
    secret: process.env['SECRET']!,
    authorize(request) {
      const user = /(?:^|;\s*)user=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
      return user ? { subject: user, budget: 1000 } : null;
    },
    store: new RedisStore(redis),
    results: { store: fileResultStore({ dir: process.env['RESULTS_DIR']! }), quotaBytes: 1e12 },
    rateLimits: {
      create: { limit: 1e9, windowSeconds: 60 },
      poll: { limit: 1e9, windowSeconds: 60 },
      session: { limit: 1e9, windowSeconds: 60 },
      keep: { limit: 1e9, windowSeconds: 60 },
    },
    log: () => {},
  });
  const server = createServer(toNodeHandler(proxy));
  server.listen(port, '127.0.0.1', () => process.send!({ ready: true }));
}
