/**
 * One keep per result across proxy instances (issue 36): two editors of one scope, each through
 * another instance of the proxy (one shared store and one result store, as a cluster has), keep
 * the same job's files at the same moment. The result is stored once, both get the same kept
 * result, and its bytes count once. Real HTTP: two proxies and the sandbox on their own ports.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileResultStore, MemoryStore } from '../../src/proxy/index.js';
import { startSandbox, type Harness } from '../sandbox/harness.js';
import { cookieAuthorize, jsonInit, pollUntilDone, startStack, type Stack } from './harness.js';
import { keepInit, sessionView } from './keep-suite.js';

/** The user and scope a test cookie names. */
function scopedAuthorize(request: Request) {
  const result = cookieAuthorize(request);
  const scope = /(?:^|;\s*)scope=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  return result && scope ? { ...result, scope: decodeURIComponent(scope) } : result;
}

async function loginAs(s: Stack, user: string, scope: string): Promise<string> {
  const r = await s.call('/mediakit/session', {
    method: 'POST',
    headers: { cookie: `user=${user}; budget=100; scope=${scope}` },
  });
  assert.equal(r.status, 200, await r.clone().text());
  return ((await r.json()) as { data: { token: string } }).data.token;
}

/** Stored objects under `dir` (metadata sidecars apart). */
function objectsIn(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (!name.endsWith('.json')) found.push(p);
    }
  };
  walk(dir);
  return found;
}

describe('one keep per result across proxy instances', () => {
  let sandbox: Harness;
  let dir: string;
  let one: Stack;
  let two: Stack;

  before(async () => {
    sandbox = await startSandbox({ speed: 600 });
    dir = mkdtempSync(join(tmpdir(), 'mediakit-kept-once-'));
    // One store and one result store behind both instances, as a cluster shares Redis and S3.
    const store = new MemoryStore();
    const results = { store: fileResultStore({ dir }) };
    one = await startStack({ sandboxHarness: sandbox, proxy: { authorize: scopedAuthorize, store, results } });
    two = await startStack({
      sandboxHarness: sandbox,
      proxy: { authorize: scopedAuthorize, store, results, keys: one.keys },
    });
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("two editors keeping one job's files at once, through two instances: one stored copy each, the same kept result, counted once", async () => {
    const ann = await loginAs(one, 'ann', 'site-1');
    const ben = await loginAs(two, 'ben', 'site-1');
    const created = await one.call(
      '/mediakit/api/v1/3d/jobs',
      jsonInit(ann, { mode: 'text', prompt: 'a copper saucepan', quality: 'fast' }),
    );
    assert.equal(created.status, 202, await created.clone().text());
    const handle = ((await created.json()) as { data: { job_id: string } }).data.job_id;
    // Ben follows Ann's job through the other instance.
    const job = await pollUntilDone(two, `/mediakit/api/v1/3d/jobs/${handle}`, ben);
    assert.equal(job['status'], 'succeeded');

    const files = ['glb', 'mp4', 'image'] as const;
    const answers = await Promise.all(
      files.flatMap((file) => [
        one.call('/mediakit/results', keepInit(ann, handle, file)),
        two.call('/mediakit/results', keepInit(ben, handle, file)),
      ]),
    );
    const kept = await Promise.all(
      answers.map(async (r) => {
        assert.ok(r.status === 200 || r.status === 201, `${r.status} ${await r.clone().text()}`);
        return { status: r.status, ...((await r.json()) as { data: { id: string; url: string; bytes: number } }).data };
      }),
    );
    for (let i = 0; i < files.length; i++) {
      const [a, b] = [kept[2 * i]!, kept[2 * i + 1]!];
      assert.deepEqual({ ...a, status: 0 }, { ...b, status: 0 }, `${files[i]}: both get the same kept result`);
      assert.deepEqual([a.status, b.status].sort(), [200, 201], `${files[i]}: one keep stored it`);
    }
    assert.equal(objectsIn(dir).length, 3, 'one stored object per file');
    const total = kept.filter((k) => k.status === 201).reduce((n, k) => n + k.bytes, 0);
    const used = (await sessionView(one, ann)).results.used_bytes + (await sessionView(two, ben)).results.used_bytes;
    assert.equal(used, total, 'the bytes count once, to whoever kept each file');
  });
});
