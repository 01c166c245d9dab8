/**
 * What keeping the video in IndexedDB costs <video-to-3d-uploader> (so an upload cut by a reload
 * resumes without re-picking the file): time from start() to the first uploaded byte, and disk
 * used while the upload runs and after the job exists, for a 500 MB video in Chromium. Baseline in
 * the same run: MediaClient.createVideoJob on the same file with no storage at all.
 */
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type Plugin } from 'vite';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/chromium.mjs';
import { mediakitDev } from '../../src/dev/index.js';
import { makeVideo } from '../fixtures/media.js';

type Result = { firstByteMs: number; uploadMs: number; diskDuringMB: number; diskAfterMB: number; freedMs: number };
declare const bench: { element(mb: number): Promise<Result>; plain(mb: number): Promise<Result> };

const MB = Number(process.env['BENCH_UPLOAD_MB'] ?? 500);

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

export async function uploadBench(): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const server = await createServer({
    configFile: false,
    root,
    logLevel: 'error',
    server: { port: 0, host: '127.0.0.1' },
    plugins: [mediakitDev({ sandbox: { speed: 10 }, budget: 1_000_000 }), fixtures()],
  });
  await server.listen();
  const url = `http://127.0.0.1:${(server.httpServer!.address() as AddressInfo).port}/test/bench/upload-page.html`;
  // A profile on disk: an incognito context keeps IndexedDB in memory, which would hide the cost.
  const profile = mkdtempSync(join(tmpdir(), 'mediakit-bench-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: ensureChromium(),
    args: CHROMIUM_ARGS,
  });
  try {
    const rows: Record<string, string>[] = [];
    for (const [name, fn] of [
      ['baseline: MediaClient.createVideoJob, nothing stored', 'plain'],
      ['<video-to-3d-uploader> (video kept in IndexedDB until the 202)', 'element'],
    ] as const) {
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction(() => typeof bench !== 'undefined');
      const r = await page.evaluate(([f, mb]) => bench[f as 'plain' | 'element'](mb as number), [fn, MB] as const);
      rows.push({
        case: name,
        'first byte after start': `${r.firstByteMs.toFixed(0)} ms`,
        'whole upload': `${(r.uploadMs / 1000).toFixed(1)} s`,
        'disk while uploading': `${r.diskDuringMB.toFixed(0)} MB`,
        'disk 0.5 s after the 202': `${r.diskAfterMB.toFixed(0)} MB`,
        'disk given back after the 202': r.freedMs < 0 ? 'not within 60 s' : `${(r.freedMs / 1000).toFixed(1)} s`,
      });
      await page.close();
    }
    console.log(`\nUpload of a ${MB} MB video in Chromium through the proxy into the sandbox`);
    console.table(rows);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    await server.close();
  }
}
