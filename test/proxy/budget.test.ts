/**
 * Budgets and idempotency: the proxy reserves a call's most before forwarding, settles at
 * X-Credits-Charged, releases what was not charged; keys are namespaced per subject; a store that
 * fails refuses (fail closed).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { envelope, startSandbox, type Harness } from '../sandbox/harness.js';
import { makeImage, toBase64 } from '../fixtures/media.js';
import { MemoryStore, type ProxyStore } from '../../src/proxy/index.js';
import { bearer, jsonInit, pollUntilDone, spyUpstream, startStack, type Stack } from './harness.js';

const remaining = async (s: Stack, token: string) =>
  (
    (await (await s.call('/mediakit/session', { headers: bearer(token) })).json()) as {
      data: { budget: { remaining: number } };
    }
  ).data.budget.remaining;

describe('proxy budgets and idempotency', () => {
  let sandbox: Harness;
  let s: Stack;
  let spy: ReturnType<typeof spyUpstream>;
  let selfie: string;
  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
    spy = spyUpstream(sandbox.url);
    s = await startStack({ sandboxHarness: sandbox, proxy: { upstream: spy.fetch } });
    selfie = toBase64(await makeImage({ width: 256, height: 256 }));
  });
  after(async () => {
    await s.close();
    await sandbox.close();
  });

  it('refuses a call over budget with 402 before anything goes upstream', async () => {
    const t = await s.login('frugal', 1);
    const before = spy.calls.length;
    const r = await s.call('/mediakit/api/v1/3d/jobs', jsonInit(t, { mode: 'text', prompt: 'a lamp' }));
    assert.equal(r.status, 402);
    const { code, message } = await envelope(r);
    assert.equal(code, 'insufficient_credits');
    assert.match(message, /costs up to 2 credits and this session has 1 left/);
    assert.equal(spy.calls.length, before);
  });

  it('reserves only the requested headshot slots and settles at what was charged', async () => {
    const t = await s.login('headshots', 2);
    const one = await s.call('/mediakit/api/v1/headshot', jsonInit(t, { image_base64: selfie, variants: [2] }));
    assert.equal(one.status, 200, await one.clone().text());
    assert.equal(one.headers.get('x-credits-charged'), '2');
    assert.equal(one.headers.get('x-credits-remaining'), '0');
    assert.equal(
      ((await one.json()) as { credits_remaining: number }).credits_remaining,
      0,
      'the body shows the session budget, not the site balance',
    );

    const u = await s.login('partial', 10);
    await sandbox.fault(s.accountId, 'variant_fail', { variants: [1, 3] });
    const r = await s.call('/mediakit/api/v1/headshot', jsonInit(u, { image_base64: selfie }));
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-credits-charged'), '5');
    assert.equal(await remaining(s, u), 5, 'two failed variants went back to the budget');
  });

  it('releases the reservation when upstream charges nothing', async () => {
    const t = await s.login('invalid', 2);
    const r = await s.call('/mediakit/api/v1/3d/jobs', jsonInit(t, { mode: 'text', prompt: 'x' }));
    assert.equal(r.status, 400);
    assert.match((await envelope(r)).message, /prompt/);
    await sandbox.fault(s.accountId, 'create_error');
    const failed = await s.call('/mediakit/api/v1/3d/jobs', jsonInit(t, { mode: 'text', prompt: 'a vase' }));
    assert.equal(failed.status, 500);
    assert.equal(await remaining(s, t), 2);
  });

  it('replays a retried Idempotency-Key once: one upstream job, one charge, one budget use', async () => {
    const t = await s.login('retrier', 10);
    const init = () => jsonInit(t, { mode: 'text', prompt: 'a green teapot' }, { 'idempotency-key': 'click-1' });
    const ledgerBefore = (await sandbox.ledger(s.accountId)).entries.length;
    // A double click: both requests in flight at once, then a retry after a lost response.
    const [a, b] = await Promise.all([
      s.call('/mediakit/api/v1/3d/jobs', init()),
      s.call('/mediakit/api/v1/3d/jobs', init()),
    ]);
    const c = await s.call('/mediakit/api/v1/3d/jobs', init());
    assert.deepEqual([a.status, b.status, c.status], [202, 202, 202]);
    const ledger = (await sandbox.ledger(s.accountId)).entries.slice(ledgerBefore);
    assert.equal(ledger.filter((e) => e.type === 'charge').length, 1, 'charged once upstream');
    assert.equal(await remaining(s, t), 8);
    const handles = await Promise.all(
      [a, b, c].map(async (r) => ((await r.json()) as { data: { job_id: string } }).data.job_id),
    );
    const job = await pollUntilDone(s, `/mediakit/api/v1/3d/jobs/${handles[2]}`, t);
    assert.equal(job['status'], 'succeeded');
  });

  it("namespaces Idempotency-Keys per subject, so one user cannot replay another's result", async () => {
    const victim = await s.login('victim', 10);
    const thief = await s.login('thief', 10);
    const key = { 'idempotency-key': 'predictable-key' };
    const v = await s.call(
      '/mediakit/api/v1/3d/jobs',
      jsonInit(victim, { mode: 'text', prompt: 'a secret prototype' }, key),
    );
    const victimUpstreamKey = spy.calls.at(-1)!.headers.get('idempotency-key');
    const t = await s.call(
      '/mediakit/api/v1/3d/jobs',
      jsonInit(thief, { mode: 'text', prompt: 'a secret prototype' }, key),
    );
    const thiefUpstreamKey = spy.calls.at(-1)!.headers.get('idempotency-key');
    assert.equal(v.status, 202);
    assert.equal(t.status, 202);
    assert.notEqual(victimUpstreamKey, thiefUpstreamKey);
    assert.equal(t.headers.get('idempotent-replayed'), null, "the thief got a new job, not the victim's");
    const thiefHandle = ((await t.json()) as { data: { job_id: string } }).data.job_id;
    const victimHandle = ((await v.json()) as { data: { job_id: string } }).data.job_id;
    assert.equal((await s.call(`/mediakit/api/v1/3d/jobs/${victimHandle}`, { headers: bearer(thief) })).status, 404);
    assert.equal((await s.call(`/mediakit/api/v1/3d/jobs/${thiefHandle}`, { headers: bearer(thief) })).status, 200);
  });

  it('fails closed: a store that errors or hangs means 503 and nothing upstream', async () => {
    const broken = new MemoryStore();
    let mode: 'ok' | 'throw' | 'hang' = 'ok';
    const store: ProxyStore = new Proxy(broken, {
      get(target, prop) {
        const value = Reflect.get(target, prop) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (mode === 'throw') return Promise.reject(new Error('ECONNREFUSED 127.0.0.1:6379'));
          if (mode === 'hang') return new Promise(() => {});
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const f = await startStack({ sandboxHarness: sandbox, proxy: { upstream: spy.fetch, store, storeTimeoutMs: 200 } });
    try {
      const t = await f.login('unlucky', 10);
      for (const m of ['throw', 'hang'] as const) {
        mode = m;
        const before = spy.calls.length;
        const r = await f.call('/mediakit/api/v1/3d/jobs', jsonInit(t, { mode: 'text', prompt: 'a chair' }));
        assert.equal(r.status, 503, m);
        assert.equal(r.headers.get('retry-after'), '5');
        assert.match((await envelope(r)).message, /nothing was charged/i);
        assert.equal(spy.calls.length, before, m);
      }
    } finally {
      mode = 'ok';
      await f.close();
    }
  });
});
