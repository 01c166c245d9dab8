/**
 * A crash leaves nothing behind (issue 31.4): a proxy on Redis, in a real child process, killed
 * with SIGKILL while it keeps an image. Its pending quota hold expires (its time to live is short
 * here; the keep renews it while it streams), and the file store sweeps the temporary file the
 * keep was writing when it is next used: after a restart, the subject's used bytes are what they
 * were before the keep began and no `.part` file remains. The time to live is also checked on the
 * stores themselves (memory and Redis).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { MemoryStore, RedisStore, type ProxyStore } from '../../src/proxy/index.js';
import { makeImage } from '../fixtures/media.js';
import { sleep, until } from './net.js';
import { startRedis } from './redis-server.js';

const HOLD_SECONDS = 1;

function partsIn(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.part')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

interface Child {
  url: string;
  process: ChildProcess;
}

function startChild(env: Record<string, string>): Promise<Child> {
  const child = fork(fileURLToPath(new URL('./keep-crash-child.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx', '--no-warnings'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ url: (m as { url: string }).url, process: child }));
    child.once('exit', (code) => reject(new Error(`the proxy child exited with ${code}`)));
  });
}

describe('a proxy killed mid-keep leaves nothing behind (Redis)', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let dir: string;
  const children: ChildProcess[] = [];

  before(async () => {
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), 'mediakit-keep-crash-'));
  });
  after(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    redis.child?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('frees the held quota and removes the .part file after SIGKILL and a restart', async () => {
    const env = {
      REDIS_URL: redis.url,
      PREFIX: `keep-crash:${Date.now()}:`,
      DIR: dir,
      HOLD_SECONDS: String(HOLD_SECONDS),
      STALE_SECONDS: '1',
    };
    const cookie = 'user=crash-carol';
    let proxy = await startChild(env);
    children.push(proxy.process);
    const login = await fetch(proxy.url + '/mediakit/session', { method: 'POST', headers: { cookie } });
    assert.equal(login.status, 200);
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const auth = { authorization: `Bearer ${token}` };
    const used = async () => {
      const r = await fetch(proxy.url + '/mediakit/session', { headers: auth });
      return ((await r.json()) as { data: { results: { used_bytes: number } } }).data.results.used_bytes;
    };

    // One image kept whole: it must stay kept and counted through all that follows.
    const png = await makeImage({ width: 40, height: 40 });
    const first = await fetch(proxy.url + '/mediakit/results', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'image/png', 'idempotency-key': 'kept-1' },
      body: png as BodyInit,
    });
    assert.equal(first.status, 201);
    const kept = ((await first.json()) as { data: { url: string } }).data;
    assert.equal(await used(), png.byteLength);

    // A 250,000-byte image of which 100,000 bytes arrive: the keep is writing when the proxy dies.
    const declared = 250_000;
    const body = new Uint8Array(100_000);
    body.set(png.slice(0, 64));
    const u = new URL(proxy.url);
    const req: ClientRequest = httpRequest({
      host: u.hostname,
      port: u.port,
      method: 'POST',
      path: '/mediakit/results',
      headers: { ...auth, 'content-type': 'image/png', 'idempotency-key': 'crash-1', 'content-length': declared },
    });
    req.on('error', () => {});
    req.write(body);
    await until(
      () => partsIn(dir).some((p) => statSync(p).size >= 50_000),
      5000,
      'the keep to write its temporary file',
    );
    assert.equal(await used(), png.byteLength + declared, 'the keep holds its declared size');
    // The keep renews its hold while it runs: it outlives the hold's time to live.
    await sleep(HOLD_SECONDS * 1000 + 800);
    assert.equal(await used(), png.byteLength + declared, 'a live keep keeps its hold');

    proxy.process.kill('SIGKILL');
    await new Promise((r) => proxy.process.once('exit', r));
    req.destroy();
    assert.equal(partsIn(dir).length, 1, 'the killed keep left its temporary file');

    // After the hold's time to live (and the temporary file's staleness), a restarted proxy.
    await sleep(HOLD_SECONDS * 1000 + 800);
    proxy = await startChild(env);
    children.push(proxy.process);
    assert.equal(await used(), png.byteLength, 'the dead keep holds no quota');
    // The store's first use sweeps the stale temporary file; the kept image stays.
    const served = await fetch(proxy.url + kept.url);
    assert.equal(served.status, 200);
    assert.deepEqual(new Uint8Array(await served.arrayBuffer()), png);
    await until(() => partsIn(dir).length === 0, 5000, 'the stale .part file to be swept');
    // The freed quota is usable: the same image kept again, whole.
    const again = await fetch(proxy.url + '/mediakit/results', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'image/png', 'idempotency-key': 'crash-1' },
      body: png as BodyInit,
    });
    assert.equal(again.status, 201, await again.clone().text());
    assert.equal(await used(), 2 * png.byteLength);
    proxy.process.kill('SIGKILL');
  });

  it('expires a pending hold set with a time to live, and never an entry set without one (memory and Redis)', async () => {
    const client = await createClient({ url: redis.url }).connect();
    try {
      const stores: [string, ProxyStore][] = [
        ['memory', new MemoryStore()],
        ['redis', new RedisStore(client, { prefix: `keep-ttl:${Date.now()}:` })],
      ];
      for (const [name, store] of stores) {
        const ledger = 'storage';
        assert.deepEqual(await store.holdBytes!(ledger, 'kept', 100, 1000), { ok: true, used: 100 }, name);
        assert.deepEqual(await store.holdBytes!(ledger, 'pending:a', 400, 1000, undefined, 0.3), {
          ok: true,
          used: 500,
        });
        assert.deepEqual(await store.holdBytes!(ledger, 'pending:b', 300, 1000, undefined, 0.3), {
          ok: true,
          used: 800,
        });
        // Renewed before it expires: it stays; moved into a kept entry: it never expires.
        await sleep(150);
        assert.deepEqual((await store.holdBytes!(ledger, 'pending:a', 400, 1000, undefined, 0.3)).used, 800);
        assert.deepEqual(await store.holdBytes!(ledger, 'b', 300, Number.MAX_SAFE_INTEGER, 'pending:b'), {
          ok: true,
          used: 800,
        });
        await sleep(200);
        assert.equal(await store.bytesUsed!(ledger), 800, `${name}: renewed and moved holds stay`);
        await sleep(300);
        assert.equal(await store.bytesUsed!(ledger), 400, `${name}: the pending hold nobody renewed expired`);
        assert.deepEqual(
          await store.holdBytes!(ledger, 'pending:c', 600, 1000, undefined, 0.3),
          { ok: true, used: 1000 },
          `${name}: its bytes are free again`,
        );
        assert.equal(await store.dropBytes!(ledger, 'pending:c'), 400);
      }
    } finally {
      await client.quit();
    }
  });
});
