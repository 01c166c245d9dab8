/**
 * The ProxyStore contract as functions any store can be run through: the contract and byte-ledger
 * checks of test/proxy/redis.test.ts and the refund-window property of
 * test/proxy/refund-property-redis.test.ts (the same code), plus atomic reserve and hit under
 * concurrency and expiry in real time. test/runtimes/stores.test.ts runs them on the Durable Object
 * store in workerd and the Deno KV store in Deno.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createProxy, type ProxyStore } from '../../src/proxy/index.js';
import { SECRET } from './harness.js';

/** The store contract, run on both implementations. */
export async function contract(store: ProxyStore, ns: string): Promise<void> {
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
export async function bytesContract(store: ProxyStore, ns: string): Promise<void> {
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

/** Many reserves at once on one ledger: exactly as many succeed as fit, and nothing is counted twice. */
export async function concurrentContract(store: ProxyStore, ns: string): Promise<void> {
  const ledger = `${ns}:race`;
  const results = await Promise.all(Array.from({ length: 40 }, (_, i) => store.reserve(ledger, `r${i}`, 10, 100, 60)));
  assert.equal(results.filter((r) => r.ok && r.created).length, 10);
  assert.equal(await store.used(ledger), 100);
  const won = results.flatMap((r, i) => (r.ok && r.created ? [`r${i}`] : []));
  const again = await Promise.all(
    Array.from({ length: 20 }, (_, i) => store.reserve(ledger, won[i % won.length]!, 10, 1000, 60)),
  );
  assert.equal(again.filter((r) => r.created).length, 0, 'a retried id never adds');
  assert.equal(await store.used(ledger), 100);
  const settled = await Promise.all(Array.from({ length: 10 }, () => store.settle(ledger, won[0]!, 3, 60)));
  assert.equal(await store.used(ledger), 93, 'settled once, at 3 instead of 10');
  assert.ok(settled.every((u) => u === 93));
  const hits = await Promise.all(Array.from({ length: 30 }, () => store.hit(`${ns}:hits`, 60)));
  assert.deepEqual(
    hits.map((h) => h.count).sort((x, y) => x - y),
    Array.from({ length: 30 }, (_, i) => i + 1),
  );
}

/** Ledgers, counters and held bytes with a time to live are gone once it has passed (real time). */
export async function expiryContract(store: ProxyStore, ns: string): Promise<void> {
  assert.equal((await store.reserve(`${ns}:short`, 'a', 5, 10, 1)).used, 5);
  assert.equal((await store.hit(`${ns}:short-hits`, 1)).count, 1);
  assert.deepEqual(await store.holdBytes!(`${ns}:short-bytes`, 'pending:a', 50, 100, undefined, 1), {
    ok: true,
    used: 50,
  });
  assert.deepEqual(await store.holdBytes!(`${ns}:short-bytes`, 'kept', 20, 100), { ok: true, used: 70 });
  await new Promise((r) => setTimeout(r, 1600));
  assert.equal(await store.used(`${ns}:short`), 0);
  assert.equal((await store.reserve(`${ns}:short`, 'b', 8, 10, 60)).used, 8, 'a new window starts empty');
  assert.equal((await store.hit(`${ns}:short-hits`, 1)).count, 1);
  assert.equal(
    await store.bytesUsed!(`${ns}:short-bytes`),
    20,
    'the expired hold no longer counts; the kept entry does',
  );
}

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

export async function refundProperty(makeStore: () => ProxyStore, runs: number): Promise<void> {
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
