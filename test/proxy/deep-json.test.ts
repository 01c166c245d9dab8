/**
 * JSON nested far too deeply (issue 19: two million levels answered 502) is the browser's mistake,
 * not upstream's: a 400 invalid_request that says so, and nothing goes upstream or is charged.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { envelope, startSandbox, type Harness } from '../sandbox/harness.js';
import { bearer, spyUpstream, startStack, type Stack } from './harness.js';

const DEPTH = 2_000_000;

describe('deeply nested JSON through the proxy', () => {
  let sandbox: Harness;
  let spy: ReturnType<typeof spyUpstream>;
  let s: Stack;
  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
    spy = spyUpstream(sandbox.url);
    s = await startStack({ sandboxHarness: sandbox, proxy: { upstream: spy.fetch } });
  });
  after(async () => {
    await s.close();
    await sandbox.close();
  });

  for (const [name, path, open, close] of [
    [
      'a 3D job (arrays)',
      '/mediakit/api/v1/3d/jobs',
      '{"mode":"text","prompt":"lamp","extra":' + '['.repeat(DEPTH),
      ']'.repeat(DEPTH) + '}',
    ],
    [
      'a headshot (objects)',
      '/mediakit/api/v1/headshot',
      '{"image_url":"https://example.com/a.png","x":' + '{"a":'.repeat(DEPTH) + '1',
      '}'.repeat(DEPTH) + '}',
    ],
    [
      'an image tool (arrays)',
      '/mediakit/api/v1',
      '{"tool":"remove_background","x":' + '['.repeat(DEPTH),
      ']'.repeat(DEPTH) + '}',
    ],
  ] as const) {
    it(`answers 400 invalid_request for ${name} nested ${DEPTH} levels deep, and sends nothing upstream`, async () => {
      const t = await s.login('deep', 100);
      const before = spy.calls.length;
      const r = await s.call(path, {
        method: 'POST',
        headers: bearer(t, { 'content-type': 'application/json' }),
        body: open + close,
      });
      const error = await envelope(r);
      assert.equal(r.status, 400, `${r.status} ${error.code}: ${error.message}`);
      assert.equal(error.code, 'invalid_request');
      assert.match(error.message, /nested too deeply/);
      assert.equal(spy.calls.length, before, 'nothing went upstream');
      const session = (await (await s.call('/mediakit/session', { headers: bearer(t) })).json()) as {
        data: { budget: { used: number } };
      };
      assert.equal(session.data.budget.used, 0);
    });
  }
});

describe('deeply nested JSON sent to the sandbox directly (the mediakit-sandbox CLI, no proxy in front)', () => {
  let sandbox: Harness;
  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
  });
  after(async () => {
    await sandbox.close();
  });

  it('answers 400 invalid_request, with an Idempotency-Key too (the fingerprint walks the value), and charges nothing', async () => {
    const { id, keys } = await sandbox.account(100);
    const body = '{"mode":"text","prompt":"lamp","extra":' + '['.repeat(DEPTH) + ']'.repeat(DEPTH) + '}';
    const r = await sandbox.call('/api/v1/3d/jobs', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${keys.generate}`,
        'content-type': 'application/json',
        'idempotency-key': 'deep-1',
      },
      body,
    });
    const error = await envelope(r);
    assert.equal(r.status, 400, `${r.status} ${error.code}: ${error.message}`);
    assert.match(error.message, /nested too deeply/);
    assert.equal((await sandbox.ledger(id)).balance, 100);
  });
});
