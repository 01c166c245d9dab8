/**
 * `npm run bench -- convert` (video): a 4K 30 fps H.264 clip made to fit 1080p in Chromium by
 * <video-to-3d-uploader>'s converter (src/client/fit-video.ts: mediabunny over WebCodecs, written
 * to the origin's private file system), beside ffmpeg (libx264 `-preset veryfast`, the same input
 * and output size) on the same machine in the same run. Reported: seconds for each, and the peak
 * memory of Chromium's renderer: VmHWM, the kernel's count of its peak resident memory (the page
 * idle before the conversion is part of it, as is Chromium's own code, shared with its other
 * processes), and the peak of its private (anonymous) part, sampled every 100 ms. The clip is
 * chosen in a file input, so the page reads it from disk as it reads a video a user chose.
 *
 * BENCH_CONVERT_SECONDS sets the clip's length (default 60; the clip is made once by ffmpeg into
 * the OS temp dir, test/fixtures/phone-media.ts). Then the corpus's real 1080p clip over 500 MB is
 * re-encoded to fit (seconds, output size, renderer peak): too slow for npm test on two cores, so
 * it runs here; BENCH_CONVERT_OVER_500MB=0 leaves it out. Not a test: it asserts nothing.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/chromium.mjs';
import { benchClip, phoneClip } from '../fixtures/phone-media.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface RendererMemory {
  /** VmHWM: the process's peak resident memory since it started (the kernel's own count, no spike missed). */
  peak: number;
  /** VmRSS now, and the private (anonymous) part of it (smaps_rollup): resident minus the shared Chromium code and files. */
  rss: number;
  anonymous: number;
}

/** The memory of each renderer of the browser started with `profile` (Linux /proc). */
function renderers(profile: string): RendererMemory[] {
  const out: RendererMemory[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (!cmd.includes('--type=renderer') || !cmd.includes(profile)) continue;
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      const rollup = readFileSync(`/proc/${name}/smaps_rollup`, 'utf8');
      const kB = (text: string, field: string) =>
        Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0) * 1024;
      out.push({ peak: kB(status, 'VmHWM'), rss: kB(status, 'VmRSS'), anonymous: kB(rollup, 'Anonymous') });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const PAGE = `
import { planFit } from '${join(root, 'src/client/fit-video.ts')}';
import { convertVideo } from '${join(root, 'src/client/fit-video-convert.ts')}';
window.run = async (reasons) => {
  // Chosen as a user chooses it: a File the browser reads from disk.
  const file = document.querySelector('input').files[0];
  const plan = await planFit(file, reasons);
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

interface Converted {
  seconds?: number;
  bytes?: number;
  error?: string;
  width?: number;
  height?: number;
  /** The renderer's VmHWM, its private memory's sampled peak, and its resident memory before converting. */
  peak: number;
  anonymous: number;
  idle: number;
}

/** Converts `clip` in a fresh Chromium (chosen in a file input, as a user chooses it). */
async function inChromium(clip: string, reasons: string[]): Promise<Converted> {
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
    if (req.url === '/page.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(readFileSync(join(dir, 'page.js')));
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><meta charset="utf-8"><input type="file"><script type="module" src="/page.js"></script>');
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
  const memory = { peak: 0, anonymous: 0, idle: 0 };
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(base);
    await page.waitForFunction(() => 'run' in window);
    await page.setInputFiles('input', clip);
    memory.idle = Math.max(0, ...renderers(profile).map((r) => r.rss));
    const sample = () => {
      for (const r of renderers(profile)) {
        memory.peak = Math.max(memory.peak, r.peak);
        memory.anonymous = Math.max(memory.anonymous, r.anonymous);
      }
    };
    const sampler = setInterval(sample, 100);
    const result = (await page.evaluate(`window.run(${JSON.stringify(reasons)})`)) as Omit<
      Converted,
      keyof typeof memory
    >;
    clearInterval(sampler);
    sample();
    return { ...result, ...memory };
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

const MB = (n: number) => (n / 1024 / 1024).toFixed(0);

export async function convertVideoBench(): Promise<void> {
  const seconds = Number(process.env['BENCH_CONVERT_SECONDS'] ?? 60);
  console.log(`\nVideo made to fit: ${seconds} s of 4K 30 fps H.264 to 1920x1080 (making the clip once)…`);
  const clip = await benchClip(seconds);
  const browser = await inChromium(clip, ['resolution']);
  const dir = mkdtempSync(join(tmpdir(), 'mediakit-bench-convert-ffmpeg-'));
  const out = join(dir, 'ffmpeg.mp4');
  const ff = await ffmpegSeconds(clip, out);
  const ffBytes = statSync(out).size;
  rmSync(dir, { recursive: true, force: true });
  const cpu = execFileSync('nproc').toString().trim();
  console.table([
    {
      converter: `<video-to-3d-uploader> in Chromium (mediabunny, WebCodecs, to OPFS)`,
      seconds: browser.seconds?.toFixed(1) ?? browser.error,
      'output MB': browser.bytes ? MB(browser.bytes) : '',
      'renderer peak MB': MB(browser.peak),
      'of it private MB': MB(browser.anonymous),
    },
    {
      converter: 'ffmpeg libx264 -preset veryfast',
      seconds: ff.toFixed(1),
      'output MB': MB(ffBytes),
      'renderer peak MB': '',
      'of it private MB': '',
    },
  ]);
  console.log(
    `input ${MB(statSync(clip).size)} MB, ${seconds} s; renderer ${MB(browser.idle)} MB before converting; ${cpu} CPU cores; Chromium/ffmpeg time ratio ${
      browser.seconds ? (browser.seconds / ff).toFixed(2) : 'n/a'
    }`,
  );
  if (process.env['BENCH_CONVERT_OVER_500MB'] === '0') return;
  // The corpus's real 1080p clip over 500 MB (test/fixtures/phone-media.ts): too slow to make and
  // convert in npm test on two cores, so it is converted here (made once into the OS temp dir).
  console.log("\nVideo made to fit: the corpus's 1080p clip over 500 MB, re-encoded to fit (making the clip once)…");
  const big = await phoneClip('over-500mb.mp4');
  const fit = await inChromium(big, ['too_large']);
  console.table([
    {
      input: `over-500mb.mp4, ${MB(statSync(big).size)} MB, 1920x1080, 3:00`,
      seconds: fit.seconds?.toFixed(1) ?? fit.error,
      'output MB': fit.bytes ? MB(fit.bytes) : '',
      'under 500 MB': fit.bytes !== undefined && fit.bytes < 500 * 1024 * 1024 ? 'yes' : 'NO',
      'renderer peak MB': MB(fit.peak),
      'of it private MB': MB(fit.anonymous),
    },
  ]);
}
