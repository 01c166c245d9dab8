/**
 * An upload cut by a reload is sent again, whenever the reloaded page mounts its element: in real
 * Chromium (a profile on disk, so the video kept in IndexedDB is a real blob file), over real HTTP
 * through a relay that paces what the browser sends (DevTools upload throttling does not slow an
 * XHR body here), into the dev stack's proxy and sandbox. Each run chooses a video, confirms,
 * reloads while the server has only part of it, and the reloaded page mounts the element as soon
 * as its script runs; the run passes when that page says `resending`, the job gets its handle and
 * the sandbox charged exactly once. Repeated, because the failure this guards against was a race
 * (the reloaded page read the device's jobs while the old page still held the job's creation
 * lock, decided someone else was sending it, and never looked again).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/chromium.mjs';
import { createDevStack, type DevStack } from '../../src/dev/index.js';
import { makeVideo } from '../fixtures/media.js';

/** The video's size, and how fast the relay lets the browser's bytes reach the server. */
const VIDEO_MB = Number(process.env['RELOAD_MB'] ?? 4);
const BYTES_PER_SECOND = Number(process.env['RELOAD_MB_PER_S'] ?? 2) * 1024 * 1024;
const RUNS = Number(process.env['RELOAD_RUNS'] ?? 10);

declare const page: {
  el: { status: string; job?: { handle?: string; error?: { code: string } } } | undefined;
  statuses: string[];
  errors: { reason: string | undefined; text: string; buttons: string[] }[];
  list(): Promise<{ status: string; request?: unknown; handle?: string }[]>;
  forgetAll(): Promise<void>;
  choose(mb: number): Promise<void>;
};

/**
 * A TCP relay in front of `port`: the server's answers pass at once; what the browser sends is
 * read as it comes and passed on at `bytesPerSecond` per connection. A connection the browser
 * closes (a reload) is cut at once, with what it had not passed on yet dropped, as a real network
 * drops a cut upload: the server never sees that body whole.
 */
function pacingRelay(port: number, bytesPerSecond: number): { server: TcpServer; forwarded: () => number } {
  let forwarded = 0;
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    const queue: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    let ended = false;
    // Writes to a socket the other side has cut are dropped, never thrown (a write callback takes the error).
    const ignore = () => undefined;
    const pump = () => {
      timer = undefined;
      if (upstream.destroyed) return;
      const chunk = queue.shift();
      if (!chunk) {
        if (ended) upstream.end();
        return;
      }
      // At most 16 KiB at a time, so a big write is spread out too.
      const part = chunk.subarray(0, 16 * 1024);
      if (part.length < chunk.length) queue.unshift(chunk.subarray(part.length));
      upstream.write(part, ignore);
      forwarded += part.length;
      timer = setTimeout(pump, (part.length / bytesPerSecond) * 1000);
    };
    client.on('data', (chunk: Buffer) => {
      queue.push(chunk);
      if (!timer) pump();
    });
    client.on('end', () => {
      ended = true;
      if (!timer) pump();
    });
    const cut = () => {
      clearTimeout(timer);
      queue.length = 0;
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', cut);
    client.on('error', cut);
    upstream.on('close', cut);
    upstream.on('error', cut);
    upstream.on('data', (chunk: Buffer) => {
      if (!client.destroyed) client.write(chunk, ignore);
    });
    upstream.on('end', () => {
      if (!client.destroyed) client.end();
    });
  });
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  return { server, forwarded: () => forwarded };
}

const listen = (server: Server | TcpServer) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

async function charges(stack: DevStack): Promise<number> {
  const r = await fetch(`${origin}/sandbox/__dev/ledger`, { headers: { 'x-mediakit-dev-token': stack.devToken } });
  const { entries } = (await r.json()) as { entries: { type: string; endpoint: string }[] };
  return entries.filter((e) => e.type === 'charge' && e.endpoint === 'createVideoJob').length;
}

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined | false>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let stack: DevStack;
let server: Server;
let relay: ReturnType<typeof pacingRelay>;
let origin = '';
let url = '';
let context: BrowserContext;
let profile = '';

before(async () => {
  const [bundle, video] = await Promise.all([
    build({
      entryPoints: [fileURLToPath(new URL('./uploader-reload-page.ts', import.meta.url))],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    }).then((r) => r.outputFiles[0]!.text),
    makeVideo({ seconds: 2, width: 160, height: 120 }),
  ]);
  stack = createDevStack({ env: {}, sandbox: { speed: 1 }, budget: 1_000_000, resultsDir: false });
  server = createServer((req, res) => {
    stack.grantDevCookie(req, res);
    stack.middleware(req, res, () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      else if (path === '/video.mp4') res.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.from(video));
      else if (path === '/')
        res
          .writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' })
          .end(
            '<!doctype html><meta charset="utf-8"><title>reload</title><script type="module" src="/page.js"></script>',
          );
      else if (path === '/blank')
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>blank</title>');
      else res.writeHead(404).end();
    });
  });
  origin = `http://127.0.0.1:${await listen(server)}`;
  relay = pacingRelay(Number(new URL(origin).port), BYTES_PER_SECOND);
  // The page is served through the relay: everything it sends is paced.
  url = `http://127.0.0.1:${await listen(relay.server)}/`;
  profile = mkdtempSync(join(tmpdir(), 'mediakit-reload-profile-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: ensureChromium(), args: CHROMIUM_ARGS });
});

after(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  relay?.server.close();
  server?.closeAllConnections();
  server?.close();
});

interface RunResult {
  resent: boolean;
  charged: number;
  statuses: string[];
  ms: number;
}

/**
 * One run: choose and confirm a video, reload once the server has part of it, and follow the
 * reloaded page. `hold`: a second page of the same site waits for the job's creation lock while
 * the first page uploads, so it gets it the moment the old page lets go, and keeps it this long.
 */
async function run(tab: Page, options: { mountAfter?: number; holdMs?: number } = {}): Promise<RunResult> {
  await tab.goto(options.mountAfter ? `${url}?mountAfter=${options.mountAfter}` : url);
  await tab.waitForFunction(() => typeof page !== 'undefined' && page.el !== undefined);
  await tab.evaluate(() => page.forgetAll());
  const before = await charges(stack);
  // The second page is open before the upload starts: opening it takes longer than the upload has left.
  let holder: Page | undefined;
  if (options.holdMs) {
    holder = await context.newPage();
    await holder.goto(`${url}blank`);
  }
  await tab.evaluate((mb) => void page.choose(mb), VIDEO_MB);
  await until('the upload with its video kept', 20_000, () =>
    tab.evaluate(
      async () => page.el!.status === 'uploading' && (await page.list()).some((r) => r.request !== undefined),
    ),
  );
  const start = relay.forwarded();
  await until('part of the upload at the server', 20_000, async () => relay.forwarded() - start > 256 * 1024);
  if (holder) {
    await holder.evaluate(async (ms) => {
      const held = (await navigator.locks.query()).held?.find((l) => l.name?.includes(':create:'));
      if (!held?.name) throw new Error('no creation lock is held');
      const w = window as unknown as { got?: number; released?: number };
      void navigator.locks.request(held.name, async () => {
        w.got = Date.now();
        await new Promise((r) => setTimeout(r, ms));
        w.released = Date.now();
      });
    }, options.holdMs);
  }
  const t0 = Date.now();
  assert.ok(relay.forwarded() - start < VIDEO_MB * 1024 * 1024, 'reloaded mid-upload');
  await tab.reload({ waitUntil: 'commit' });
  let resent = true;
  try {
    await until('the resent job', 30_000, () =>
      tab.evaluate(() => typeof page !== 'undefined' && page.el?.job?.handle !== undefined),
    );
  } catch {
    resent = false;
  }
  const ms = Date.now() - t0;
  if (holder) {
    const times = await holder.evaluate(() => {
      const { got, released } = window as unknown as { got?: number; released?: number };
      return { got, released };
    });
    assert.ok(times.got, 'the second page held the lock');
    await holder.close();
  }
  // Time for a second charge to show, were there one.
  await new Promise((r) => setTimeout(r, 300));
  const statuses = await tab.evaluate(() => page.statuses);
  return { resent, charged: (await charges(stack)) - before, statuses, ms };
}

async function repeat(options: { mountAfter?: number; holdMs?: number }): Promise<RunResult[]> {
  const tab = await context.newPage();
  // What the pages say in the console ([mediakit] warnings), shown when a run fails.
  const said: string[] = [];
  tab.on('console', (m) => m.type() !== 'debug' && said.push(`${m.type()}: ${m.text()}`));
  const results: RunResult[] = [];
  for (let i = 0; i < RUNS; i++) {
    said.length = 0;
    const r = await run(tab, options);
    if (!r.resent || r.charged !== 1)
      console.log(`[uploader-reload] run ${i + 1} failed; the page said:\n${said.join('\n')}`);
    results.push(r);
  }
  await tab.evaluate(() => page.forgetAll());
  await tab.close();
  const resent = results.filter((r) => r.resent && r.charged === 1 && r.statuses.includes('resending')).length;
  console.log(
    `[uploader-reload] ${JSON.stringify(options)}: ${resent} of ${RUNS} resent with one charge; ` +
      `reload to job: ${results.map((r) => (r.resent ? `${(r.ms / 1000).toFixed(1)}s` : 'never')).join(' ')}`,
  );
  return results;
}

const check = (results: RunResult[]) => {
  for (const [i, r] of results.entries()) {
    assert.ok(r.resent, `run ${i + 1}: never sent again (statuses: ${r.statuses.join(' > ')})`);
    assert.ok(r.statuses.includes('resending'), `run ${i + 1}: said resending (${r.statuses.join(' > ')})`);
    assert.equal(r.charged, 1, `run ${i + 1}: charged once`);
  }
};

/** Deletes every file under `dir` (the folders stay), as a browser clearing blob files does. */
function deleteFiles(dir: string): number {
  let n = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) n += deleteFiles(path);
    else {
      rmSync(path);
      n++;
    }
  }
  return n;
}

describe('<video-to-3d-uploader>: an upload cut by a reload is always sent again', { timeout: 240_000 }, () => {
  it(`reloaded mid-upload and mounted at once: resent, charged once (${RUNS} runs)`, async () => {
    check(await repeat({}));
  });
  it(`while another page still holds the job's lock for 1 s after the reload: resent once it is released (${RUNS} runs)`, async () => {
    check(await repeat({ holdMs: 1000 }));
  });
  for (const [lang, sentence, button] of [
    [
      'en',
      'The upload was interrupted, and the browser no longer has the copy of the video it kept to send it again. Choose it again.',
      'Choose a video',
    ],
    ['de', 'Der Upload wurde unterbrochen, und der Browser hat die Kopie des Videos', 'Video auswählen'],
  ] as const) {
    it(`when the browser lost the kept video, the reloaded element says so (${lang}) and asks for the file again, charging nothing`, async () => {
      const tab = await context.newPage();
      const address = `${url}?lang=${lang}`;
      await tab.goto(address);
      await tab.waitForFunction(() => typeof page !== 'undefined' && page.el !== undefined);
      await tab.evaluate(() => page.forgetAll());
      const before = await charges(stack);
      await tab.evaluate((mb) => void page.choose(mb), VIDEO_MB);
      await until('the upload with its video kept', 20_000, () =>
        tab.evaluate(
          async () => page.el!.status === 'uploading' && (await page.list()).some((r) => r.request !== undefined),
        ),
      );
      // The page goes away mid-upload; then the browser drops the blob files of this site's
      // IndexedDB (as clearing storage or an eviction under quota pressure does), the record stays.
      await tab.goto(`${url}blank`);
      const root = join(profile, 'Default', 'IndexedDB');
      const port = new URL(url).port;
      const blobs = readdirSync(root).filter((d) => d.includes(`_${port}`) && d.endsWith('.blob'));
      assert.ok(
        blobs.length === 1 && existsSync(join(root, blobs[0]!)),
        `the site's blob folder (${readdirSync(root)})`,
      );
      assert.ok(deleteFiles(join(root, blobs[0]!)) > 0, 'the kept video was a file');
      await tab.goto(address);
      const shown = await until('the element to say so', 20_000, () =>
        tab.evaluate(() =>
          // The error panel is a lazy module: it shows a moment after the status says failed.
          page.el?.status === 'failed' && page.errors.length
            ? { errors: page.errors, statuses: page.statuses, job: page.el.job }
            : undefined,
        ),
      ).catch(async (err: Error) => {
        const now = await tab.evaluate(() => ({ statuses: page.statuses, errors: page.errors }));
        throw new Error(`${err.message}: ${JSON.stringify(now)}`);
      });
      assert.equal(shown.job?.error?.code, 'video_gone');
      const last = shown.errors.at(-1)!;
      assert.ok(last.text.includes(sentence), `says why: ${last.text}`);
      assert.deepEqual(last.buttons, [button]);
      // Kept as failed (not deleted), so any element that reads it later says the same.
      const kept = await tab.evaluate(async () => (await page.list()).map((r) => [r.status, r.request === undefined]));
      assert.deepEqual(kept, [['failed', true]]);
      assert.equal((await charges(stack)) - before, 0, 'nothing charged');
      await tab.evaluate(() => page.forgetAll());
      await tab.close();
    });
  }
});
