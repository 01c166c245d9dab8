/**
 * A client that hangs up never leaves a request, a hold or a temp file behind, with the sandbox
 * in process behind the proxy (what `npm start` runs). Over real HTTP: raw sockets send a whole
 * video and close before reading the answer.
 *
 * The sandbox spools uploads under os.tmpdir(); this file points TMPDIR at a folder of its own
 * (node runs each test file in its own process), so other tests' uploads never count here.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProxy, toNodeHandler } from '../../src/proxy/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cookieAuthorize, SECRET } from './harness.js';
import { until } from './net.js';

const CREDITS = 100_000;
const CLIENTS = 10;

let spoolRoot: string;
const realTmp = tmpdir();

before(async () => {
  spoolRoot = await mkdtemp(join(realTmp, 'mediakit-hangup-test-'));
  process.env['TMPDIR'] = spoolRoot;
});
after(async () => {
  process.env['TMPDIR'] = realTmp;
  await rm(spoolRoot, { recursive: true, force: true });
});

const spoolFolders = async () => (await readdir(spoolRoot)).filter((n) => n.startsWith('mediakit-upload-'));

interface DevLike {
  sandbox: Sandbox;
  url: string;
  /** The sandbox account's balance (its ledger, read with one of its keys). */
  balance(): Promise<number>;
  /** Proxy calls begun, and those whose handler promise has not settled. */
  started(): number;
  inFlight(): number;
  close(): Promise<void>;
}

/** The proxy with the sandbox in process, as src/dev/stack.ts mounts them, on a real port. */
async function devLike(): Promise<DevLike> {
  const sandbox = createSandbox({
    speed: 1,
    artifacts: { turntableFrames: 8, turntableSize: 96, sceneColumns: 16, sceneFrames: 4 },
  });
  const created = await sandbox.fetch(
    new Request('http://sandbox/__sandbox/accounts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ credits: CREDITS }),
    }),
  );
  const { keys, account_id } = (await created.json()) as { keys: Record<string, string>; account_id: string };
  const proxy = createProxy({
    upstream: (request) => sandbox.fetch(request),
    keys,
    secret: SECRET,
    authorize: cookieAuthorize,
    log: () => {},
    rateLimits: { create: { limit: 1000, windowSeconds: 60 } },
  });
  let pending = 0;
  let started = 0;
  const counted = {
    basePath: proxy.basePath,
    fetch: (request: Request) => {
      started++;
      pending++;
      return proxy.fetch(request).finally(() => pending--);
    },
  };
  const handler = toNodeHandler(counted);
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    sandbox,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async balance() {
      const r = await sandbox.fetch(
        new Request(`http://sandbox/__sandbox/accounts/${account_id}/ledger`, {
          headers: { authorization: `Bearer ${keys['video']}` },
        }),
      );
      if (!r.ok) throw new Error(`ledger ${r.status}: ${await r.text()}`);
      return ((await r.json()) as { balance: number }).balance;
    },
    started: () => started,
    inFlight: () => pending,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Writes a whole request on a raw socket, then destroys the socket without reading the answer. */
function sendAndHangUp(base: string, head: string, body: Buffer): Promise<void> {
  const u = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(u.port), u.hostname, () => {
      socket.write(Buffer.concat([Buffer.from(head), body]), () => {
        socket.destroy();
        resolve();
      });
    });
    socket.on('error', () => resolve());
  });
}

describe('a client that hangs up after sending a whole video', () => {
  let video: Buffer;
  before(async () => {
    video = await readFile(new URL('../../demo/media/walkthrough.mp4', import.meta.url));
  });

  it('leaves no request pending, budget equal to what the sandbox charged, and no spool folder', async () => {
    const s = await devLike();
    try {
      const cookie = 'user=hangup; budget=1000';
      const session = await fetch(`${s.url}/mediakit/session`, { method: 'POST', headers: { cookie } });
      const token = ((await session.json()) as { data: { token: string } }).data.token;
      const boundary = 'hangupboundary7';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="video_file"; filename="walkthrough.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
        ),
        video,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const head =
        `POST /mediakit/api/v1/video-to-3d/jobs HTTP/1.1\r\nHost: ${new URL(s.url).host}\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
      await Promise.all(Array.from({ length: CLIENTS }, () => sendAndHangUp(s.url, head, body)));

      await until(() => s.started() === CLIENTS + 1, 10_000, 'the proxy to receive every upload');
      await until(() => s.inFlight() === 0, 10_000, 'every proxy call to settle').catch(() => undefined);
      assert.equal(s.inFlight(), 0, `${s.inFlight()} of ${CLIENTS} calls are still pending after the clients hung up`);

      const view = await fetch(`${s.url}/mediakit/session`, { headers: { authorization: `Bearer ${token}` } });
      const used = ((await view.json()) as { data: { budget: { used: number } } }).data.budget.used;
      assert.equal(used, CREDITS - (await s.balance()), 'the budget counts exactly what the sandbox charged');

      // Jobs the sandbox accepted keep their upload until the scene is built, then delete it.
      await s.sandbox.idle();
      await until(async () => (await spoolFolders()).length === 0, 5000, 'the spool to empty').catch(() => undefined);
      assert.deepEqual(await spoolFolders(), [], 'no upload is left on disk');
    } finally {
      await s.close();
      await s.sandbox.idle();
    }
  });
});

describe('the sandbox spool at start', () => {
  it('removes upload folders older than a day, and keeps newer ones', async () => {
    const old = join(spoolRoot, 'mediakit-upload-stale1');
    const fresh = join(spoolRoot, 'mediakit-upload-fresh1');
    const other = join(spoolRoot, 'someone-elses-folder');
    for (const dir of [old, fresh, other]) {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'part'), 'x');
    }
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    for (const dir of [old, other]) {
      await utimes(join(dir, 'part'), twoDaysAgo, twoDaysAgo);
      await utimes(dir, twoDaysAgo, twoDaysAgo);
    }
    const sandbox = createSandbox({ speed: 1 });
    await until(async () => !(await exists(old)), 5000, 'the stale folder to go').catch(() => undefined);
    assert.equal(await exists(old), false, 'a spool folder older than a day is removed');
    assert.equal(await exists(fresh), true, 'a recent one (an upload in progress) is kept');
    assert.equal(await exists(other), true, "folders that are not the sandbox's are left alone");
    await sandbox.idle();
  });
});

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
