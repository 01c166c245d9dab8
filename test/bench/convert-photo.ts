/**
 * `npm run bench -- convert`, the photo part (issue 32, item 6): the phone-photo corpus
 * (test/fixtures/phone-photos.ts) made to fit in Chromium by the kit's own conversion
 * (src/client/fit-photo.ts), as each image element asks: <headshot-studio> at most 12 MP,
 * <bg-tool> at most 12 MB, <model-generator> at most 4096 px on the longer side. Median of
 * BENCH_CONVERT_RUNS (5) runs after one warm-up (the first run, with the HEIC decoder's download
 * and compile, is shown apart), from the file in memory to the File to send.
 * Beside it, sharp in Node doing the same work to the same file in the same run (decode, resize
 * with the same target, JPEG at quality 92), the floor of a native library on this machine.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/chromium.mjs';
import { browserBundle } from '../sandbox/browser-bridge.js';
import { phonePhoto, type PhonePhoto } from '../fixtures/phone-photos.js';
import type { ConvertPhotoBench } from './convert-photo-page.js';
import type { PhotoLimits } from '../../src/client/fit-photo.js';

declare const bench: ConvertPhotoBench;

const RUNS = Number(process.env['BENCH_CONVERT_RUNS'] ?? 5);

const CASES: { file: PhonePhoto; element: string; limits: PhotoLimits }[] = [
  { file: 'android-24mp.jpg', element: 'headshot-studio', limits: { maxPixels: 12_000_000 } },
  { file: 'android-24mp.jpg', element: 'bg-tool', limits: {} },
  { file: 'android-24mp.jpg', element: 'model-generator', limits: { maxSide: 4096 } },
  { file: 'iphone-12mp.heic', element: 'headshot-studio', limits: { maxPixels: 12_000_000 } },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const MiB = 1024 * 1024;

/** sharp doing what the browser did: decode, scale to `width`x`height`, JPEG q92. */
async function sharpMs(path: string, width: number, height: number): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const t = performance.now();
    await sharp(await readFile(path))
      .rotate()
      .resize(width, height)
      .jpeg({ quality: 92 })
      .toBuffer();
    if (i > 0) ms.push(performance.now() - t);
  }
  return median(ms);
}

export async function convertPhotoBench(): Promise<void> {
  const code = await browserBundle(fileURLToPath(new URL('./convert-photo-page.ts', import.meta.url)));
  const paths = Object.fromEntries(
    await Promise.all([...new Set(CASES.map((c) => c.file))].map(async (f) => [f, await phonePhoto(f)] as const)),
  );
  const server = createServer((req, res) => {
    const name = (req.url ?? '').slice(1);
    if (req.url === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(code);
    else if (Object.hasOwn(paths, name))
      void readFile(paths[name]!).then((b) =>
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(b),
      );
    else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>convert</title><script type="module" src="/page.js"></script>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  const rows: string[][] = [];
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => 'bench' in globalThis);
    for (const c of CASES) {
      const size = (await readFile(paths[c.file]!)).byteLength;
      const r = await page.evaluate(([f, l, n]) => bench.fit(`/${f}`, l, n), [c.file, c.limits, RUNS + 1] as const);
      const browserMs = median(r.ms.slice(1));
      const native = c.file.endsWith('.heic') ? '-' : (await sharpMs(paths[c.file]!, r.width, r.height)).toFixed(0);
      rows.push([
        `${c.file} (${(size / MiB).toFixed(1)} MB) for ${c.element}`,
        `${r.width}x${r.height} ${r.type.replace('image/', '')} ${(r.bytes / MiB).toFixed(1)} MB`,
        r.ms[0]!.toFixed(0),
        browserMs.toFixed(0),
        native,
      ]);
    }
  } finally {
    await browser.close();
    server.close();
  }
  console.log(`\nPhotos made to fit (src/client/fit-photo.ts) in Chromium: median of ${RUNS} runs after a warm-up`);
  const head = ['input and element', 'sent', 'first run ms', 'Chromium ms', 'sharp (Node) ms, same output'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  console.log(line(head));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of rows) console.log(line(r));
}
