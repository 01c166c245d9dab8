/**
 * Routes: exactly the spec's endpoints under basePath; suspicious paths refused before any
 * parsing; upstream requests built from scratch; only documented headers come back.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { envelope } from '../sandbox/harness.js';
import { makeImage, toBase64 } from '../fixtures/media.js';
import { bearer, rawRequest, spyUpstream, startStack, type Stack } from './harness.js';
import { startSandbox, type Harness } from '../sandbox/harness.js';

describe('proxy routes', () => {
  let sandbox: Harness;
  let s: Stack;
  let spy: ReturnType<typeof spyUpstream>;
  let token: string;
  before(async () => {
    sandbox = await startSandbox({ speed: 600 });
    spy = spyUpstream(sandbox.url, (call) =>
      call.url.pathname === '/api/v1/account'
        ? new Response('{"data":{"credits":{"balance":5}}}', {
            headers: {
              'content-type': 'application/json',
              'set-cookie': 'upstream=1',
              'x-upstream-internal': 'node-7',
              server: 'provider',
            },
          })
        : undefined,
    );
    s = await startStack({ sandboxHarness: sandbox, proxy: { upstream: spy.fetch, exposeAccountBalance: true } });
    token = await s.login('alice');
  });
  after(async () => {
    await s.close();
    await sandbox.close();
  });

  it('refuses traversal, empty segments, encoded separators and backslashes before they are parsed', async () => {
    const targets = [
      '/mediakit/../sandbox/__sandbox/accounts',
      '/mediakit/api/v1/../../session',
      '/mediakit/api//v1/account',
      '/mediakit/api/v1%2faccount',
      '/mediakit/api/v1%5Caccount',
      '/mediakit/api\\v1\\account',
      '/mediakit/%2e%2e/secret',
      '/mediakit/./session',
    ];
    const before = spy.calls.length;
    for (const target of targets) {
      const r = await rawRequest(s.url, target, { authorization: `Bearer ${token}` });
      assert.equal(r.status, 400, target);
      assert.match(JSON.parse(r.body).error.message, /path contains/, target);
    }
    assert.equal(spy.calls.length, before, 'nothing went upstream');
  });

  it('answers 404 for paths outside the allowlist and 405 for a wrong method, upstream untouched', async () => {
    const before = spy.calls.length;
    for (const path of [
      '/mediakit/api/v1/jobs',
      '/mediakit/__sandbox/accounts',
      '/mediakit/__provider/models/x.glb',
      '/mediakit/api/v2/account',
      '/mediakit/',
    ]) {
      const r = await s.call(path, { headers: bearer(token) });
      assert.equal(r.status, 404, path);
    }
    const r = await s.call('/mediakit/api/v1/headshot', { headers: bearer(token) });
    assert.equal(r.status, 405);
    assert.equal(spy.calls.length, before);
  });

  it("builds upstream headers from scratch: the key, never the browser's token or cookies", async () => {
    const png = await makeImage({ width: 64, height: 64 });
    const r = await s.call('/mediakit/api/v1?size=full&debug=1&url=http://evil', {
      method: 'POST',
      headers: bearer(token, {
        'content-type': 'application/json',
        accept: 'application/json',
        cookie: 'session=site-login',
        'x-forwarded-for': '1.2.3.4',
        'x-api-key': 'v3_live_forged',
        'idempotency-key': 'abc',
      }),
      body: JSON.stringify({ image_base64: toBase64(png) }),
    });
    assert.equal(r.status, 200);
    const call = spy.calls.at(-1)!;
    assert.equal(call.url.pathname, '/api/v1');
    assert.equal(call.url.search, '', 'no browser query parameter is forwarded');
    assert.equal(call.headers.get('authorization'), `Bearer ${s.keys.imageTools}`);
    assert.equal(call.headers.get('cookie'), null);
    assert.equal(call.headers.get('x-api-key'), null);
    assert.equal(call.headers.get('x-forwarded-for'), null);
    assert.match(call.headers.get('idempotency-key') ?? '', /^mk_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(
      new Set(call.headers.keys()),
      new Set(['authorization', 'content-type', 'content-length', 'idempotency-key', 'accept']),
    );
  });

  it('passes back only documented response headers', async () => {
    const r = await s.call('/mediakit/api/v1/account', { headers: bearer(token) });
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), { data: { credits: { balance: 5 } } });
    assert.equal(r.headers.get('set-cookie'), null);
    assert.equal(r.headers.get('x-upstream-internal'), null);
    assert.equal(r.headers.get('server'), null);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  });

  it('keeps the account balance private unless the site exposes it', async () => {
    const hidden = await startStack({ sandboxHarness: sandbox });
    try {
      const t = await hidden.login('carol');
      const r = await hidden.call('/mediakit/api/v1/account', { headers: bearer(t) });
      assert.equal(r.status, 403);
      assert.match((await envelope(r)).message, /GET \/mediakit\/session/);
    } finally {
      await hidden.close();
    }
  });
});
