/**
 * Kept results on the filesystem store (the shared contract in keep-suite.ts), plus what does not
 * depend on the store: who may read a kept result (public, owner, a function), scopes (a team's
 * subjects share jobs; budgets and refunds stay the subject's), a proxy without a store, and the
 * store's own guards (no key outside its folder).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProxy, fileResultStore, type ResultOwner } from '../../src/proxy/index.js';
import { envelope, startSandbox, type Harness } from '../sandbox/harness.js';
import { makeImage, makeVideo } from '../fixtures/media.js';
import {
  bearer,
  cookieAuthorize,
  jsonInit,
  pollUntilDone,
  SECRET,
  startStack,
  videoInit,
  type Stack,
} from './harness.js';
import { imageInit, keepInit, keepSuite, sessionView } from './keep-suite.js';

/** Files under `dir` that are not metadata sidecars (a leftover partial counts). */
function objectsIn(dir: string): number {
  let n = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (!name.endsWith('.json')) n++;
    }
  };
  walk(dir);
  return n;
}

keepSuite('fileResultStore', {
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'mediakit-kept-'));
    return {
      store: fileResultStore({ dir }),
      objects: async () => objectsIn(dir),
      close: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
});

/** The test site's login check with a `scope` cookie. */
function scopedAuthorize(request: Request) {
  const result = cookieAuthorize(request);
  const scope = /(?:^|;\s*)scope=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  return result && scope ? { ...result, scope: decodeURIComponent(scope) } : result;
}

const cookieOf = (user: string, scope?: string) =>
  `user=${encodeURIComponent(user)}; budget=100` + (scope ? `; scope=${encodeURIComponent(scope)}` : '');

async function loginAs(s: Stack, user: string, scope?: string, budget = 100): Promise<string> {
  const r = await s.call('/mediakit/session', {
    method: 'POST',
    headers: { cookie: cookieOf(user, scope).replace('budget=100', `budget=${budget}`) },
  });
  assert.equal(r.status, 200, await r.clone().text());
  return ((await r.json()) as { data: { token: string } }).data.token;
}

describe('kept results: access, scopes and options', () => {
  let sandbox: Harness;
  const dirs: string[] = [];
  const stacks: Stack[] = [];
  let video: Uint8Array;
  let png: Uint8Array;

  async function stackWith(access: 'public' | 'owner' | ((r: Request, o: ResultOwner) => boolean)) {
    const dir = mkdtempSync(join(tmpdir(), 'mediakit-kept-'));
    dirs.push(dir);
    const s = await startStack({
      sandboxHarness: sandbox,
      proxy: { authorize: scopedAuthorize, results: { store: fileResultStore({ dir }), access } },
    });
    stacks.push(s);
    return s;
  }

  async function keepImage(s: Stack, token: string, key: string): Promise<{ url: string; id: string }> {
    const r = await s.call('/mediakit/results', imageInit(token, png, 'image/png', { 'idempotency-key': key }));
    assert.equal(r.status, 201, await r.clone().text());
    return ((await r.json()) as { data: { url: string; id: string } }).data;
  }

  before(async () => {
    sandbox = await startSandbox({ speed: 1 });
    video = await makeVideo({ seconds: 2, width: 320, height: 240 });
    png = await makeImage({ width: 48, height: 48 });
  });
  after(async () => {
    for (const s of stacks) await s.close();
    await sandbox.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("'owner' access serves the keeping subject (cookie or token) and its scope mates, and is a 404 to anyone else", async () => {
    const s = await stackWith('owner');
    const alice = await loginAs(s, 'alice');
    const own = await keepImage(s, alice, 'a1');
    const read = (url: string, init?: RequestInit) => s.call(url, init);
    const mine = await read(own.url, { headers: { cookie: cookieOf('alice') } });
    assert.equal(mine.status, 200);
    assert.equal(mine.headers.get('cache-control'), 'private, no-cache');
    assert.deepEqual(new Uint8Array(await mine.arrayBuffer()), png);
    assert.equal((await read(own.url, { headers: bearer(alice) })).status, 200);
    const strangers: Record<string, string>[] = [
      {},
      { cookie: cookieOf('bob') },
      bearer(await loginAs(s, 'bob')),
      bearer('x.y.z'),
    ];
    for (const headers of strangers) {
      const r = await read(own.url, { headers });
      assert.equal(r.status, 404);
      assert.equal((await envelope(r)).code, 'not_found');
    }
    // Kept under a scope: its subjects may read it, the keeper outside the scope may not.
    const carol = await loginAs(s, 'carol', 'team-s');
    const team = await keepImage(s, carol, 'c1');
    assert.equal((await read(team.url, { headers: { cookie: cookieOf('dan', 'team-s') } })).status, 200);
    assert.equal((await read(team.url, { headers: { cookie: cookieOf('erin', 'team-t') } })).status, 404);
    assert.equal((await read(team.url, { headers: { cookie: cookieOf('carol') } })).status, 404);
    // A scope mate may delete it (only the owner binding may).
    const dan = await loginAs(s, 'dan', 'team-s');
    const erin = await loginAs(s, 'erin', 'team-t');
    assert.equal(
      (await s.call(`/mediakit/results/${team.id}`, { method: 'DELETE', headers: bearer(erin) })).status,
      404,
    );
    assert.equal(
      (await s.call(`/mediakit/results/${team.id}`, { method: 'DELETE', headers: bearer(dan) })).status,
      200,
    );
    // The keeping subject's quota is freed, whoever deleted it.
    assert.equal((await sessionView(s, carol)).results.used_bytes, 0);
  });

  it("an access function decides with the request and the result's owner; 'public' needs only the URL", async () => {
    const asked: ResultOwner[] = [];
    const s = await stackWith((request, owner) => {
      asked.push(owner);
      return request.headers.get('x-staff') === 'yes';
    });
    const token = await loginAs(s, 'frank', 'shop-1');
    const k = await keepImage(s, token, 'f1');
    assert.equal((await s.call(k.url)).status, 404);
    assert.equal((await s.call(k.url, { headers: { 'x-staff': 'yes' } })).status, 200);
    assert.deepEqual(asked[0], { subject: 'frank', scope: 'shop-1' });

    const open = await stackWith('public');
    const g = await keepImage(open, await loginAs(open, 'gina'), 'g1');
    const anyone = await open.call(g.url);
    assert.equal(anyone.status, 200);
    assert.equal(anyone.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  });

  it("shares a scope's jobs with its subjects only, and refunds a failed job to the subject that paid", async () => {
    const s = await stackWith('public');
    const a = await loginAs(s, 'ann', 'studio-s', 50);
    const b = await loginAs(s, 'ben', 'studio-s', 50);
    const c = await loginAs(s, 'cat', 'studio-t', 50);
    const d = await loginAs(s, 'dov', undefined, 50);
    const created = await s.call('/mediakit/api/v1/video-to-3d/jobs', videoInit(a, video));
    assert.equal(created.status, 202);
    const handle = ((await created.json()) as { data: { job_id: string } }).data.job_id;
    const path = `/mediakit/api/v1/video-to-3d/jobs/${handle}`;
    const job = await pollUntilDone(s, path, b);
    assert.equal(job['status'], 'succeeded');
    assert.equal((await s.call(job['output'].ply_url)).status, 200);
    assert.equal(
      (await s.call(`/mediakit/api/app/jobs/${handle}/download?extract=ply`, { headers: bearer(b) })).status,
      200,
    );
    for (const outsider of [c, d]) {
      assert.equal((await s.call(path, { headers: bearer(outsider) })).status, 404);
      assert.equal((await s.call('/mediakit/results', keepInit(outsider, handle, 'ply'))).status, 404);
    }
    const byB = await s.call('/mediakit/results', keepInit(b, handle, 'ply'));
    assert.equal(byB.status, 201);
    const kept = ((await byB.json()) as { data: { id: string; bytes: number } }).data;
    // A keeps the same scope's file: the same result, counted once (to B, who kept it).
    const byA = await s.call('/mediakit/results', keepInit(a, handle, 'ply'));
    assert.equal(byA.status, 200);
    assert.equal(((await byA.json()) as { data: { id: string } }).data.id, kept.id);
    assert.equal((await sessionView(s, b)).results.used_bytes, kept.bytes);
    assert.equal((await sessionView(s, a)).results.used_bytes, 0);
    // Budgets stay per subject: only A paid.
    assert.equal((await sessionView(s, a)).budget.used, 20);
    assert.equal((await sessionView(s, b)).budget.used, 0);

    // A failed job polled by B refunds A.
    await sandbox.fault(s.accountId, 'job_fail');
    const failing = await s.call('/mediakit/api/v1/video-to-3d/jobs', videoInit(a, video));
    const failed = ((await failing.json()) as { data: { job_id: string } }).data.job_id;
    assert.equal((await sessionView(s, a)).budget.used, 40);
    const end = await pollUntilDone(s, `/mediakit/api/v1/video-to-3d/jobs/${failed}`, b);
    assert.equal(end['status'], 'failed');
    assert.equal((await sessionView(s, a)).budget.used, 20);
    assert.equal((await sessionView(s, b)).budget.used, 0);

    // A subject-bound handle (made without a scope) keeps working for its subject only.
    const plain = await loginAs(s, 'ann', undefined, 50);
    const own = await s.call(
      '/mediakit/api/v1/3d/jobs',
      jsonInit(plain, { mode: 'text', prompt: 'a cup', quality: 'fast' }),
    );
    const ownHandle = ((await own.json()) as { data: { job_id: string } }).data.job_id;
    assert.equal((await s.call(`/mediakit/api/v1/3d/jobs/${ownHandle}`, { headers: bearer(a) })).status, 200);
    assert.equal((await s.call(`/mediakit/api/v1/3d/jobs/${ownHandle}`, { headers: bearer(b) })).status, 404);
  });

  it('says so when the proxy keeps nothing, and checks the results option at createProxy', async () => {
    const s = await startStack({ sandboxHarness: sandbox });
    stacks.push(s);
    const token = await s.login('hal');
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    assert.equal(claims['keep'], undefined);
    assert.equal((await sessionView(s, token)).results, undefined);
    const r = await s.call('/mediakit/results', keepInit(token, 'x'.repeat(60), 'glb'));
    assert.equal(r.status, 404);
    assert.equal((await envelope(r)).message, 'This site does not keep results: the proxy has no `results` store.');
    const base = { upstream: sandbox.url, keys: { video: 'v3_live_x' }, secret: SECRET, authorize: () => null };
    const store = fileResultStore({ dir: tmpdir() });
    assert.throws(() => createProxy({ ...base, results: {} as never }), /results\.store must be a ResultStore/);
    assert.throws(
      () => createProxy({ ...base, results: { store, access: 'all' as never } }),
      /results\.access must be/,
    );
    assert.throws(
      () => createProxy({ ...base, results: { store, quotaBytes: 1.5 } }),
      /results\.quotaBytes must be a whole/,
    );
    assert.throws(
      () => createProxy({ ...base, store: { hit() {} } as never, results: { store } }),
      /counts kept bytes/,
    );
    await assert.rejects(
      createProxy(base).mintToken({ subject: 'x', capabilities: [], budget: 1, scope: '' }),
      /scope must be a string of 1-200 characters/,
    );
  });

  it('fileResultStore keeps every key inside its folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mediakit-kept-'));
    dirs.push(dir);
    const store = fileResultStore({ dir });
    const meta = { type: 'image/png', name: 'a.png', owner: 'o', subject: 's', created: new Date().toISOString() };
    for (const key of ['../x', 'a/b', '', '..', 'a b'])
      await assert.rejects(store.put(key, new Blob(['x']).stream(), meta), /a key must be/);
    const put = await store.put('abc', new Blob(['hello']).stream(), meta);
    assert.equal(put.bytes, 5);
    const got = await store.get('abc', { start: 1, end: 3 });
    assert.equal(await new Response(got!.body).text(), 'ell');
    assert.equal(got!.bytes, 5);
    assert.equal(await store.head('missing'), null);
    await store.delete('abc');
    assert.equal(await store.head('abc'), null);
  });

  it('fileResultStore: a read racing a delete finds the file whole or not at all, never an error', async () => {
    // Found by the HTTP fuzz: a GET read the sidecar, a DELETE removed the file, and the open that
    // followed failed with ENOENT, which the proxy answered as a 503 instead of a 404.
    const dir = mkdtempSync(join(tmpdir(), 'mediakit-kept-'));
    dirs.push(dir);
    const store = fileResultStore({ dir });
    const meta = { type: 'image/png', name: 'a.png', owner: 'o', subject: 's', created: new Date().toISOString() };
    const bytes = new Uint8Array(300_000).fill(7);
    let whole = 0;
    let gone = 0;
    for (let round = 0; round < 60; round++) {
      const key = `race${round}`;
      await store.put(key, new Blob([bytes]).stream(), meta);
      const reads = Array.from({ length: 4 }, () =>
        store.get(key).then(async (got) => (got ? (await new Response(got.body).arrayBuffer()).byteLength : null)),
      );
      const [, ...sizes] = await Promise.all([store.delete(key), ...reads]);
      for (const size of sizes) {
        if (size === null) gone++;
        else {
          assert.equal(size, bytes.length, 'a read that found the file reads all of it');
          whole++;
        }
      }
    }
    assert.equal(whole + gone, 240);
    assert.ok(gone > 0, 'some reads came after the delete');
  });
});
