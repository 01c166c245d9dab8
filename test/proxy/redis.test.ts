/**
 * Many instances: two proxies on one real Redis share budgets and rate limits under concurrent
 * requests, and the Redis store keeps the same contract as the memory store.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createClient } from 'redis';
import { createProxy, MemoryStore, RedisStore, type ProxyStore } from '../../src/proxy/index.js';
import { SECRET } from './harness.js';
import { startRedis } from './redis-server.js';

const connect = (url: string) => createClient({ url }).connect();
type Client = Awaited<ReturnType<typeof connect>>;

/** The store contract, run on both implementations. */
async function contract(store: ProxyStore, ns: string): Promise<void> {
  const ledger = `${ns}:ledger`;
  assert.deepEqual(await store.reserve(ledger, 'a', 6, 10, 60), { ok: true, used: 6, created: true });
  assert.deepEqual(
    await store.reserve(ledger, 'a', 6, 10, 60),
    { ok: true, used: 6, created: false },
    'same id: nothing added, and not created by this call',
  );
  assert.deepEqual(
    await store.reserve(ledger, 'b', 6, 10, 60),
    { ok: false, used: 6, created: false },
    'over the limit',
  );
  assert.equal(await store.settle(ledger, 'a', 4, 60), 4);
  assert.equal(await store.settle(ledger, 'a', 9, 60), 4, 'settled once');
  assert.equal(await store.release(ledger, 'a'), 4, 'a settled reservation is not released');
  assert.deepEqual(await store.reserve(ledger, 'c', 5, 10, 60), { ok: true, used: 9, created: true });
  assert.equal(await store.release(ledger, 'c'), 4);
  assert.equal(await store.settle(ledger, 'refund', -4, 60), 0, 'an unknown id settles once (refunds)');
  assert.equal(await store.settle(ledger, 'refund', -4, 60), 0);
  assert.equal(await store.used(ledger), 0);
  const first = await store.hit(`${ns}:rl`, 60);
  const second = await store.hit(`${ns}:rl`, 60);
  assert.deepEqual([first.count, second.count], [1, 2]);
  assert.ok(second.resetMs > 0 && second.resetMs <= 60_000);
}

/** The byte ledgers of kept results, on both implementations: set (not add), move, drop, limits. */
async function bytesContract(store: ProxyStore, ns: string): Promise<void> {
  const ledger = `${ns}:storage`;
  const big = 4_000_000_000_000; // 4 TB: more digits than Lua's default number format keeps
  assert.deepEqual(await store.holdBytes!(ledger, 'pending:a', 8, 100), { ok: true, used: 8 });
  assert.deepEqual(
    await store.holdBytes!(ledger, 'pending:a', 16, 100),
    { ok: true, used: 16 },
    'a hold is set, not added',
  );
  assert.deepEqual(await store.holdBytes!(ledger, 'pending:b', 90, 100), { ok: false, used: 16 }, 'over the limit');
  assert.deepEqual(
    await store.holdBytes!(ledger, 'a', 12, Number.MAX_SAFE_INTEGER, 'pending:a'),
    { ok: true, used: 12 },
    'the pending hold becomes the entry in one step',
  );
  assert.deepEqual(
    await store.holdBytes!(ledger, 'a', 12, 100, 'pending:a'),
    { ok: true, used: 12 },
    'kept twice: counted once',
  );
  assert.equal(await store.dropBytes!(ledger, 'pending:a'), 12);
  assert.equal(await store.dropBytes!(ledger, 'a'), 0);
  assert.equal(await store.dropBytes!(ledger, 'a'), 0);
  assert.deepEqual(await store.holdBytes!(ledger, 'huge', big + 1, big * 2), { ok: true, used: big + 1 });
  assert.equal(await store.bytesUsed!(ledger), big + 1);
  assert.equal(await store.bytesUsed!(`${ns}:nobody`), 0);
}

describe('proxy on Redis', () => {
  let redis: { url: string; child: ChildProcess | undefined };
  let clients: Client[];
  before(async () => {
    redis = await startRedis();
    clients = await Promise.all([0, 1].map(() => connect(redis.url)));
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.quit()));
    redis.child?.kill();
  });

  it('keeps the store contract on Redis and in memory', async () => {
    await contract(new RedisStore(clients[0]!, { prefix: `test:${Date.now()}:` }), 'contract');
    await contract(new MemoryStore(), 'contract');
  });

  it('counts kept bytes the same on Redis and in memory, and never past the limit under concurrent holds', async () => {
    await bytesContract(new RedisStore(clients[0]!, { prefix: `test:${Date.now()}:` }), 'bytes');
    await bytesContract(new MemoryStore(), 'bytes');
    const prefix = `test:${Date.now()}:race:`;
    const stores = clients.map((c) => new RedisStore(c, { prefix }));
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => stores[i % 2]!.holdBytes(`storage`, `k${i}`, 10, 100)),
    );
    assert.equal(results.filter((r) => r.ok).length, 10);
    assert.equal(await stores[0]!.bytesUsed('storage'), 100);
  });

  it('shares one budget across two instances under concurrent requests', async () => {
    let upstreamCalls = 0;
    const upstream = async (request: Request) => {
      await request.body?.cancel();
      upstreamCalls++;
      await new Promise((r) => setTimeout(r, Math.random() * 10));
      return Response.json(
        { data: { job_id: `job_${upstreamCalls}`, status: 'queued' }, credits_charged: 2 },
        { status: 202, headers: { 'x-credits-charged': '2' } },
      );
    };
    const make = (client: Client) =>
      createProxy({
        upstream,
        keys: { generate: 'g3_live_k' },
        secret: SECRET,
        authorize: () => null,
        store: new RedisStore(client),
        rateLimits: { create: { limit: 1000, windowSeconds: 60 } },
      });
    const [a, b] = [make(clients[0]!), make(clients[1]!)];
    const token = await a.mintToken({ subject: `shared-${Date.now()}`, capabilities: ['generate'], budget: 21 });
    const create = (p: typeof a) =>
      p.fetch(
        new Request('http://site/mediakit/api/v1/3d/jobs', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{"mode":"text","prompt":"cup"}',
        }),
      );
    const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => create(i % 2 ? a : b)));
    const statuses = responses.map((r) => r.status);
    assert.equal(
      statuses.filter((s) => s === 202).length,
      10,
      '21 credits buy ten 2-credit jobs, across both instances',
    );
    assert.equal(statuses.filter((s) => s === 402).length, 30);
    assert.equal(upstreamCalls, 10);
    const session = (await (
      await b.fetch(new Request('http://site/mediakit/session', { headers: { authorization: `Bearer ${token}` } }))
    ).json()) as { data: { budget: { used: number; remaining: number } } };
    assert.deepEqual([session.data.budget.used, session.data.budget.remaining], [20, 1]);
  });

  it('shares rate limits across two instances', async () => {
    const make = (client: Client) =>
      createProxy({
        upstream: async () => Response.json({ error: { code: 'not_found', message: 'No such job.' } }, { status: 404 }),
        keys: { generate: 'g3_live_k' },
        secret: SECRET,
        authorize: () => null,
        store: new RedisStore(client),
        rateLimits: { poll: { limit: 15, windowSeconds: 60 } },
      });
    const [a, b] = [make(clients[0]!), make(clients[1]!)];
    const token = await a.mintToken({ subject: `poller-${Date.now()}`, capabilities: ['generate'], budget: 0 });
    const poll = (p: typeof a) =>
      p.fetch(
        new Request(`http://site/mediakit/api/v1/3d/jobs/${'A'.repeat(60)}`, {
          headers: { authorization: `Bearer ${token}` },
        }),
      );
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => poll(i % 2 ? a : b)));
    const limited = responses.filter((r) => r.status === 429);
    assert.equal(limited.length, 15);
    assert.ok(limited.every((r) => Number(r.headers.get('retry-after')) >= 1));
  });

  it('fails closed when Redis goes away', async () => {
    const client = await createClient({ url: redis.url, socket: { reconnectStrategy: () => 50 } }).connect();
    const proxy = createProxy({
      upstream: async () => new Response('{}', { status: 500 }),
      keys: { generate: 'g3_live_k' },
      secret: SECRET,
      authorize: () => null,
      store: new RedisStore(client),
      storeTimeoutMs: 300,
      log: () => {},
    });
    const token = await proxy.mintToken({ subject: 'gone', capabilities: ['generate'], budget: 10 });
    client.destroy();
    const r = await proxy.fetch(
      new Request('http://site/mediakit/api/v1/3d/jobs', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"mode":"text","prompt":"cup"}',
      }),
    );
    assert.equal(r.status, 503);
  });
});
