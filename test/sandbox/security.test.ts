/**
 * Issue 19, the sandbox's part: no keyless path to a visitor's results (signed model, turntable
 * and reference links; a ledger only for the account's keys; a control plane that answers only
 * its own origin), and no charge on an answer that says nothing was charged (a clock that stays
 * a valid date; a ledger entry written before the balance moves). Over real HTTP where the attack
 * was over HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AccountBook } from '../../src/sandbox/accounts.js';
import { createClock } from '../../src/sandbox/clock.js';
import { envelope, jsonPost, PLATFORM, settle, startSandbox, type Harness, type Keys } from './harness.js';
import { bearer, startStack, type Stack } from '../proxy/harness.js';
import { dataUrl, makeImage, toBase64 } from '../fixtures/media.js';

const HOUR = 3_600_000;

describe('sandbox results: only signed links download them', () => {
  let h: Harness;
  let keys: Keys;
  let jobId: string;
  let created: Record<string, any>;
  let done: Record<string, any>;
  before(async () => {
    h = await startSandbox();
    ({ keys } = await h.account(10));
    const r = await h.call(
      '/api/v1/3d/jobs',
      jsonPost(keys.generate, { mode: 'text', prompt: 'a small red teapot', quality: 'fast', seed: 3 }),
    );
    assert.equal(r.status, 202);
    created = ((await r.json()) as { data: Record<string, any> }).data;
    jobId = created['job_id'];
    done = await settle(h, r.headers.get('location')!, keys.generate);
    assert.equal(done['status'], 'succeeded');
  });
  after(() => h.close());

  it('a bare job id downloads nothing: model, turntable and reference answer 403 link_expired', async () => {
    for (const file of ['model', 'turntable', 'reference']) {
      const r = await h.call(`/api/demo/3d/jobs/${jobId}/${file}`);
      assert.equal(r.status, 403, `${file} without a signature`);
      const e = await envelope(r);
      assert.equal(e.code, 'link_expired');
      assert.match(e.message, /poll the job/i, 'the message says how to get a working link');
    }
  });

  it('the links keep the spec path, carry an expiring signature, and work for their own file only', async () => {
    const model = new URL(done['output'].model_url, h.url);
    const turntable = new URL(done['output'].turntable_url, h.url);
    const reference = new URL(done['reference_image_url'], h.url);
    assert.equal(model.pathname, `/api/demo/3d/jobs/${jobId}/model`);
    assert.equal(turntable.pathname, `/api/demo/3d/jobs/${jobId}/turntable`);
    assert.equal(reference.pathname, `/api/demo/3d/jobs/${jobId}/reference`);
    for (const u of [model, turntable, reference]) assert.match(u.search, /^\?expires=\d+&sig=[A-Za-z0-9_-]+$/);
    assert.match(
      created['reference_image_url'],
      /\/reference\?expires=\d+&sig=/,
      'the 202 of a text job signs its reference too',
    );

    const glb = await h.call(done['output'].model_url);
    assert.equal(glb.status, 200);
    assert.equal(new TextDecoder().decode((await glb.arrayBuffer()).slice(0, 4)), 'glTF');
    assert.equal((await h.call(done['output'].turntable_url)).headers.get('content-type'), 'video/mp4');
    assert.equal((await h.call(done['reference_image_url'])).headers.get('content-type'), 'image/png');
    assert.match(
      (await h.call(done['output'].model_url + '&download=1')).headers.get('content-disposition') ?? '',
      /attachment/,
    );

    // One file's signature does not open another file of the same job.
    const swapped = await h.call(`/api/demo/3d/jobs/${jobId}/model${turntable.search}`);
    assert.equal(swapped.status, 403);
    const forged = await h.call(
      `/api/demo/3d/jobs/${jobId}/model?expires=${Number(model.searchParams.get('expires')) + 1}&sig=${model.searchParams.get('sig')}`,
    );
    assert.equal(forged.status, 403);
  });

  it('the links expire after about 60 minutes with a clear message; a fresh poll gives working ones', async () => {
    await h.advance(61 * 60_000);
    for (const url of [done['output'].model_url, done['output'].turntable_url, done['reference_image_url']]) {
      const r = await h.call(url);
      assert.equal(r.status, 403, url);
      const e = await envelope(r);
      assert.equal(e.code, 'link_expired');
      assert.match(e.message, /expired/);
    }
    const fresh = await settle(h, `/api/v1/3d/jobs/${jobId}`, keys.generate);
    assert.equal((await h.call(fresh['output'].model_url)).status, 200);
    assert.equal((await h.call(fresh['reference_image_url'])).status, 200);
  });
});

describe('sandbox ledger: job ids only for a key of the account', () => {
  let h: Harness;
  before(async () => (h = await startSandbox()));
  after(() => h.close());

  it('answers the same 404 as an unknown account without a key of that account, and the ledger with one', async () => {
    const a = await h.account(10);
    const b = await h.account(10);
    const r = await h.call(
      '/api/v1/3d/jobs',
      jsonPost(a.keys.generate, {
        mode: 'image',
        images: [dataUrl(await makeImage({ width: 64, height: 64 }))],
        quality: 'fast',
      }),
    );
    assert.equal(r.status, 202);
    const unknown = await h.call('/__sandbox/accounts/acct_nope/ledger');
    assert.equal(unknown.status, 404);
    const unknownBody = await unknown.text();
    const path = `/__sandbox/accounts/${a.id}/ledger`;
    for (const [what, headers] of [
      ['no key', {}],
      ["another account's key", { authorization: `Bearer ${b.keys.generate}` }],
      ['an unknown key', { 'x-api-key': 'g3_live_nope' }],
      ['a malformed Authorization', { authorization: a.keys.generate }],
    ] as const) {
      const refused = await h.call(path, { headers });
      assert.equal(refused.status, 404, what);
      const text = await refused.text();
      assert.equal(text, unknownBody, `${what}: the same answer as an unknown account`);
      assert.ok(!text.includes('job_'), `${what}: no job id`);
    }
    // Any key of the account, in either header.
    for (const headers of [{ authorization: `Bearer ${a.keys.headshot}` }, { 'x-api-key': a.keys.generate }] as Record<
      string,
      string
    >[]) {
      const ok = await h.call(path, { headers });
      assert.equal(ok.status, 200);
      const body = (await ok.json()) as { entries: Array<{ job_id?: string }> };
      assert.match(body.entries[0]?.job_id ?? '', /^job_/);
    }
  });
});

describe('sandbox control plane: only its own origin', () => {
  let h: Harness;
  before(async () => (h = await startSandbox()));
  after(() => h.close());

  const create = (headers: Record<string, string>, method = 'POST') =>
    h.call('/__sandbox/accounts', {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(method === 'POST' ? { body: '{"credits":5}' } : {}),
    });

  // In a browser, Origin and Sec-Fetch-Site are the browser's own (a script cannot set them), so
  // the bridge cannot forge them for the browser sandbox; the check itself is the same code.
  const forgedHeaders = PLATFORM === 'browser' ? 'a browser Request cannot carry a forged Origin' : false;
  it(
    'refuses a foreign Origin or a cross-site Sec-Fetch-Site with 403 and no CORS grant',
    { skip: forgedHeaders },
    async () => {
      for (const headers of [
        { origin: 'http://localhost:5173' },
        { origin: 'null' },
        { origin: h.url.replace('127.0.0.1', 'localhost') },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
        { origin: h.url, 'sec-fetch-site': 'cross-site' },
      ] as Record<string, string>[]) {
        const r = await create(headers);
        assert.equal(r.status, 403, JSON.stringify(headers));
        assert.match((await envelope(r)).message, /origin|same-origin/i);
        for (const name of r.headers.keys())
          assert.ok(!name.startsWith('access-control-'), `${name} on ${JSON.stringify(headers)}`);
      }
      const { id, keys } = await h.account(1);
      const ledger = await h.call(`/__sandbox/accounts/${id}/ledger`, {
        headers: { authorization: `Bearer ${keys.video}`, origin: 'http://evil.example' },
      });
      assert.equal(ledger.status, 403, 'a foreign page cannot read a ledger even with the key');
      const clock = await h.call('/__sandbox/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
        body: '{"advance_ms":1}',
      });
      assert.equal(clock.status, 403);
    },
  );

  it('a preflight gets no CORS grant', async () => {
    const r = await create(
      {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
      'OPTIONS',
    );
    assert.ok(r.status >= 400, `preflight status ${r.status}`);
    for (const name of r.headers.keys()) assert.ok(!name.startsWith('access-control-'), name);
  });

  it('serves its own origin, a top-level request and a request without those headers', async () => {
    for (const headers of [
      { origin: h.url },
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      {},
    ] as Record<string, string>[]) {
      const r = await create(headers);
      assert.equal(r.status, 201, JSON.stringify(headers));
      for (const name of r.headers.keys()) assert.ok(!name.startsWith('access-control-'), name);
    }
  });
});

describe('sandbox clock and charges: never a charge on an answer that says none', () => {
  let h: Harness;
  let selfie: Uint8Array;
  before(async () => {
    h = await startSandbox();
    selfie = await makeImage({ width: 200, height: 260, format: 'jpeg' });
  });
  after(() => h.close());

  const jump = (advance_ms: unknown) =>
    h.call('/__sandbox/clock', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms }),
    });

  it('refuses a jump past the bound with 400 naming the limit; the clock stays a valid date and headshots charge what they report', async () => {
    for (const ms of [1e300, 11 * 365 * 24 * HOUR, Number.MAX_SAFE_INTEGER]) {
      const r = await jump(ms);
      assert.equal(r.status, 400, String(ms));
      const e = await envelope(r);
      assert.equal(e.code, 'invalid_request');
      assert.match(e.message, /10 years|9999/);
    }
    const now = (await (await jump(0)).json()) as { now: string };
    assert.ok(Number.isFinite(Date.parse(now.now)), `the clock answers a valid date: ${now.now}`);
    assert.equal((await jump(9 * 365 * 24 * HOUR)).status, 200, 'a jump inside the bound still works');

    const { id, keys } = await h.account(30);
    for (let i = 0; i < 2; i++) {
      const r = await h.call(
        '/api/v1/headshot',
        jsonPost(keys.headshot, { image_base64: toBase64(selfie), variants: [0] }),
      );
      assert.equal(r.status, 200, await r.clone().text());
      const charged = Number(r.headers.get('x-credits-charged'));
      const remaining = Number(r.headers.get('x-credits-remaining'));
      const ledger = await h.ledger(id);
      assert.equal(ledger.balance, remaining);
      assert.equal(ledger.entries.at(-1)!.amount, charged);
      assert.ok(Number.isFinite(Date.parse(ledger.entries.at(-1)!.at)));
    }
    const ledger = await h.ledger(id);
    assert.equal(
      30 - ledger.balance,
      ledger.entries.reduce((n, e) => n + (e.type === 'charge' ? e.amount : -e.amount), 0),
    );
  });

  it('the clock throws RangeError rather than becoming an invalid date', () => {
    const clock = createClock(1, () => 0);
    assert.throws(() => clock.advance(1e300), RangeError);
    assert.throws(() => clock.advance(Number.NaN), RangeError);
    assert.throws(() => clock.advance(-1), RangeError);
    assert.equal(new Date(clock.now()).toISOString(), '1970-01-01T00:00:00.000Z');
  });

  it('a charge or refund at an invalid time throws without changing the balance or the ledger', () => {
    const book = new AccountBook();
    const account = book.create(10);
    assert.throws(() => book.charge(account, 4, Number.NaN, 'headshots'), RangeError);
    assert.throws(() => book.charge(account, 4, 1e300, 'headshots'), RangeError);
    assert.equal(account.balance, 10);
    assert.equal(account.ledger.length, 0);
    book.charge(account, 4, 0, 'headshots');
    assert.throws(() => book.refund(account, 4, Number.POSITIVE_INFINITY, 'headshots'), RangeError);
    assert.equal(account.balance, 6);
    assert.deepEqual(
      account.ledger.map((e) => [e.type, e.amount, e.balance_after]),
      [['charge', 4, 6]],
    );
  });
});

describe('proxy: the mirrored 3D download endpoints follow the signed links', () => {
  let s: Stack;
  before(async () => (s = await startStack()));
  after(() => s.close());

  it('model, turntable and reference download by handle with the session token', async () => {
    const token = await s.login('erin');
    const r = await s.call('/mediakit/api/v1/3d/jobs', {
      method: 'POST',
      headers: bearer(token, { 'content-type': 'application/json' }),
      body: JSON.stringify({ mode: 'text', prompt: 'a green cup', quality: 'fast' }),
    });
    assert.equal(r.status, 202);
    const handle = ((await r.json()) as { data: { job_id: string } }).data.job_id;
    for (let i = 0; i < 200; i++) {
      const polled = (await (
        await s.call(`/mediakit/api/v1/3d/jobs/${handle}`, { headers: bearer(token) })
      ).json()) as { data: { status: string } };
      if (polled.data.status === 'succeeded') break;
      assert.ok(polled.data.status === 'queued' || polled.data.status === 'processing', polled.data.status);
      await s.sandbox.advance(60_000);
      await s.sandbox.sandbox.idle();
    }
    for (const [file, type, magic] of [
      ['model', 'model/gltf-binary', 'glTF'],
      ['turntable', 'video/mp4', undefined],
      ['reference', 'image/png', '\x89PNG'],
    ] as const) {
      const d = await s.call(`/mediakit/api/demo/3d/jobs/${handle}/${file}`, { headers: bearer(token) });
      assert.equal(
        d.status,
        200,
        `${file}: ${d.status} ${await d
          .clone()
          .text()
          .catch(() => '')}`.slice(0, 300),
      );
      assert.equal(d.headers.get('content-type'), type);
      const bytes = new Uint8Array(await d.arrayBuffer());
      assert.ok(bytes.byteLength > 100);
      if (magic) assert.equal(String.fromCharCode(...bytes.slice(0, 4)), magic);
    }
  });
});
