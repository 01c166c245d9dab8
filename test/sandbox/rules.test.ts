import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ROUTES } from '../../src/api/index.js';
import { envelope, formPost, jsonPost, startSandbox, type Harness, type Keys } from './harness.js';
import { makeImage, makeVideo, toBase64 } from '../fixtures/media.js';

describe('authentication', () => {
  let h: Harness;
  before(async () => (h = await startSandbox()));
  after(() => h.close());

  const keyed = ROUTES.filter((r) => r.capability !== null);
  const sample = (r: (typeof ROUTES)[number]) => r.pattern.replace('{job_id}', 'job_x');

  for (const route of keyed) {
    it(`${route.method} ${route.pattern}: a missing or unknown key is 401 and charges nothing`, async () => {
      const { id } = await h.account(100);
      const init = (headers: Record<string, string>): RequestInit => ({
        method: route.method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(route.method === 'POST' ? { body: '{}' } : {}),
      });
      const missing = await h.call(sample(route), init({}));
      assert.equal(missing.status, 401);
      assert.equal((await envelope(missing)).code, 'unauthorized');
      const unknown = await h.call(sample(route), init({ authorization: 'Bearer v3_live_notarealkey' }));
      assert.equal(unknown.status, 401);
      assert.equal((await h.ledger(id)).entries.length, 0);
    });
  }

  it('a key of another capability is 401 for every capability-bound endpoint, naming the key kind needed', async () => {
    const { keys } = await h.account(100);
    const caps = Object.keys(keys) as (keyof Keys)[];
    for (const route of keyed.filter((r) => r.capability !== 'any')) {
      for (const cap of caps.filter((c) => c !== route.capability)) {
        const r = await h.call(sample(route), {
          method: route.method,
          headers: { authorization: `Bearer ${keys[cap]}`, 'content-type': 'application/json' },
          ...(route.method === 'POST' ? { body: '{}' } : {}),
        });
        assert.equal(r.status, 401, `${route.name} with a ${cap} key`);
        const { message } = await envelope(r);
        assert.ok(!message.includes(keys[cap]), 'the key is never echoed');
      }
    }
  });

  it('the account endpoint takes any of the four keys, in either header, and shows one balance', async () => {
    const { keys } = await h.account(77);
    for (const key of Object.values(keys)) {
      for (const headers of [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }] as Record<string, string>[]) {
        const r = await h.call('/api/v1/account', { headers });
        assert.deepEqual(await r.json(), { data: { credits: { balance: 77 } } });
      }
    }
  });

  it('two different keys in the two headers are refused', async () => {
    const a = await h.account(10);
    const r = await h.call('/api/v1/account', {
      headers: { 'x-api-key': a.keys.video, authorization: `Bearer ${a.keys.headshot}` },
    });
    assert.equal(r.status, 401);
  });

  it('unknown paths are 404 and wrong methods 405 with Allow, as envelopes', async () => {
    const r = await h.call('/api/v2/account');
    assert.equal(r.status, 404);
    await envelope(r);
    const m = await h.call('/api/v1/account', { method: 'DELETE' });
    assert.equal(m.status, 405);
    assert.equal(m.headers.get('allow'), 'GET');
  });
});

describe('Idempotency-Key', () => {
  let h: Harness;
  let selfie: Uint8Array;
  before(async () => {
    h = await startSandbox();
    selfie = await makeImage({ width: 200, height: 260 });
  });
  after(() => h.close());

  it('50 parallel creations with one key charge once and all answer the same job', async () => {
    const { id, keys } = await h.account(100);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        h.call(
          '/api/v1/3d/jobs',
          jsonPost(keys.generate, { mode: 'text', prompt: 'a lamp' }, { 'idempotency-key': 'k-parallel' }),
        ),
      ),
    );
    const bodies = await Promise.all(responses.map((r) => r.json() as Promise<any>));
    assert.ok(responses.every((r) => r.status === 202));
    assert.equal(new Set(bodies.map((b) => b.data.job_id)).size, 1);
    assert.equal(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true').length, 49);
    assert.ok(
      responses.every((r) => r.headers.get('x-credits-charged') === '2'),
      'the original headers are replayed',
    );
    const ledger = await h.ledger(id);
    assert.equal(ledger.entries.length, 1);
    assert.equal(ledger.balance, 98);
  });

  it('a retry after the answer was lost replays status, body and headers for a video upload (new multipart boundary)', async () => {
    const { id, keys } = await h.account(100);
    const clip = await makeVideo({ seconds: 1, width: 160, height: 120 });
    const send = () => {
      const form = new FormData();
      form.set('video_file', new Blob([clip as Uint8Array<ArrayBuffer>], { type: 'video/mp4' }), 'a.mp4');
      return h.call('/api/v1/video-to-3d/jobs', formPost(keys.video, form, { 'idempotency-key': 'upload-1' }));
    };
    const first = await send();
    const again = await send();
    assert.equal(again.status, 202);
    assert.deepEqual(await again.json(), await first.json());
    assert.equal(again.headers.get('x-credits-remaining'), '80');
    assert.equal((await h.ledger(id)).balance, 80);
  });

  it('headshots and image tools replay too, never charging twice', async () => {
    const { id, keys } = await h.account(100);
    const hs = () =>
      h.call(
        '/api/v1/headshot',
        jsonPost(keys.headshot, { image_base64: toBase64(selfie), variants: [0] }, { 'idempotency-key': 'hs-1' }),
      );
    const [a, b] = await Promise.all([hs(), hs()]);
    assert.deepEqual(await a.json(), await b.json());
    const it1 = () =>
      h.call('/api/v1', jsonPost(keys.imageTools, { image_base64: toBase64(selfie) }, { 'idempotency-key': 'it-1' }));
    const x = new Uint8Array(await (await it1()).arrayBuffer());
    const y = await it1();
    assert.equal(y.headers.get('content-type'), 'image/png');
    assert.deepEqual(new Uint8Array(await y.arrayBuffer()), x);
    assert.equal((await h.ledger(id)).balance, 100 - 2 - 1);
  });

  it('the same key with other content is a 400 idempotency_conflict; keys are per API key', async () => {
    const a = await h.account(100);
    const b = await h.account(100);
    const make = (key: string, prompt: string) =>
      h.call('/api/v1/3d/jobs', jsonPost(key, { mode: 'text', prompt }, { 'idempotency-key': 'shared' }));
    assert.equal((await make(a.keys.generate, 'a cup')).status, 202);
    const conflict = await make(a.keys.generate, 'a bowl');
    assert.equal(conflict.status, 400);
    assert.equal((await envelope(conflict)).code, 'idempotency_conflict');
    assert.equal((await make(b.keys.generate, 'a bowl')).status, 202, 'another API key may use the same string');
    assert.equal((await h.ledger(b.id)).balance, 98);
  });

  it('an error is not stored: after a provider failure the same key runs again and charges once', async () => {
    const { id, keys } = await h.account(10);
    await h.fault(id, 'create_error');
    const make = () =>
      h.call(
        '/api/v1/3d/jobs',
        jsonPost(keys.generate, { mode: 'text', prompt: 'a cup' }, { 'idempotency-key': 'retry-me' }),
      );
    assert.equal((await make()).status, 500);
    const retried = await make();
    assert.equal(retried.status, 202);
    assert.equal(retried.headers.get('idempotent-replayed'), null);
    assert.equal((await make()).headers.get('idempotent-replayed'), 'true');
    assert.equal((await h.ledger(id)).balance, 8);
  });

  it('a malformed Idempotency-Key is a 400', async () => {
    const { keys } = await h.account(10);
    const r = await h.call(
      '/api/v1/3d/jobs',
      jsonPost(keys.generate, { mode: 'text', prompt: 'a cup' }, { 'idempotency-key': 'has spaces in it' }),
    );
    assert.equal(r.status, 400);
    assert.match((await envelope(r)).message, /Idempotency-Key/);
  });
});

describe('rate limits', () => {
  let h: Harness;
  before(async () => (h = await startSandbox({ rateLimit: { limit: 2, windowMs: 60_000 } })));
  after(() => h.close());

  it('over the limit is 429 with Retry-After and rate-limit headers, and no charge', async () => {
    const { id, keys } = await h.account(100);
    const make = () => h.call('/api/v1/3d/jobs', jsonPost(keys.generate, { mode: 'text', prompt: 'a cup' }));
    const first = await make();
    assert.equal(first.headers.get('x-ratelimit-limit'), '2');
    assert.equal(first.headers.get('x-ratelimit-remaining'), '1');
    await make();
    const limited = await make();
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
    assert.equal((await envelope(limited)).code, 'rate_limited');
    assert.equal((await h.ledger(id)).entries.length, 2);
    // Polls are not charged and not limited.
    const jobId = ((await first.json()) as any).data.job_id;
    for (let i = 0; i < 5; i++)
      assert.equal((await h.call(`/api/v1/3d/jobs/${jobId}`, { headers: { 'x-api-key': keys.generate } })).status, 200);
  });

  it('the rate_limit fault forces 429s on any charged endpoint', async () => {
    const { id, keys } = await h.account(100);
    await h.fault(id, 'rate_limit', { count: 1 });
    const r = await h.call('/api/v1/headshot', jsonPost(keys.headshot, { image_base64: 'AAAA' }));
    assert.equal(r.status, 429);
    assert.equal(r.headers.get('retry-after'), '1');
  });
});

describe('polling at scale', () => {
  let h: Harness;
  before(async () => (h = await startSandbox()));
  after(() => h.close());

  it('answers 200 parallel polls', async () => {
    const { keys } = await h.account(100);
    const r = await h.call('/api/v1/3d/jobs', jsonPost(keys.generate, { mode: 'text', prompt: 'a cup' }));
    const path = r.headers.get('location')!;
    const polls = await Promise.all(
      Array.from({ length: 200 }, () => h.call(path, { headers: { 'x-api-key': keys.generate } })),
    );
    assert.ok(polls.every((p) => p.status === 200));
    const bodies = await Promise.all(polls.map((p) => p.json() as Promise<any>));
    assert.ok(bodies.every((b) => b.data.job_id === path.split('/').pop()));
  });
});

describe('control plane', () => {
  let h: Harness;
  before(async () => (h = await startSandbox()));
  after(() => h.close());

  it('creates accounts with four keys of the four prefixes on one balance', async () => {
    const r = await h.call('/__sandbox/accounts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"credits": 5}',
    });
    assert.equal(r.status, 201);
    const body = (await r.json()) as any;
    assert.match(body.account_id, /^acct_/);
    assert.match(body.keys.video, /^v3_live_/);
    assert.match(body.keys.headshot, /^hs_live_/);
    assert.match(body.keys.generate, /^g3_live_/);
    assert.match(body.keys.imageTools, /^ut_live_/);
  });

  it('refuses bad control requests with 400 and unknown routes with 404', async () => {
    const post = (path: string, body: unknown) =>
      h.call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal((await post('/__sandbox/accounts', { credits: -1 })).status, 400);
    assert.equal((await post('/__sandbox/accounts', { credits: 'lots' })).status, 400);
    assert.equal((await post('/__sandbox/clock', { advance_ms: -5 })).status, 400);
    assert.equal((await post('/__sandbox/faults', { account_id: 'acct_nope', kind: 'job_fail' })).status, 400);
    const { id } = await h.account(1);
    assert.equal((await post('/__sandbox/faults', { account_id: id, kind: 'meteor' })).status, 400);
    assert.equal(
      (await post('/__sandbox/faults', { account_id: id, kind: 'variant_fail', variants: [9] })).status,
      400,
    );
    assert.equal((await post('/__sandbox/reset', {})).status, 404);
    assert.equal((await h.call('/__sandbox/accounts/acct_nope/ledger')).status, 404);
  });
});
