/**
 * `npm run bench -- sandbox-browser` (issue 23): the sandbox on its two platforms in one run, on
 * the same inputs and the same requests (sandbox-ops.ts): Node's `createSandbox` in this process
 * and `createBrowserSandbox` in Chromium (bundled by esbuild, as test/sandbox/browser-bridge.ts
 * does), both at their defaults (clock x12). Rounds alternate Node and browser, so load on the
 * machine falls on both alike.
 *   1. A headshot batch (4 variants) from a 960x1280 JPEG selfie, and background removal of a
 *      1600x1200 JPEG photo: median time of `sandbox.fetch` plus reading the answer, where the
 *      sandbox runs (performance.now in the page for the browser), and for the browser also the
 *      time seen from Node with the bytes crossing into and out of the page as base64.
 *   2. Fast 3D jobs (image mode from the photo, text mode): creation to the first poll that
 *      answers succeeded (polls every 50 ms), against the job's timeline at x12; when the
 *      background work (GLB, stats, turntable MP4) ended; and the time to read the turntable MP4
 *      from the succeeded job.
 * Goals: headshot batch and image tool under 1 s in the browser; fast 3D jobs succeed.
 * BENCH_SANDBOX_RUNS sets the timed runs per case (3).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/chromium.mjs';
import { createSandbox } from '../../src/sandbox/index.js';
import { browserBundle } from '../sandbox/browser-bridge.js';
import { modelJobDurationMs } from '../../src/sandbox/jobs.js';
import { headshotBatch, imageTool, modelJob, POLL_MS, type JobBody, type JobTimed, type Timed } from './sandbox-ops.js';
import type { PageBench } from './sandbox-browser-page.js';

declare const bench: PageBench;

const RUNS = Number(process.env['BENCH_SANDBOX_RUNS'] ?? 3);
/** The sandbox's default clock speed (createSandbox and createBrowserSandbox without `speed`). */
const DEFAULT_SPEED = 12;
const GOAL_MS = 1000;

/** Deterministic sensor-like noise (xorshift), so every run and both platforms see the same bytes. */
async function photoLike(svg: string, width: number, height: number, sigma: number): Promise<Uint8Array> {
  const raw = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  let s = 0x9e3779b9;
  for (let i = 0; i < raw.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    const n = (((s >>> 0) % 1000) / 1000 + ((s >>> 10) % 1000) / 1000 - 1) * sigma;
    raw[i] = Math.max(0, Math.min(255, raw[i]! + n));
  }
  return new Uint8Array(
    await sharp(raw, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 88 })
      .toBuffer(),
  );
}

/** A 960x1280 head-and-shoulders selfie (the demo's sample scaled up, with a face, hair and noise). */
function makeSelfie(): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="1280" viewBox="0 0 768 1024">
<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#d9dde3"/><stop offset="1" stop-color="#b8bfc9"/></linearGradient>
<radialGradient id="skin" cx="0.45" cy="0.4"><stop offset="0" stop-color="#e8b894"/><stop offset="1" stop-color="#c98d68"/></radialGradient></defs>
<rect width="768" height="1024" fill="url(#bg)"/>
<path d="M90 1024 C110 800 250 720 384 715 C518 720 658 800 678 1024 Z" fill="#2d3e5c"/>
<rect x="334" y="560" width="100" height="180" fill="#d9a27e"/>
<ellipse cx="384" cy="430" rx="150" ry="190" fill="url(#skin)"/>
<path d="M219 400 C210 250 300 200 384 205 C470 200 560 250 549 400 C530 320 460 290 384 292 C300 290 240 320 219 400 Z" fill="#3b2a20"/>
<ellipse cx="325" cy="420" rx="16" ry="10" fill="#2a1d16"/><ellipse cx="443" cy="420" rx="16" ry="10" fill="#2a1d16"/>
<rect x="297" y="385" width="56" height="8" fill="#2a1d16"/><rect x="415" y="385" width="56" height="8" fill="#2a1d16"/>
<path d="M334 520 Q384 555 434 520" stroke="#8c4a3c" stroke-width="8" fill="none"/></svg>`;
  return photoLike(svg, 960, 1280, 10);
}

/** A 1600x1200 product photo: a mug on a table before a plain wall, with a soft shadow and noise. */
function makePhoto(): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200">
<defs><linearGradient id="wall" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f1efe9"/><stop offset="1" stop-color="#ddd8cf"/></linearGradient>
<linearGradient id="mug" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#1f5f8b"/><stop offset="0.45" stop-color="#3d8fc4"/><stop offset="1" stop-color="#173f5e"/></linearGradient>
<filter id="blur"><feGaussianBlur stdDeviation="18"/></filter></defs>
<rect width="1600" height="1200" fill="url(#wall)"/>
<ellipse cx="800" cy="930" rx="330" ry="45" fill="#000" opacity="0.25" filter="url(#blur)"/>
<path d="M1030 520 C1190 520 1190 780 1030 780" stroke="#1f5f8b" stroke-width="42" fill="none"/>
<path d="M560 380 L1040 380 L1010 900 Q800 950 590 900 Z" fill="url(#mug)"/>
<ellipse cx="800" cy="380" rx="240" ry="40" fill="#143a56"/></svg>`;
  return photoLike(svg, 1600, 1200, 8);
}

function pageBundle(): Promise<string> {
  return browserBundle(fileURLToPath(new URL('./sandbox-browser-page.ts', import.meta.url)));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => Math.round(ms).toLocaleString('en-US');
const list = (xs: number[]) => xs.map(fmt).join(', ');

export async function sandboxBrowserBench(): Promise<void> {
  const started = performance.now();
  const [selfie, photo, code] = await Promise.all([makeSelfie(), makePhoto(), pageBundle()]);
  const server = createServer((req, res) => {
    if (req.url === '/bench.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(code);
    else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>sandbox bench</title><script type="module" src="/bench.js"></script>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  const node = createSandbox();
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => 'bench' in globalThis);
    const b64 = { selfie: Buffer.from(selfie).toString('base64'), photo: Buffer.from(photo).toString('base64') };
    for (const [name, value] of Object.entries(b64))
      await page.evaluate(([n, v]) => bench.setInput(n, v), [name, value] as const);
    const inPage = <T>(p: Promise<T>) =>
      p.then((v) => {
        if (errors.length) throw new Error('the bench page failed: ' + errors.join('; '));
        return v;
      });

    // 1. Synchronous calls: one warm-up on each platform, then RUNS alternating rounds.
    const wire = async (op: 'headshot' | 'imageTools'): Promise<Timed> => {
      const key = await page.evaluate((c) => bench.key(c), op);
      const t = performance.now();
      const r =
        op === 'headshot'
          ? await page.evaluate(([k, s]) => bench.wireHeadshots(k, s), [key, b64.selfie] as const)
          : await page.evaluate(([k, s]) => bench.wireImageTool(k, s), [key, b64.photo] as const);
      const body = Buffer.from(r.body, 'base64');
      if (op === 'headshot') JSON.parse(body.toString('utf8'));
      return { ms: performance.now() - t, detail: `${Math.round(body.byteLength / 1024)} KiB answer` };
    };
    const syncCases = [
      {
        name: 'headshot batch: 4 variants of a 960x1280 JPEG selfie',
        node: () => headshotBatch(node, selfie),
        page: () => inPage(page.evaluate(() => bench.headshotBatch())),
        wire: () => inPage(wire('headshot')),
      },
      {
        name: 'image tool: background removal of a 1600x1200 JPEG',
        node: () => imageTool(node, photo),
        page: () => inPage(page.evaluate(() => bench.imageTool())),
        wire: () => inPage(wire('imageTools')),
      },
    ];
    const syncRows: Record<string, string>[] = [];
    for (const c of syncCases) {
      await c.node();
      await c.page();
      const t: Record<'node' | 'page' | 'wire', Timed[]> = { node: [], page: [], wire: [] };
      for (let i = 0; i < RUNS; i++) {
        t.node.push(await c.node());
        t.page.push(await c.page());
        t.wire.push(await c.wire());
      }
      for (const [platform, key, goal] of [
        ['Node (in process)', 'node', false],
        ['browser (in the page)', 'page', true],
        ['browser, with Node-page transfer', 'wire', false],
      ] as const) {
        const ms = t[key].map((x) => x.ms);
        syncRows.push({
          operation: c.name,
          platform,
          'median ms': fmt(median(ms)),
          'runs ms': list(ms),
          answer: t[key][0]!.detail,
          'goal < 1 s': goal ? (median(ms) < GOAL_MS ? 'met' : 'NOT met') : '',
        });
      }
    }
    console.log(
      `\nThe sandbox on Node and in Chromium ${browser.version()} (defaults; median of ${RUNS} after a warm-up; inputs ${Math.round(selfie.byteLength / 1024)} KiB selfie, ${Math.round(photo.byteLength / 1024)} KiB photo)`,
    );
    console.table(syncRows);

    // 2. Fast 3D jobs at the default speed, alternating Node and browser.
    const jobCases: { name: string; body: JobBody; timelineMs: number }[] = [
      {
        name: 'fast 3D job, image mode (the 1600x1200 photo)',
        body: { mode: 'image', quality: 'fast', images: [`data:image/jpeg;base64,${b64.photo}`], seed: 7 },
        timelineMs: modelJobDurationMs('fast', 'image', 1) / DEFAULT_SPEED,
      },
      {
        name: 'fast 3D job, text mode',
        body: { mode: 'text', quality: 'fast', prompt: 'a blue ceramic mug', seed: 7 },
        timelineMs: modelJobDurationMs('fast', 'text', 0) / DEFAULT_SPEED,
      },
    ];
    const jobRows: Record<string, string>[] = [];
    for (const c of jobCases) {
      const t: Record<'node' | 'page', JobTimed[]> = { node: [], page: [] };
      for (let i = 0; i < RUNS; i++) {
        t.node.push(await modelJob(node, c.body));
        t.page.push(await inPage(page.evaluate((body) => bench.modelJob(body), c.body)));
      }
      for (const [platform, key] of [
        ['Node', 'node'],
        ['browser (in the page)', 'page'],
      ] as const) {
        const runs = t[key];
        const succeeded = median(runs.map((r) => r.succeededMs));
        const artifacts = median(runs.map((r) => r.artifactMs));
        jobRows.push({
          job: c.name,
          platform,
          'timeline ms': fmt(c.timelineMs),
          'succeeded ms (median)': fmt(succeeded),
          'runs ms': list(runs.map((r) => r.succeededMs)),
          'artifacts built ms': fmt(artifacts),
          'then MP4 read ms': median(runs.map((r) => r.mp4Ms - r.succeededMs)).toFixed(1),
          output: `GLB ${Math.round(runs[0]!.glbBytes / 1024)} KiB, MP4 ${Math.round(runs[0]!.mp4Bytes / 1024)} KiB`,
          finishes: `${runs.length}/${runs.length} succeeded, ${artifacts <= c.timelineMs ? 'on time' : 'late by ' + fmt(artifacts - c.timelineMs) + ' ms'}`,
        });
      }
    }
    console.log(
      `\nFast 3D jobs at the default speed (x${DEFAULT_SPEED}), created then polled every ${POLL_MS} ms until succeeded`,
    );
    console.table(jobRows);
    console.log(
      `goals: browser headshot batch and image tool < 1 s; fast 3D jobs succeed (bench took ${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
  } finally {
    await node.idle();
    await browser.close();
    server.closeAllConnections();
    server.close();
  }
}
