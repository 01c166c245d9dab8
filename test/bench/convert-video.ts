/**
 * `npm run bench -- convert` (video): a 4K 30 fps H.264 clip made to fit 1080p in Chromium by
 * <video-to-3d-uploader>'s converter (src/client/fit-video.ts: mediabunny over WebCodecs, written
 * to the origin's private file system), beside ffmpeg (libx264 `-preset veryfast`, the same input
 * and output size) on the same machine in the same run. Reported: seconds for each, and the peak
 * memory (VmHWM) of Chromium's renderer while it converts.
 *
 * BENCH_CONVERT_SECONDS sets the clip's length (default 60; the clip is made once by ffmpeg into
 * the OS temp dir, test/fixtures/phone-media.ts). Not a test: it asserts nothing.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/chromium.mjs';
import { benchClip } from '../fixtures/phone-media.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** VmHWM (bytes) of the largest renderer of the browser started with `profile`. */
function rendererPeak(profile: string): number {
  let peak = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (!cmd.includes('--type=renderer') || !cmd.includes(profile)) continue;
      const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1] ?? 0) * 1024;
      peak = Math.max(peak, hwm);
    } catch {
      // gone meanwhile
    }
  }
  return peak;
}

const PAGE = `
import { planFit, convertVideo } from '${join(root, 'src/client/fit-video.ts')}';
window.run = async () => {
  const blob = await (await fetch('/clip.mp4')).blob();
  const file = new File([blob], 'clip.mp4', { type: 'video/mp4' });
  const plan = await planFit(file, ['resolution']);
  if (!plan || 'refuse' in plan) return { error: 'cannot convert here: ' + JSON.stringify(plan) };
  const t = performance.now();
  const out = await convertVideo(file, plan, { name: 'clip.mp4' });
  return { seconds: (performance.now() - t) / 1000, bytes: out.size, width: plan.target.width, height: plan.target.height };
};
`;

function ffmpegSeconds(input: string, output: string): Promise<number> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      'ffmpeg',
      [
        '-v',
        'error',
        '-y',
        '-i',
        input,
        '-an',
        '-vf',
        'scale=1920:1080',
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        output,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve((performance.now() - t) / 1000) : reject(new Error(`ffmpeg exited ${code}`)),
    );
  });
}

export async function convertVideoBench(): Promise<void> {
  const seconds = Number(process.env['BENCH_CONVERT_SECONDS'] ?? 60);
  console.log(`\nVideo made to fit: ${seconds} s of 4K 30 fps H.264 to 1920x1080 (making the clip once)…`);
  const clip = await benchClip(seconds);
  const dir = mkdtempSync(join(tmpdir(), 'mediakit-bench-convert-'));
  await build({
    stdin: { contents: PAGE, resolveDir: root, loader: 'ts' },
    bundle: true,
    format: 'esm',
    outfile: join(dir, 'page.js'),
    platform: 'browser',
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'error',
  });
  const server = createServer((req, res) => {
    if (req.url === '/clip.mp4') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': statSync(clip).size });
      createReadStream(clip).pipe(res);
    } else if (req.url === '/page.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(readFileSync(join(dir, 'page.js')));
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  // localhost: a secure context (WebCodecs, the origin's private file system).
  const base = `http://localhost:${(server.address() as AddressInfo).port}`;
  const profile = mkdtempSync(join(tmpdir(), 'mediakit-bench-convert-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: ensureChromium(),
    args: CHROMIUM_ARGS,
  });
  let browser: { seconds?: number; bytes?: number; error?: string; width?: number; height?: number };
  let peak = 0;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(base);
    await page.waitForFunction(() => 'run' in window);
    const sampler = setInterval(() => (peak = Math.max(peak, rendererPeak(profile))), 250);
    browser = await page.evaluate('window.run()');
    clearInterval(sampler);
    peak = Math.max(peak, rendererPeak(profile));
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
  const out = join(dir, 'ffmpeg.mp4');
  const ff = await ffmpegSeconds(clip, out);
  const ffBytes = statSync(out).size;
  rmSync(dir, { recursive: true, force: true });
  const MB = (n: number) => (n / 1024 / 1024).toFixed(0);
  const cpu = execFileSync('nproc').toString().trim();
  console.table([
    {
      converter: `<video-to-3d-uploader> in Chromium (mediabunny, WebCodecs, to OPFS)`,
      seconds: browser.seconds?.toFixed(1) ?? browser.error,
      'output MB': browser.bytes ? MB(browser.bytes) : '',
      'renderer peak MB': MB(peak),
    },
    {
      converter: 'ffmpeg libx264 -preset veryfast',
      seconds: ff.toFixed(1),
      'output MB': MB(ffBytes),
      'renderer peak MB': '',
    },
  ]);
  console.log(
    `input ${MB(statSync(clip).size)} MB, ${seconds} s; ${cpu} CPU cores; Chromium/ffmpeg time ratio ${
      browser.seconds ? (browser.seconds / ff).toFixed(2) : 'n/a'
    }`,
  );
}
