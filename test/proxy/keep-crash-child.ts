/**
 * A proxy on Redis in a process of its own (forked by keep-crash-redis.test.ts), so a test can
 * kill it with SIGKILL mid-keep. Kept results go to a fileResultStore in DIR; REDIS_URL and PREFIX
 * name the Redis and its key prefix, HOLD_SECONDS and STALE_SECONDS the pending hold's time to
 * live and the age of a stale temporary file. Sends `{ url }` to the parent once it listens.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { createProxy, fileResultStore, RedisStore, toNodeHandler } from '../../src/proxy/index.js';
import { SECRET } from './harness.js';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`keep-crash-child: ${name} is required`);
  return value;
};

const client = await createClient({ url: env('REDIS_URL') }).connect();
const proxy = createProxy({
  upstream: 'http://127.0.0.1:9',
  keys: { headshot: 'h3_live_crash' },
  secret: SECRET,
  // The test site's user is named by a cookie.
  authorize: (request) => {
    const user = /(?:^|;\s*)user=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
    return user ? { subject: decodeURIComponent(user), budget: 10 } : null;
  },
  store: new RedisStore(client, { prefix: env('PREFIX') }),
  // A long idle time: the keep the test leaves hanging must still be running when it is killed.
  uploadIdleTimeoutMs: 60_000,
  log: () => {},
  results: {
    store: fileResultStore({ dir: env('DIR'), staleSeconds: Number(env('STALE_SECONDS')) }),
    quotaBytes: 300_000,
    holdSeconds: Number(env('HOLD_SECONDS')),
  },
});
const server = createServer(toNodeHandler(proxy));
server.listen(0, '127.0.0.1', () =>
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
);
