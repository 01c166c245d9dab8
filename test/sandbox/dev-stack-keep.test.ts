/**
 * The dev stack keeps results (issue 21): in a temporary folder by default (tests, and nothing left
 * behind), and in `resultsDir` for `npm start`, where a kept result and its owner outlive a restart
 * of the stack (the dev secret is kept beside the results).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDevStack, type DevStack } from '../../src/dev/index.js';
import { makeImage } from '../fixtures/media.js';

async function serve(stack: DevStack): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => stack.middleware(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

async function session(url: string, cookie?: string): Promise<{ token: string; cookie: string; data: any }> {
  const r = await fetch(`${url}/mediakit/session`, { method: 'POST', headers: cookie ? { cookie } : {} });
  assert.equal(r.status, 200);
  const data = ((await r.json()) as { data: any }).data;
  return { token: data.token, cookie: cookie ?? r.headers.get('set-cookie')!.split(';')[0]!, data };
}

describe('dev stack: kept results', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('keeps results in a temporary folder by default, and none with resultsDir: false', async () => {
    const stack = createDevStack({ env: {}, sandbox: { speed: 1 } });
    assert.ok(stack.resultsDir!.startsWith(tmpdir()));
    const { url, server } = await serve(stack);
    try {
      const s = await session(url);
      assert.deepEqual(s.data.results, { quota_bytes: 1024 ** 3, used_bytes: 0 });
    } finally {
      await stop(server);
    }
    const none = createDevStack({ env: {}, sandbox: { speed: 1 }, resultsDir: false });
    assert.equal(none.resultsDir, undefined);
  });

  it('serves a kept result, and lets its owner delete it, after the stack restarts on the same resultsDir', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'mediakit-devkeep-'));
    dirs.push(parent);
    const dir = join(parent, 'results');
    const png = await makeImage({ width: 40, height: 40 });
    const first = await serve(createDevStack({ env: {}, sandbox: { speed: 1 }, resultsDir: dir }));
    let kept: { id: string; url: string };
    let cookie: string;
    try {
      const s = await session(first.url);
      cookie = s.cookie;
      const r = await fetch(`${first.url}/mediakit/results`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.token}`, 'content-type': 'image/png', 'idempotency-key': 'k1' },
        body: png as Uint8Array<ArrayBuffer>,
      });
      assert.equal(r.status, 201);
      kept = ((await r.json()) as { data: { id: string; url: string } }).data;
    } finally {
      await stop(first.server);
    }
    assert.equal(statSync(join(dir, '.secret')).mode & 0o077, 0, 'the dev secret is readable by its owner only');

    const second = await serve(createDevStack({ env: {}, sandbox: { speed: 1 }, resultsDir: dir }));
    try {
      const served = await fetch(second.url + kept.url);
      assert.equal(served.status, 200);
      assert.deepEqual(new Uint8Array(await served.arrayBuffer()), png);
      // The same browser (its cookie) is the same subject after the restart: it may delete.
      const s = await session(second.url, cookie);
      const gone = await fetch(`${second.url}/mediakit/results/${kept.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${s.token}` },
      });
      assert.equal(gone.status, 200);
      assert.equal((await fetch(second.url + kept.url)).status, 404);
      assert.ok(existsSync(join(dir, '.secret')));
    } finally {
      await stop(second.server);
    }
  });
});
