/**
 * Sessions: POST /session runs authorize and answers a token; every other route needs it, and
 * verification is strict (tampered, expired, wrong audience, swapped algorithm, wrong type: 401).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, decodeJwt, decodeProtectedHeader, base64url } from 'jose';
import { createProxy } from '../../src/proxy/index.js';
import { envelope } from '../sandbox/harness.js';
import { SECRET, bearer, cookieAuthorize, listen, startStack, type Stack } from './harness.js';
import { toNodeHandler } from '../../src/proxy/index.js';

describe('proxy sessions', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(() => s.close());

  it('answers a short-lived, typed HS256 token with the subject, capabilities and budget', async () => {
    const r = await s.call('/mediakit/session', { method: 'POST', headers: { cookie: 'user=alice; budget=50' } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('cache-control'), 'no-store');
    const { data } = (await r.json()) as {
      data: { token: string; expires_at: string; capabilities: string[]; budget: { limit: number; remaining: number } };
    };
    const header = decodeProtectedHeader(data.token);
    assert.equal(header.alg, 'HS256');
    assert.equal(header.typ, 'mediakit-session+jwt');
    const claims = decodeJwt(data.token);
    assert.equal(claims.sub, 'alice');
    assert.equal(claims.iss, 'mediakit-proxy');
    assert.equal(claims.aud, 'mediakit:/mediakit');
    assert.equal(claims['budget'], 50);
    assert.deepEqual(claims['capabilities'], ['video', 'headshot', 'generate', 'imageTools']);
    assert.ok(typeof claims.jti === 'string' && claims.jti.length >= 16);
    assert.equal(claims.exp! - claims.iat!, 900);
    assert.equal(Date.parse(data.expires_at), claims.exp! * 1000);
    assert.deepEqual([data.budget.limit, data.budget.remaining], [50, 50]);
  });

  it('is 401 when authorize returns null, and nothing else works without a token', async () => {
    const r = await s.call('/mediakit/session', { method: 'POST' });
    assert.equal(r.status, 401);
    assert.match((await envelope(r)).message, /sign in/i);
    const poll = await s.call('/mediakit/api/v1/video-to-3d/jobs', { method: 'POST' });
    assert.equal(poll.status, 401);
    assert.match((await envelope(poll)).message, /Authorization: Bearer/);
  });

  it('GET /session reports the remaining budget of this session', async () => {
    const token = await s.login('budget-reader', 7);
    const r = await s.call('/mediakit/session', { headers: bearer(token) });
    assert.equal(r.status, 200);
    const { data } = (await r.json()) as {
      data: { budget: { limit: number; used: number; remaining: number; resets_at: string } };
    };
    assert.deepEqual([data.budget.limit, data.budget.used, data.budget.remaining], [7, 0, 7]);
    assert.ok(Date.parse(data.budget.resets_at) > Date.now());
  });

  it('refuses tampered, re-signed, alg-swapped, mistyped, wrong-audience and expired tokens', async () => {
    const token = await s.login('mallory', 5);
    const [h, p, sig] = token.split('.') as [string, string, string];
    const claims = decodeJwt(token);
    const richer = base64url.encode(JSON.stringify({ ...claims, budget: 1_000_000 }));
    const flip = (text: string) => text.slice(0, -2) + (text.at(-2) === 'A' ? 'B' : 'A') + text.at(-1);
    const none = base64url.encode(JSON.stringify({ alg: 'none', typ: 'mediakit-session+jwt', kid: 'k1' }));
    const wrongKey = new TextEncoder().encode('another-secret-0123456789abcdef0123456789');
    const sign = (payload: Record<string, unknown>, header: Record<string, unknown>, key: Uint8Array = wrongKey) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'HS256', ...header } as never).sign(key);
    // A proxy elsewhere with the same secret (a shared secret across two sites) mints for its own audience.
    const other = createProxy({
      upstream: s.sandbox.url,
      keys: s.keys,
      secret: SECRET,
      authorize: cookieAuthorize,
      audience: 'other-site',
    });
    const foreign = await other.mintToken({ subject: 'mallory', capabilities: ['video'], budget: 5 });
    const expired = createProxy({ upstream: s.sandbox.url, keys: s.keys, secret: SECRET, authorize: cookieAuthorize });
    const old = await expired.mintToken({ subject: 'mallory', capabilities: ['video'], budget: 5, ttlSeconds: -60 });
    // The proxy's real token key (HKDF of the secret): a control token signed with it passes, so the
    // refusals below are about the one thing each case changes.
    const base = await crypto.subtle.importKey('raw', new TextEncoder().encode(SECRET), 'HKDF', false, ['deriveBits']);
    const realKey = new Uint8Array(
      await crypto.subtle.deriveBits(
        {
          name: 'HKDF',
          hash: 'SHA-256',
          salt: new Uint8Array(0),
          info: new TextEncoder().encode('mediakit-proxy/v1/token'),
        },
        base,
        256,
      ),
    );
    const control = await sign(claims, { typ: 'mediakit-session+jwt', kid: 'k1' }, realKey);
    assert.equal((await s.call('/mediakit/session', { headers: bearer(control) })).status, 200);
    const cases: [string, string][] = [
      ['typ JWT', await sign(claims, { typ: 'JWT', kid: 'k1' }, realKey)],
      ['no typ', await sign(claims, { kid: 'k1' }, realKey)],
      [
        'HS512 with the right key',
        await new SignJWT(claims)
          .setProtectedHeader({ alg: 'HS512', typ: 'mediakit-session+jwt', kid: 'k1' })
          .sign(realKey),
      ],
      ['no jti', await sign({ ...claims, jti: undefined }, { typ: 'mediakit-session+jwt', kid: 'k1' }, realKey)],
      ['payload changed', `${h}.${richer}.${sig}`],
      ['signature changed', `${h}.${p}.${flip(sig)}`],
      ['alg none', `${none}.${p}.`],
      ['signed with another key', await sign(claims, { typ: 'mediakit-session+jwt', kid: 'k1' })],
      [
        'HS512',
        await new SignJWT(claims)
          .setProtectedHeader({ alg: 'HS512', typ: 'mediakit-session+jwt', kid: 'k1' })
          .sign(new Uint8Array(64)),
      ],
      ['unknown kid', await sign(claims, { typ: 'mediakit-session+jwt', kid: 'k9' })],
      ['other audience', foreign],
      ['expired', old],
      ['garbage', 'not.a.token'],
    ];
    for (const [label, bad] of cases) {
      const r = await s.call('/mediakit/session', { headers: bearer(bad) });
      assert.equal(r.status, 401, label);
      assert.equal((await envelope(r)).code, 'unauthorized', label);
    }
    const late = await s.call('/mediakit/session', { headers: bearer(old) });
    assert.match((await envelope(late)).message, /expired/);
  });

  it('keeps old tokens valid across a secret rotation and drops them once the old secret is retired', async () => {
    const v1 = { id: 'v1', secret: SECRET };
    const v2 = { id: 'v2', secret: 'rotated-secret-abcdefghijklmnopqrstuvwxyz0123' };
    const base = { upstream: s.sandbox.url, keys: s.keys, authorize: cookieAuthorize };
    const before = createProxy({ ...base, secret: { current: v1 } });
    const token = await before.mintToken({ subject: 'rotor', capabilities: ['imageTools'], budget: 3 });
    const rotated = createProxy({ ...base, secret: { current: v2, previous: [v1] } });
    const retired = createProxy({ ...base, secret: { current: v2 } });
    const status = async (p: ReturnType<typeof createProxy>) =>
      (await p.fetch(new Request('http://x/mediakit/session', { headers: bearer(token) }))).status;
    assert.equal(await status(rotated), 200);
    assert.equal(await status(retired), 401);
    const fresh = await rotated.mintToken({ subject: 'rotor', capabilities: ['imageTools'], budget: 3 });
    assert.equal(decodeProtectedHeader(fresh).kid, 'v2');
  });

  it('grants only what authorize returns, and a route of another capability is 403', async () => {
    const token = await s.login('images-only', 10, ['imageTools']);
    const r = await s.call('/mediakit/api/v1/3d/jobs', {
      method: 'POST',
      headers: bearer(token, { 'content-type': 'application/json' }),
      body: '{"mode":"text","prompt":"a cup"}',
    });
    assert.equal(r.status, 403);
    assert.match((await envelope(r)).message, /may not use generate/);
    const ledger = await s.sandbox.ledger(s.accountId);
    assert.equal(ledger.entries.length, 0, 'nothing reached the upstream account');
  });

  it('refuses pages of other origins unless allowed, and answers CORS for allowed ones', async () => {
    const hostile = await s.call('/mediakit/session', {
      method: 'POST',
      headers: { cookie: 'user=alice', origin: 'https://evil.example' },
    });
    assert.equal(hostile.status, 403);
    assert.match((await envelope(hostile)).message, /allowedOrigins/);
    const same = await s.call('/mediakit/session', {
      method: 'POST',
      headers: { cookie: 'user=alice', origin: s.url },
    });
    assert.equal(same.status, 200);

    const friendly = await startStack({
      sandboxHarness: s.sandbox,
      proxy: { allowedOrigins: ['https://shop.example'] },
    });
    try {
      const pre = await friendly.call('/mediakit/api/v1/3d/jobs', {
        method: 'OPTIONS',
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
      });
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get('access-control-allow-origin'), 'https://shop.example');
      assert.match(pre.headers.get('access-control-allow-headers') ?? '', /idempotency-key/);
      const r = await friendly.call('/mediakit/session', {
        method: 'POST',
        headers: { cookie: 'user=bob', origin: 'https://shop.example' },
      });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('access-control-allow-credentials'), 'true');
      assert.match(r.headers.get('access-control-expose-headers') ?? '', /x-credits-remaining/);
    } finally {
      await friendly.close();
    }
  });

  it('answers 503 without a token when authorize throws, and says nothing of the failure', async () => {
    const p = createProxy({
      upstream: s.sandbox.url,
      keys: s.keys,
      secret: SECRET,
      log: () => {},
      authorize: () => {
        throw new Error('db password wrong');
      },
    });
    const { server, url } = await listen(toNodeHandler(p));
    try {
      const r = await fetch(url + '/mediakit/session', { method: 'POST' });
      assert.equal(r.status, 503);
      const text = JSON.stringify(await envelope(r));
      assert.doesNotMatch(text, /password/);
    } finally {
      server.close();
    }
  });

  it('refuses a configuration that could not be safe', () => {
    const base = { upstream: 'http://x', keys: { video: 'v3_live_x' }, authorize: () => null };
    assert.throws(() => createProxy({ ...base, secret: 'short' }), /at least 32 bytes/);
    assert.throws(() => createProxy({ ...base, secret: SECRET, keys: {} }), /at least one/);
    assert.throws(() => createProxy({ ...base, secret: SECRET, basePath: '/a/../b' }), /basePath/);
    assert.throws(() => createProxy({ ...base, secret: SECRET, authorize: undefined as never }), /authorize/);
  });
});
