/**
 * Property: any interleaving of job creations, aborted creations, retries with the same
 * Idempotency-Key, conflicting reuse of a key, upstream forgetting keys, and polls of failed jobs
 * leaves the session's `used` never below what upstream's ledger charged for that subject, and
 * equal to it once every job was polled. On the memory store and on Redis.
 *
 * The upstream is a small honest model of the spec's ledger (charge at creation, refund a failed
 * job, replay a known key with Idempotent-Replayed, 400 idempotency_conflict for a known key with
 * another body, 500 provider_error free), with random delays, so the property is about the proxy.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createClient } from 'redis';
import { createProxy, MemoryStore, RedisStore, type ProxyStore } from '../../src/proxy/index.js';
import { SECRET } from './harness.js';
import { startRedis } from './redis-server.js';

class ModelUpstream {
  charged = 0;
  #n = 0;
  readonly jobs = new Map<string, { failed: boolean; refunded: boolean }>();
  readonly keys = new Map<string, { body: string; jobId: string }>();
  /** Resolvers for requests that arrived (an abort waits for its request to reach upstream). */
  arrived: (() => void)[] = [];

  fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (request.method === 'POST' && url.pathname === '/api/v1/3d/jobs') {
      const body = await request.text();
      this.arrived.splice(0).forEach((r) => r());
      await new Promise((r) => setTimeout(r, Math.random() * 4));
      const key = request.headers.get('idempotency-key');
      const known = key ? this.keys.get(key) : undefined;
      if (known) {
        if (known.body !== body)
          return Response.json(
            { error: { code: 'idempotency_conflict', message: 'This key was used for another request.' } },
            { status: 400 },
          );
        return Response.json(
          { data: { job_id: known.jobId, status: 'queued' }, credits_charged: 2 },
          { status: 202, headers: { 'x-credits-charged': '2', 'idempotent-replayed': 'true' } },
        );
      }
      if (body.includes('"provider-error"'))
        return Response.json({ error: { code: 'provider_error', message: 'The provider failed.' } }, { status: 500 });
      const jobId = `job_${++this.#n}`;
      this.charged += 2;
      this.jobs.set(jobId, { failed: body.includes('"fails"'), refunded: false });
      if (key) this.keys.set(key, { body, jobId });
      return Response.json(
        { data: { job_id: jobId, status: 'queued' }, credits_charged: 2 },
        { status: 202, headers: { 'x-credits-charged': '2' } },
      );
    }
    const poll = /^\/api\/v1\/3d\/jobs\/(job_\d+)$/.exec(url.pathname);
    if (request.method === 'GET' && poll) {
      const job = this.jobs.get(poll[1]!);
      if (!job) return Response.json({ error: { code: 'not_found', message: 'No such job.' } }, { status: 404 });
      if (job.failed && !job.refunded) {
        job.refunded = true;
        this.charged -= 2;
      }
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

  forgetKeys(): void {
    this.keys.clear();
  }
}

type Op =
  | { kind: 'create'; key: string | null; prompt: 'same' | 'other' | 'fails' | 'provider-error'; abort: boolean }
  | { kind: 'poll' }
  | { kind: 'forget' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      key: fc.option(fc.constantFrom('k1', 'k2', 'k3'), { nil: null }),
      prompt: fc.constantFrom('same' as const, 'other' as const, 'fails' as const, 'provider-error' as const),
      abort: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'poll' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'forget' as const }) },
);

async function property(makeStore: () => ProxyStore, runs: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(op, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }),
      fc.integer({ min: 0, max: 16 }),
      async (batches, budget) => {
        const upstream = new ModelUpstream();
        const proxy = createProxy({
          upstream: upstream.fetch,
          keys: { generate: 'g3_live_k' },
          secret: SECRET,
          authorize: () => null,
          store: makeStore(),
          rateLimits: { create: { limit: 1e9, windowSeconds: 60 }, poll: { limit: 1e9, windowSeconds: 60 } },
          log: () => {},
        });
        const token = await proxy.mintToken({ subject: `prop-${Math.random()}`, capabilities: ['generate'], budget });
        const auth = { authorization: `Bearer ${token}` };
        const handles = new Set<string>();
        const used = async () =>
          (
            (await (await proxy.fetch(new Request('http://site/mediakit/session', { headers: auth }))).json()) as {
              data: { budget: { used: number } };
            }
          ).data.budget.used;
        const pollAll = async () => {
          for (const h of handles)
            await (
              await proxy.fetch(new Request(`http://site/mediakit/api/v1/3d/jobs/${h}`, { headers: auth }))
            ).arrayBuffer();
        };
        const run = async (o: Op) => {
          if (o.kind === 'forget') return upstream.forgetKeys();
          if (o.kind === 'poll') return pollAll();
          const controller = new AbortController();
          const headers: Record<string, string> = { ...auth, 'content-type': 'application/json' };
          if (o.key) headers['idempotency-key'] = o.key;
          if (o.abort) upstream.arrived.push(() => controller.abort(new Error('the browser went away')));
          const response = await proxy.fetch(
            new Request('http://site/mediakit/api/v1/3d/jobs', {
              method: 'POST',
              headers,
              body: JSON.stringify({ mode: 'text', prompt: o.prompt }),
              signal: controller.signal,
            }),
          );
          // An aborted page retries with its key and gets the same handle; keeping it stands for that.
          if (response.status === 202)
            handles.add(((await response.json()) as { data: { job_id: string } }).data.job_id);
          else await response.arrayBuffer();
        };
        for (const batch of batches) {
          await Promise.all(batch.map(run));
          const u = await used();
          assert.ok(u >= upstream.charged, `used ${u} < upstream charged ${upstream.charged}`);
          assert.ok(upstream.charged <= budget + 0, `upstream charged ${upstream.charged} past the budget ${budget}`);
        }
        await pollAll();
        assert.equal(await used(), upstream.charged, 'once every job was polled, used equals what upstream charged');
      },
    ),
    { numRuns: runs },
  );
}

describe('budget ledger property', () => {
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

  it('used never falls below what upstream charged, and equals it once jobs are polled (memory store)', async () => {
    await property(() => new MemoryStore(), 150);
  });

  it('the same on Redis', async () => {
    await property(() => new RedisStore(client, { prefix: `prop:${Date.now()}:${Math.random()}:` }), 60);
  });
});
