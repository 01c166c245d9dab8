/**
 * Property: a refund is counted once, into the window that was charged. Any interleaving of job
 * creations (some of which fail), replays of their Idempotency-Keys, polls, and budget windows
 * passing leaves, in every budget window's ledger, refunds at most what that window was charged,
 * and the session's `remaining` never above its budget. On the memory store and on Redis.
 *
 * Issue 19: a failed job's key replayed in the next window came back settled at 0 but with a
 * handle stamped with the new window and the old charge, so polling it refunded into a window that
 * had paid nothing (`remaining` 12 of a budget of 10).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createClient } from 'redis';
import { createProxy, MemoryStore, RedisStore, type ProxyStore } from '../../src/proxy/index.js';
import { SECRET } from './harness.js';
import { startRedis } from './redis-server.js';

const WINDOW_SECONDS = 60;
const COST = 2;

/** An honest upstream: charges at creation, replays a known key, refunds a failed job when it is first seen failed. */
class ModelUpstream {
  #n = 0;
  readonly jobs = new Map<string, { failed: boolean }>();
  readonly keys = new Map<string, string>();

  fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (request.method === 'POST' && url.pathname === '/api/v1/3d/jobs') {
      const body = await request.text();
      const key = request.headers.get('idempotency-key');
      const known = key ? this.keys.get(key) : undefined;
      if (known)
        return Response.json(
          { data: { job_id: known, status: 'queued' }, credits_charged: COST },
          { status: 202, headers: { 'x-credits-charged': String(COST), 'idempotent-replayed': 'true' } },
        );
      const jobId = `job_${++this.#n}`;
      this.jobs.set(jobId, { failed: body.includes('"fails"') });
      if (key) this.keys.set(key, jobId);
      return Response.json(
        { data: { job_id: jobId, status: 'queued' }, credits_charged: COST },
        { status: 202, headers: { 'x-credits-charged': String(COST) } },
      );
    }
    const poll = /^\/api\/v1\/3d\/jobs\/(job_\d+)$/.exec(url.pathname);
    if (request.method === 'GET' && poll) {
      const job = this.jobs.get(poll[1]!);
      if (!job) return Response.json({ error: { code: 'not_found', message: 'No such job.' } }, { status: 404 });
      return Response.json({
        data: {
          job_id: poll[1],
          status: job.failed ? 'failed' : 'processing',
          progress: 10,
          mode: 'text',
          quality: 'standard',
          seed: 1,
          output: null,
          error: job.failed ? { code: 'provider_error', message: 'It failed.' } : null,
        },
      });
    }
    return Response.json({ error: { code: 'not_found', message: 'No such endpoint.' } }, { status: 404 });
  };
}

/** A store that passes everything through and keeps, per ledger, what was settled as a charge and as a refund. */
function watched(inner: ProxyStore) {
  const books = new Map<string, { charged: number; refunded: number }>();
  const book = (ledger: string) => books.get(ledger) ?? books.set(ledger, { charged: 0, refunded: 0 }).get(ledger)!;
  const seen = new Set<string>();
  const store: ProxyStore = {
    reserve: (...a) => inner.reserve(...a),
    release: (...a) => inner.release(...a),
    used: (...a) => inner.used(...a),
    hit: (...a) => inner.hit(...a),
    async settle(ledger, id, amount, ttl) {
      // Settling an id twice changes nothing (the store's rule), so each id is booked once.
      if (!seen.has(`${ledger}\n${id}`)) {
        seen.add(`${ledger}\n${id}`);
        if (amount < 0) book(ledger).refunded += -amount;
        else book(ledger).charged += amount;
      }
      return inner.settle(ledger, id, amount, ttl);
    },
  };
  return { store, books };
}

type Op =
  { kind: 'create'; key: 'k1' | 'k2' | 'k3' | null; fails: boolean } | { kind: 'poll' } | { kind: 'next-window' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      key: fc.constantFrom('k1' as const, 'k2' as const, 'k3' as const, null),
      fails: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'poll' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'next-window' as const }) },
);

async function property(makeStore: () => ProxyStore, runs: number): Promise<void> {
  const realNow = Date.now;
  let offset = 0;
  // The budget window follows Date.now; the test moves it a whole window at a time.
  Date.now = () => realNow() + offset;
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 14 }),
        fc.integer({ min: 2, max: 12 }),
        async (ops, budget) => {
          const upstream = new ModelUpstream();
          const { store, books } = watched(makeStore());
          const proxy = createProxy({
            upstream: upstream.fetch,
            keys: { generate: 'g3_live_k' },
            secret: SECRET,
            authorize: () => null,
            store,
            budgetWindowSeconds: WINDOW_SECONDS,
            rateLimits: { create: { limit: 1e9, windowSeconds: 60 }, poll: { limit: 1e9, windowSeconds: 60 } },
            log: () => {},
          });
          const token = await proxy.mintToken({
            subject: `refund-${Math.random()}`,
            capabilities: ['generate'],
            budget,
            ttlSeconds: 30 * 86_400,
          });
          const auth = { authorization: `Bearer ${token}` };
          const handles: string[] = [];
          for (const o of ops) {
            if (o.kind === 'next-window') offset += WINDOW_SECONDS * 1000;
            else if (o.kind === 'poll') {
              for (const h of handles)
                await (
                  await proxy.fetch(new Request(`http://site/mediakit/api/v1/3d/jobs/${h}`, { headers: auth }))
                ).arrayBuffer();
            } else {
              const headers: Record<string, string> = { ...auth, 'content-type': 'application/json' };
              if (o.key) headers['idempotency-key'] = o.key;
              // A key always carries the same body (a page retrying its own request): k1 and k3 make jobs that fail.
              const fails = o.key ? o.key !== 'k2' : o.fails;
              const r = await proxy.fetch(
                new Request('http://site/mediakit/api/v1/3d/jobs', {
                  method: 'POST',
                  headers,
                  body: JSON.stringify({ mode: 'text', prompt: fails ? 'fails' : 'works' }),
                }),
              );
              if (r.status === 202) handles.push(((await r.json()) as { data: { job_id: string } }).data.job_id);
              else await r.arrayBuffer();
            }
            const view = (await (
              await proxy.fetch(new Request('http://site/mediakit/session', { headers: auth }))
            ).json()) as { data: { budget: { used: number; remaining: number } } };
            assert.ok(
              view.data.budget.remaining <= budget,
              `remaining ${view.data.budget.remaining} of a budget of ${budget}`,
            );
            assert.ok(view.data.budget.used >= 0, `used ${view.data.budget.used}`);
            for (const [ledger, b] of books)
              assert.ok(
                b.refunded <= b.charged,
                `a window refunded ${b.refunded} of ${b.charged} charged (${ledger.split(':').at(-1)})`,
              );
          }
        },
      ),
      { numRuns: runs },
    );
  } finally {
    Date.now = realNow;
  }
}

describe('refunds across budget windows', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  const connect = (url: string) => createClient({ url }).connect();
  let client: Awaited<ReturnType<typeof connect>>;
  before(async () => {
    redis = await startRedis();
    client = await connect(redis.url);
  });
  after(async () => {
    await client.quit();
    redis.child?.kill();
  });

  it('refund a failed job once, into the window it was charged to, whatever replays and window changes come between (memory store)', async () => {
    await property(() => new MemoryStore(), 200);
  });

  it('the same on Redis', async () => {
    await property(() => new RedisStore(client, { prefix: `refund:${Date.now()}:${Math.random()}:` }), 80);
  });
});
