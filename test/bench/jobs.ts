/**
 * The job engine's traffic, measured in real Chromium against the dev stack on Vite (sandbox clock
 * x10, so a 2-second walkthrough reconstructs in ~22 s and a standard 3D job in ~6 s), with a
 * baseline in the same run: a naive poller that asks every second from every tab.
 *   1. Requests per completed job, per kind: session + create + polls (+ nothing else).
 *   2. Poll traffic while 1 and 4 tabs of one browser watch one 3D job.
 */
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createServer, type Plugin } from 'vite';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/chromium.mjs';
import { mediakitDev } from '../../src/dev/index.js';
import { makeVideo } from '../fixtures/media.js';

type Mk = {
  create(kind: string): Promise<string>;
  watch(id: string): Promise<string>;
  resumeAll(): Promise<string[]>;
  createNaive(kind: string): Promise<string>;
  pollNaive(kind: string, handle: string, ms: number): Promise<string>;
  headshots(): Promise<number>;
  imageTool(): Promise<number>;
};
declare const mk: Mk;

const SPEED = 10;
const NAIVE_INTERVAL_MS = 1000;

function fixtures(): Plugin {
  return {
    name: 'bench-fixtures',
    configureServer(server) {
      server.middlewares.use('/__bench/video.mp4', (_req, res) => {
        void makeVideo({ seconds: 2, width: 320, height: 240 }).then((bytes) =>
          res.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.from(bytes)),
        );
      });
    },
  };
}

/** Counts a page's (or context's) requests to the proxy by kind. */
function counter(target: Page | BrowserContext) {
  const n = { session: 0, create: 0, poll: 0, other: 0 };
  target.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (!path.startsWith('/mediakit/')) return;
    if (path === '/mediakit/session') n.session++;
    else if (r.method() === 'POST') n.create++;
    else if (/\/jobs\/[^/]+$/.test(path)) n.poll++;
    else n.other++;
  });
  return n;
}

export async function jobsBench(): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const server = await createServer({
    configFile: false,
    root,
    logLevel: 'error',
    server: { port: 0, host: '127.0.0.1' },
    plugins: [mediakitDev({ sandbox: { speed: SPEED }, budget: 1_000_000 }), fixtures()],
  });
  await server.listen();
  const url = `http://127.0.0.1:${(server.httpServer!.address() as AddressInfo).port}/test/bench/jobs-page.html`;
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  const open = async (ctx?: BrowserContext) => {
    const context = ctx ?? (await browser.newContext());
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => 'mk' in window);
    return { context, page };
  };
  try {
    // 1. Requests per completed job: engine and naive side by side, each in its own browser.
    const rows: Record<string, string | number>[] = [];
    for (const kind of ['video', 'model'] as const) {
      const engine = await open();
      const naive = await open();
      const e = counter(engine.page);
      const b = counter(naive.page);
      const t0 = performance.now();
      await Promise.all([
        engine.page.evaluate(async (k) => mk.watch(await mk.create(k)), kind),
        naive.page.evaluate(
          async ([k, ms]) => mk.pollNaive(k as string, await mk.createNaive(k as string), ms as number),
          [kind, NAIVE_INTERVAL_MS] as const,
        ),
      ]);
      const seconds = ((performance.now() - t0) / 1000).toFixed(1);
      const total = (n: typeof e) => n.session + n.create + n.poll + n.other;
      rows.push({
        job: `${kind} (~${seconds} s)`,
        poller: `baseline: every ${NAIVE_INTERVAL_MS / 1000} s`,
        session: b.session,
        create: b.create,
        polls: b.poll,
        'requests/job': total(b),
        'vs baseline': '1.00x',
      });
      rows.push({
        job: `${kind} (~${seconds} s)`,
        poller: 'JobPoller',
        session: e.session,
        create: e.create,
        polls: e.poll,
        'requests/job': total(e),
        'vs baseline': (total(e) / total(b)).toFixed(2) + 'x',
      });
      await engine.context.close();
      await naive.context.close();
    }
    for (const kind of ['headshots', 'imageTool'] as const) {
      const { context, page } = await open();
      const n = counter(page);
      await page.evaluate((k) => (k === 'headshots' ? mk.headshots() : mk.imageTool()), kind);
      rows.push({
        job: kind,
        poller: '(synchronous)',
        session: n.session,
        create: n.create,
        polls: n.poll,
        'requests/job': n.session + n.create + n.poll + n.other,
        'vs baseline': '-',
      });
      await context.close();
    }
    console.log(
      `\nRequests per completed job (sandbox clock x${SPEED}; JobPoller: video every 3 s backing off to 30 s, 3D every 3 s)`,
    );
    console.table(rows);

    // 2. Tabs: the first tab creates a job; the others open the page and adopt it from IndexedDB.
    const tabRows: Record<string, string | number>[] = [];
    for (const tabs of [1, 4]) {
      for (const mode of ['naive', 'engine'] as const) {
        const first = await open();
        const n = counter(first.context);
        const pages = [first.page];
        for (let i = 1; i < tabs; i++) pages.push((await open(first.context)).page);
        const t0 = performance.now();
        if (mode === 'engine') {
          await first.page.evaluate(() => mk.create('model'));
          await Promise.all(pages.map((p) => p.evaluate(() => mk.resumeAll())));
        } else {
          const handle = await first.page.evaluate(() => mk.createNaive('model'));
          await Promise.all(
            pages.map((p) =>
              p.evaluate(([h, ms]) => mk.pollNaive('model', h as string, ms as number), [
                handle,
                NAIVE_INTERVAL_MS,
              ] as const),
            ),
          );
        }
        const minutes = (performance.now() - t0) / 60_000;
        tabRows.push({
          tabs,
          poller:
            mode === 'engine'
              ? 'JobPoller (one tab polls, the rest listen)'
              : `baseline: each tab every ${NAIVE_INTERVAL_MS / 1000} s`,
          polls: n.poll,
          'polls/min': Math.round(n.poll / minutes),
        });
        await first.context.close();
      }
    }
    const base = tabRows.find((r) => r.tabs === 1 && String(r.poller).startsWith('JobPoller'))!;
    for (const r of tabRows)
      r['vs 1 tab (JobPoller)'] = (Number(r['polls/min']) / Number(base['polls/min'])).toFixed(2) + 'x';
    console.log('\nPoll traffic while tabs of one browser watch one 3D job (goal: 4 tabs = 1 tab)');
    console.table(tabRows);
  } finally {
    await browser.close();
    await server.close();
  }
}
