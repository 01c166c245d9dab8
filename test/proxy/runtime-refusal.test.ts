/**
 * A request the runtime refuses to build never leaves the proxy, so its reservation is released
 * (502, nothing counted) rather than kept as if upstream might have charged (504). workerd refuses
 * some RequestInit values outright; here the runtime's Request refuses every POST the same way.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Harness } from '../sandbox/harness.js';
import { bearer, jsonInit, startStack, type Stack } from './harness.js';

describe('a request the runtime refuses to build', () => {
  let sandbox: Harness;
  let s: Stack;
  let upstreamCalls = 0;
  const NativeRequest = globalThis.Request;
  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
    s = await startStack({
      sandboxHarness: sandbox,
      proxy: {
        upstream: async (request) => {
          upstreamCalls++;
          return fetch(sandbox.url + new URL(request.url).pathname, request);
        },
      },
    });
  });
  after(async () => {
    globalThis.Request = NativeRequest;
    await s.close();
    await sandbox.close();
  });

  it('releases the reservation and says nothing was charged', async () => {
    const t = await s.login('refused', 10);
    class RefusingRequest extends NativeRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        if (String(input).startsWith('http://upstream.invalid/') && init?.method === 'POST')
          throw new TypeError('Invalid redirect value, must be one of "follow" or "manual".');
        super(input, init);
      }
    }
    globalThis.Request = RefusingRequest as typeof Request;
    let r: Response;
    try {
      r = await s.call('/mediakit/api/v1/3d/jobs', jsonInit(t, { mode: 'text', prompt: 'a refused lamp' }));
    } finally {
      globalThis.Request = NativeRequest;
    }
    const body = (await r.json()) as { error: { message: string } };
    assert.equal(r.status, 502, body.error.message);
    assert.match(body.error.message, /Nothing was charged/);
    assert.equal(upstreamCalls, 0);
    const view = (await (await s.call('/mediakit/session', { headers: bearer(t) })).json()) as {
      data: { budget: { used: number } };
    };
    assert.equal(view.data.budget.used, 0);
  });
});
