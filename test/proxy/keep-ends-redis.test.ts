/**
 * Every keep ends (issue 31.3), over real HTTP from a raw socket client that sends the body in
 * tiny pieces (a network can split a body anywhere), on the memory store and on Redis:
 * - an image whose first piece is 1-11 bytes (less than the 12 bytes the image check needs) is
 *   kept; a retry with the same Idempotency-Key answers the same result;
 * - a keep that stalls after a tiny first piece is answered 408 within the idle deadline, leaves
 *   no `.part` file and holds no quota; a JSON keep that stalls, or trickles past the body
 *   deadline, is answered 408 too;
 * - a client that goes away mid-keep leaves nothing behind.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { fileResultStore, MemoryStore, RedisStore, type ProxyStore } from '../../src/proxy/index.js';
import { makeImage } from '../fixtures/media.js';
import { startSandbox, type Harness } from '../sandbox/harness.js';
import { bearer, startStack, type Stack } from './harness.js';
import { sessionView } from './keep-suite.js';
import { sleep, until } from './net.js';
import { startRedis } from './redis-server.js';

const IDLE_MS = 800;
const BODY_MS = 2500;

/** `.part` files left under `dir`. */
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

interface RawAnswer {
  status: number;
  body: string;
  ms: number;
}

/** A chunked HTTP/1.1 body, decoded. */
function unchunk(raw: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const line = raw.indexOf('\r\n', at);
    if (line < 0) return out;
    const size = parseInt(raw.slice(at, line), 16);
    if (!(size > 0)) return out;
    out += raw.slice(line + 2, line + 2 + size);
    at = line + 2 + size + 2;
  }
}

/**
 * A POST over a raw socket: the head, then each piece of `pieces` with `pauseMs` between them
 * (`stall`: the last piece is never followed by the rest, and the socket stays open). Resolves
 * with the answer, or status 0 when none came within `waitMs`.
 */
function rawPost(
  url: string,
  path: string,
  headers: Record<string, string>,
  pieces: Uint8Array[],
  pauseMs: number,
  waitMs = 8000,
): { answer: Promise<RawAnswer>; socket: Socket } {
  const u = new URL(url);
  const socket = connect(Number(u.port), u.hostname);
  socket.setNoDelay(true);
  const started = Date.now();
  const answer = new Promise<RawAnswer>((resolve) => {
    let text = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const end = text.indexOf('\r\n\r\n');
      let body = text.slice(end + 4);
      if (/\r\ntransfer-encoding: *chunked/i.test(text.slice(0, end))) body = unchunk(body);
      resolve({ status, body, ms: Date.now() - started });
      socket.destroy();
    };
    const timer = setTimeout(finish, waitMs);
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => {
      text += c;
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
      if (length !== undefined && text.length - end - 4 >= Number(length)) finish();
      else if (text.endsWith('\r\n0\r\n\r\n')) finish();
    });
    socket.on('close', finish);
    socket.on('error', finish);
  });
  const head =
    `POST ${path} HTTP/1.1\r\nhost: ${u.host}\r\nconnection: close\r\n` +
    Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') +
    '\r\n';
  void (async () => {
    socket.write(head);
    for (const [i, piece] of pieces.entries()) {
      if (i > 0) await sleep(pauseMs);
      if (socket.destroyed) return;
      socket.write(piece);
    }
  })();
  return { answer, socket };
}

const STORES: {
  name: string;
  open(): Promise<{ store: ProxyStore; fields(): Promise<string[]>; close(): Promise<void> }>;
}[] = [
  {
    name: 'memory store',
    async open() {
      return { store: new MemoryStore(), fields: async () => [], close: async () => {} };
    },
  },
  {
    name: 'Redis store',
    async open() {
      const redis = await startRedis();
      const client = await createClient({ url: redis.url }).connect();
      const prefix = `keep-ends:${Date.now()}:${Math.random().toString(36).slice(2)}:`;
      return {
        store: new RedisStore(client, { prefix }),
        /** Every field of every hash under the prefix: a pending hold would show as `b:pending:…`. */
        async fields() {
          const out: string[] = [];
          for (const key of await client.keys(prefix + '*'))
            if ((await client.type(key)) === 'hash') out.push(...(await client.hKeys(key)));
          return out;
        },
        async close() {
          await client.quit();
          (redis.child as ChildProcess | undefined)?.kill();
        },
      };
    },
  },
];

for (const kind of STORES) {
  describe(`every keep ends (${kind.name})`, () => {
    let sandbox: Harness;
    let s: Stack;
    let dir: string;
    let store: Awaited<ReturnType<(typeof kind)['open']>>;
    let png: Uint8Array;

    before(async () => {
      sandbox = await startSandbox({ speed: 1 });
      store = await kind.open();
      dir = mkdtempSync(join(tmpdir(), 'mediakit-keep-ends-'));
      s = await startStack({
        sandboxHarness: sandbox,
        proxy: {
          store: store.store,
          uploadIdleTimeoutMs: IDLE_MS,
          bodyTimeoutMs: BODY_MS,
          results: { store: fileResultStore({ dir }), maxImageBytes: 200_000 },
        },
      });
      png = await makeImage({ width: 48, height: 48 });
    });
    after(async () => {
      await s.close();
      await sandbox.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const imageHeaders = (token: string, key: string, length: number) =>
      bearer(token, { 'content-type': 'image/png', 'idempotency-key': key, 'content-length': String(length) });

    const noPendingHold = async () =>
      assert.deepEqual(
        (await store.fields()).filter((f) => f.includes('pending')),
        [],
        'no pending hold is left in the store',
      );

    it('keeps an image whose first piece is 1 to 11 bytes, and a retry with the same Idempotency-Key answers it', async () => {
      const token = await s.login('tiny-first');
      const keeps = Array.from({ length: 11 }, (_, i) => i + 1).map((n) =>
        rawPost(
          s.url,
          '/mediakit/results',
          imageHeaders(token, `tiny-${n}`, png.byteLength),
          [png.slice(0, n), png.slice(n)],
          150,
        ),
      );
      const answers = await Promise.all(keeps.map((k) => k.answer));
      for (const [i, a] of answers.entries()) assert.equal(a.status, 201, `first piece of ${i + 1} bytes: ${a.body}`);
      const kept = answers.map((a) => (JSON.parse(a.body) as { data: { id: string; bytes: number } }).data);
      assert.ok(kept.every((k) => k.bytes === png.byteLength));
      assert.deepEqual(partsIn(dir), [], 'no .part file remains');
      assert.equal((await sessionView(s, token)).results.used_bytes, 11 * png.byteLength);
      await noPendingHold();

      // The same key again, split the same way: the same result, nothing stored or counted twice.
      const retries = await Promise.all(
        [1, 6, 11].map(
          (n) =>
            rawPost(
              s.url,
              '/mediakit/results',
              imageHeaders(token, `tiny-${n}`, png.byteLength),
              [png.slice(0, n), png.slice(n)],
              150,
            ).answer,
        ),
      );
      for (const [i, r] of retries.entries()) {
        assert.equal(r.status, 200, r.body);
        assert.equal((JSON.parse(r.body) as { data: { id: string } }).data.id, kept[[0, 5, 10][i]!]!.id);
      }
      const served = await s.call(`/mediakit/results/${kept[0]!.id}/image.png`);
      assert.deepEqual(new Uint8Array(await served.arrayBuffer()), png);
      assert.equal((await sessionView(s, token)).results.used_bytes, 11 * png.byteLength);
    });

    it('answers a keep that stalls after a tiny first piece within the idle deadline, and leaves nothing held', async () => {
      const token = await s.login('tiny-stall');
      const stalls = [1, 5, 11].map((n) =>
        rawPost(s.url, '/mediakit/results', imageHeaders(token, `stall-${n}`, png.byteLength), [png.slice(0, n)], 0),
      );
      const answers = await Promise.all(stalls.map((k) => k.answer));
      for (const a of answers) {
        assert.equal(a.status, 408, a.body);
        assert.match(a.body, /upload_timeout/);
        assert.ok(a.ms < IDLE_MS + 1500, `answered after ${a.ms} ms`);
      }
      await until(() => partsIn(dir).length === 0, 3000, 'the .part files to go');
      assert.equal((await sessionView(s, token)).results.used_bytes, 0, 'the quota is free');
      await noPendingHold();

      // A retry with the same key, sent whole, keeps it.
      const retry = await rawPost(
        s.url,
        '/mediakit/results',
        imageHeaders(token, 'stall-5', png.byteLength),
        [png.slice(0, 5), png.slice(5)],
        100,
      ).answer;
      assert.equal(retry.status, 201, retry.body);
      assert.equal((await sessionView(s, token)).results.used_bytes, png.byteLength);
    });

    it('answers a JSON keep that stalls within the idle deadline, and one that trickles past the body deadline', async () => {
      const token = await s.login('json-stall');
      const body = new TextEncoder().encode(JSON.stringify({ job: 'A'.repeat(60), file: 'ply' }));
      const headers = bearer(token, { 'content-type': 'application/json', 'content-length': String(body.byteLength) });
      const stalled = await rawPost(s.url, '/mediakit/results', headers, [body.slice(0, 3)], 0).answer;
      assert.equal(stalled.status, 408, stalled.body);
      assert.match(stalled.body, /upload_timeout/);
      assert.ok(stalled.ms < IDLE_MS + 1500, `answered after ${stalled.ms} ms`);

      // One byte every 200 ms never trips the idle deadline; the body deadline ends it.
      const pieces = Array.from(body, (b) => new Uint8Array([b]));
      const trickled = await rawPost(s.url, '/mediakit/results', headers, pieces, 200).answer;
      assert.equal(trickled.status, 408, trickled.body);
      assert.match(trickled.body, /upload_timeout/);
      assert.ok(trickled.ms < BODY_MS + 1500, `answered after ${trickled.ms} ms`);
    });

    it('leaves nothing behind when the client goes away after a tiny first piece', async () => {
      const token = await s.login('tiny-gone');
      const parts = partsIn(dir).length;
      const gone = rawPost(
        s.url,
        '/mediakit/results',
        imageHeaders(token, 'gone-1', png.byteLength),
        [png.slice(0, 4)],
        0,
      );
      await until(() => partsIn(dir).length === parts + 1, 3000, 'the keep to start writing');
      gone.socket.destroy();
      await until(() => partsIn(dir).length === parts, IDLE_MS + 1500, 'the .part file to go');
      await until(
        async () => (await sessionView(s, token)).results.used_bytes === 0,
        IDLE_MS + 1500,
        'the quota to be free',
      );
      await noPendingHold();
      const retry = await rawPost(
        s.url,
        '/mediakit/results',
        imageHeaders(token, 'gone-1', png.byteLength),
        [png.slice(0, 4), png.slice(4)],
        100,
      ).answer;
      assert.equal(retry.status, 201, retry.body);
    });
  });
}
