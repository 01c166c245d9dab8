/**
 * Issue 19, over real HTTP with the sandbox: a failed 3D job's Idempotency-Key replayed in the
 * next budget window must not refund the job into that window (it paid nothing there).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Harness } from '../sandbox/harness.js';
import { MemoryStore, type ProxyStore } from '../../src/proxy/index.js';
import { bearer, jsonInit, pollUntilDone, startStack } from './harness.js';
import { sleep } from './net.js';

const WINDOW_SECONDS = 4;

describe('a failed job replayed in the next budget window', () => {
  let sandbox: Harness;
  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
  });
  after(async () => {
    await sandbox.close();
  });

  it('is refunded once, into the window that was charged, and remaining never exceeds the budget', async () => {
    const inner = new MemoryStore();
    const refunds: { ledger: string; amount: number }[] = [];
    const store: ProxyStore = {
      reserve: (...a) => inner.reserve(...a),
      release: (...a) => inner.release(...a),
      used: (...a) => inner.used(...a),
      hit: (...a) => inner.hit(...a),
      async settle(ledger, id, amount, ttl) {
        if (amount < 0) refunds.push({ ledger, amount: -amount });
        return inner.settle(ledger, id, amount, ttl);
      },
    };
    const s = await startStack({ sandboxHarness: sandbox, proxy: { store, budgetWindowSeconds: WINDOW_SECONDS } });
    try {
      const t = await s.login('replayer', 10);
      const windowOf = () => Math.floor(Date.now() / 1000 / WINDOW_SECONDS);
      const key = { 'idempotency-key': 'refund-once-0001' };
      await sandbox.fault(s.accountId, 'job_fail');
      const first = await s.call(
        '/mediakit/api/v1/3d/jobs',
        jsonInit(t, { mode: 'text', prompt: 'a lamp that fails' }, key),
      );
      assert.equal(first.status, 202);
      await first.arrayBuffer();
      // A later budget window than the one the first call was charged to: nothing is charged in it yet.
      const charged = windowOf();
      while (windowOf() === charged) await sleep(20);
      const replay = await s.call(
        '/mediakit/api/v1/3d/jobs',
        jsonInit(t, { mode: 'text', prompt: 'a lamp that fails' }, key),
      );
      assert.equal(replay.status, 202);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      const handle = ((await replay.json()) as { data: { job_id: string } }).data.job_id;
      const job = await pollUntilDone(s, `/mediakit/api/v1/3d/jobs/${handle}`, t);
      assert.equal(job['status'], 'failed');
      const view = (await (await s.call('/mediakit/session', { headers: bearer(t) })).json()) as {
        data: { budget: { used: number; remaining: number } };
      };
      assert.ok(view.data.budget.remaining <= 10, `remaining ${view.data.budget.remaining} of a budget of 10`);
      assert.deepEqual(refunds, [], "the replay's handle refunds nothing: its own call settled 0");
    } finally {
      await s.close();
    }
  });
});
