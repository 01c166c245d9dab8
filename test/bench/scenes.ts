/**
 * Gaussian-splat scenes at their real size, in Chromium (SwiftShader WebGL here: software, so the
 * times are this machine's CPU drawing). Each scene is a generated standard 3DGS PLY (SH degree 3,
 * 248 bytes a splat, a room with an object and floaters: scenes-ply.ts) of 300k, 1M and 2M splats
 * (74, 248 and 496 MB), served from disk by node:http. On each file, every measurement in a fresh
 * Chromium (so its memory peaks are its own):
 *   1. <splat-viewer>: src set to the first frame with splats (its first `mk-viewer-progressed` of
 *      phase `stream`; without streaming, its load event) and to the whole scene (`mk-viewer-loaded`).
 *      Twice: as it comes (slow frames draw at fewer pixels, down to half the pixel ratio) and with
 *      min-render-scale="1" (every frame at the full pixel ratio, as the bare pages draw).
 *   2. Baseline: the splat library alone (@mkkellogg/gaussian-splats-3d's DropInViewer in a bare
 *      three.js page), whole file: addSplatScene resolved, render-ready, one frame drawn.
 *   3. Baseline: the same with the library's progressiveLoad: first visible when the first
 *      section is built and drawn, whole when the last one is.
 *   4. Spark (@sparkjsdev/spark, a bench-only install into the OS temp dir) when npm can get it:
 *      SplatMesh initialized, then its SparkRenderer holding every splat sorted, one frame drawn.
 * A frame counts as drawn when a WebGL fence placed after it has signalled (scenes-page.ts): a
 * render call only queues the work, which SwiftShader then draws for seconds.
 * "Scene ready" is the moment before that: the whole scene built and sorted, its frame not yet
 * drawn (the element's load event; the library's addSplatScene resolved). It is the processor's
 * work, apart from the drawing, whose cost depends on the view: the element frames the subject
 * itself, closer than the fixed camera of the bare pages, so its frame fills more pixels.
 * Memory is the kernel's VmHWM of that browser's processes: the renderer's (the page, its
 * workers and the decoded splats), the GPU process's (SwiftShader's textures and buffers live
 * there) and the sum over all its processes (shared pages count in each). The element's rows are
 * compared with the library's rows of the same file in the same run. Then a phone-class run
 * (390x844 at 3x, touch, navigator.deviceMemory 4) of the element and the progressive library on
 * the 1M and 2M files. MB is 10^6 bytes throughout.
 * `npm run bench -- scenes`; BENCH_SCENES=300k,1m picks sizes (default 300k,1m,2m);
 * BENCH_SCENE_MBPS=25 throttles the file server to that many MB/s (default unthrottled);
 * BENCH_SCENE_VIEWERS=element,element-full,library,library-progressive,spark picks rows (default all);
 * BENCH_SCENE_SHOTS=<dir> saves a screenshot of each page after its measurement;
 * BENCH_SCENE_LIMIT_S sets the time a measurement may take (default 300 s; a timeout is a row);
 * BENCH_SCENE_TRACE=1 also prints the renderer's resident memory (private + shared) twice a second.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/chromium.mjs';
import { SCENE_VIEW, SCENES_DIR, scenePly } from './scenes-ply.js';
import type { PageFacts, RunOptions, RunState } from './scenes-page.js';

type Mode = 'element' | 'element-full' | 'library' | 'library-progressive' | 'spark';
declare const run: (mode: Mode, options: RunOptions) => void;
declare const facts: () => PageFacts;

const root = fileURLToPath(new URL('../..', import.meta.url));
const SPARK = '2.2.0';
/** Software WebGL draws a 1M-splat frame in about 10 s here. BENCH_SCENE_LIMIT_S changes it. */
const LIMIT_MS = Number(process.env['BENCH_SCENE_LIMIT_S'] ?? 300) * 1000;
const MBPS = Number(process.env['BENCH_SCENE_MBPS'] ?? 0);
/** A folder for a screenshot of each page once measured (to see what was drawn); unset: none. */
const SHOTS = process.env['BENCH_SCENE_SHOTS'];
const TRACE = process.env['BENCH_SCENE_TRACE'] === '1';
const MB = (bytes: number) => bytes / 1e6;
const LABEL: Record<Mode, string> = {
  element: '<splat-viewer>',
  'element-full': '<splat-viewer min-render-scale="1">',
  library: 'baseline: library alone, whole file',
  'library-progressive': 'baseline: library alone, progressiveLoad',
  spark: `Spark ${SPARK}`,
};

function sizes(): { name: string; count: number }[] {
  return (process.env['BENCH_SCENES'] ?? '300k,1m,2m').split(',').map((s) => {
    const m = /^(\d+(?:\.\d+)?)([km]?)$/.exec(s.trim().toLowerCase());
    if (!m) throw new Error(`BENCH_SCENES: "${s}" is not a size like 300k or 1m`);
    const count = Math.round(Number(m[1]) * (m[2] === 'm' ? 1e6 : m[2] === 'k' ? 1e3 : 1));
    return { name: `${m[1]}${m[2]}`, count };
  });
}

/** Spark's module file, installed for the bench into the OS temp dir; undefined when npm cannot get it. */
function spark(): string | undefined {
  const dir = join(tmpdir(), `mediakit-bench-spark-${SPARK}`);
  const file = join(dir, 'node_modules/@sparkjsdev/spark/dist/spark.module.js');
  if (!existsSync(file))
    try {
      execFileSync(
        'npm',
        ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--silent', `@sparkjsdev/spark@${SPARK}`],
        { stdio: 'inherit', timeout: 180_000 },
      );
    } catch (err) {
      console.log(`Spark: not measured, npm could not install @sparkjsdev/spark@${SPARK} (${(err as Error).message})`);
      return undefined;
    }
  return existsSync(file) ? file : undefined;
}

interface Memory {
  renderer: number;
  gpu: number;
  all: number;
  processes: number;
}

/** The processes of the browser started with this profile (its own and its descendants), with their command lines. */
function processesOf(profile: string): Map<number, string> {
  const procs = new Map<number, { ppid: number; cmd: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      procs.set(Number(name), { ppid, cmd: readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ') });
    } catch {
      // gone meanwhile
    }
  }
  const mine = new Set([...procs].filter(([, p]) => p.cmd.includes(`--user-data-dir=${profile}`)).map(([pid]) => pid));
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of procs)
      if (!mine.has(pid) && mine.has(p.ppid)) {
        mine.add(pid);
        grew = true;
      }
  }
  return new Map([...mine].map((pid) => [pid, procs.get(pid)!.cmd]));
}

/** VmHWM (bytes) of every process of the browser started with this profile. */
function memoryOf(profile: string): Memory {
  const m: Memory = { renderer: 0, gpu: 0, all: 0, processes: 0 };
  for (const [pid, cmd] of processesOf(profile)) {
    let hwm: number;
    try {
      hwm = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    } catch {
      continue;
    }
    if (cmd.includes('--type=renderer')) m.renderer = Math.max(m.renderer, hwm);
    if (cmd.includes('--type=gpu-process')) m.gpu = Math.max(m.gpu, hwm);
    m.all += hwm;
    m.processes++;
  }
  return m;
}

/** The resident memory of the browser's largest renderer now, in MB: "all (private + shared)". */
function rendererRss(profile: string): string {
  let most = { rss: 0, text: '0' };
  for (const [pid, cmd] of processesOf(profile)) {
    if (!cmd.includes('--type=renderer')) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
      const rss = kb('VmRSS');
      if (rss > most.rss)
        most = { rss, text: `${MB(rss).toFixed(0)}(${MB(kb('RssAnon')).toFixed(0)}+${MB(kb('RssShmem')).toFixed(0)})` };
    } catch {
      // gone meanwhile
    }
  }
  return most.text;
}

/** The file from disk, with its length, at BENCH_SCENE_MBPS when set. */
async function sendFile(res: ServerResponse, path: string): Promise<void> {
  const size = statSync(path).size;
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-length': size,
    'cache-control': 'no-store',
  });
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  if (!(MBPS > 0)) return pipeline(stream, res).catch(() => undefined);
  res.on('close', () => stream.destroy());
  const t0 = performance.now();
  let sent = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (res.destroyed) return;
      if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
      sent += chunk.byteLength;
      const ahead = (sent / (MBPS * 1e6)) * 1000 - (performance.now() - t0);
      if (ahead > 0) await sleep(ahead);
    }
    res.end();
  } catch {
    res.destroy();
  }
}

interface Result {
  state: RunState;
  facts: PageFacts;
  memory: Memory;
  error?: string;
  seconds: number;
}

export async function scenesBench(): Promise<void> {
  const picked = sizes();
  console.log(`\nScenes: generating PLYs in ${SCENES_DIR} (reused when present)`);
  const files: Record<string, { path: string; bytes: number; count: number }> = {};
  for (const { name, count } of picked) {
    const t = performance.now();
    const f = await scenePly(count, name);
    files[name] = { ...f, count };
    console.log(
      `  ${name}: ${count} splats, ${MB(f.bytes).toFixed(0)} MB, ${f.made ? `written in ${((performance.now() - t) / 1000).toFixed(1)} s` : 'reused'}`,
    );
  }
  const sparkFile = spark();

  const out = mkdtempSync(join(tmpdir(), 'mediakit-bench-scenes-page-'));
  await build({
    configFile: false,
    root,
    logLevel: 'error',
    build: { outDir: out, emptyOutDir: true, rolldownOptions: { input: join(root, 'test/bench/scenes-page.html') } },
  });
  const page = join(out, 'test/bench/scenes-page.html');
  const three = join(root, 'node_modules/three');
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const send = (file: string) =>
      res
        .writeHead(200, {
          'content-type':
            extname(file) === '.js'
              ? 'text/javascript'
              : extname(file) === '.html'
                ? 'text/html'
                : 'application/octet-stream',
          'cache-control': 'no-store',
        })
        .end(readFileSync(file));
    const under = (dir: string, rest: string) => {
      const file = resolve(dir, '.' + rest);
      return file.startsWith(dir + '/') && existsSync(file) && statSync(file).isFile() ? file : undefined;
    };
    if (path === '/') return send(page);
    const scene = /^\/scene\/([\w.]+)\.ply$/.exec(path)?.[1];
    if (scene && files[scene]) return void sendFile(res, files[scene].path);
    if (path === '/spark.js' && sparkFile) return send(sparkFile);
    const file = path.startsWith('/three/') ? under(three, path.slice(6)) : under(out, path);
    if (file) return send(file);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const executablePath = ensureChromium();

  async function measure(mode: Mode, size: string, phone: boolean): Promise<Result> {
    const started = performance.now();
    const laps: string[] = [];
    const trace: string[] = [];
    let lap = started;
    const mark = (what: string) => {
      laps.push(`${what} ${((performance.now() - lap) / 1000).toFixed(1)} s`);
      lap = performance.now();
    };
    const profile = mkdtempSync(join(tmpdir(), 'mediakit-bench-scenes-profile-'));
    const width = phone ? 390 : 800;
    const height = phone ? 844 : 600;
    const context: BrowserContext = await chromium.launchPersistentContext(profile, {
      executablePath,
      args: CHROMIUM_ARGS,
      viewport: { width, height },
      screen: { width, height },
      deviceScaleFactor: phone ? 3 : 1,
      isMobile: phone,
      hasTouch: phone,
    });
    mark('launch');
    let crashed = false;
    const pageErrors: string[] = [];
    let result: Omit<Result, 'memory' | 'seconds'> = {
      state: { done: false },
      facts: { screenWidth: 0, screenHeight: 0, deviceMemory: null, devicePixelRatio: 0, cores: 0, gl: '' },
    };
    let memory: Memory;
    // The page reports its state through a binding each time it changes, so nothing here waits on
    // the page's main thread (busy for seconds at a time while software WebGL draws).
    let latest: RunState = { done: false };
    let settle: (why?: string) => void = () => undefined;
    const settled = new Promise<string | undefined>((r) => (settle = r));
    try {
      await context.exposeBinding('__report', (_source, s: RunState) => {
        latest = s;
        if (s.done) settle();
      });
      // As source text: a function from here would carry tsx's `__name` helper into the page.
      if (phone)
        await context.addInitScript(
          "Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => 4, configurable: true });",
        );
      const p = context.pages()[0] ?? (await context.newPage());
      // Ended from outside (seen here while other work shared the machine): said so, not a timeout.
      context.on('close', () => settle('the browser went away (ended from outside)'));
      p.on('crash', () => {
        crashed = true;
        settle('renderer crashed');
      });
      p.on('pageerror', (e) => pageErrors.push(e.message));
      await p.goto(base + '/');
      await p.waitForFunction(() => 'run' in window, undefined, { timeout: 60_000 });
      result.facts = await p.evaluate(() => facts());
      mark('page');
      const options: RunOptions = {
        src: `/scene/${size}.ply`,
        count: files[size]!.count,
        // The page's width on a phone, 800x600 on the desktop (the element's box and the bare canvas alike).
        width: Math.min(800, width),
        height: 600,
        view: SCENE_VIEW,
      };
      const t0 = performance.now();
      const tracer = TRACE
        ? setInterval(() => trace.push(`${((performance.now() - t0) / 1000).toFixed(0)}:${rendererRss(profile)}`), 500)
        : undefined;
      await p.evaluate(([m, o]) => run(m, o), [mode, options] as const);
      const error = await Promise.race([settled, sleep(LIMIT_MS, `timeout (${LIMIT_MS / 1000} s)`, { ref: false })]);
      clearInterval(tracer);
      if (TRACE) {
        // What of the peak was garbage not yet collected: the renderer after a forced collection.
        const cdp = await context.newCDPSession(p);
        await cdp.send('HeapProfiler.collectGarbage').catch(() => undefined);
        await sleep(2000);
        trace.push(`after a forced GC:${rendererRss(profile)}`);
      }
      mark('run');
      if (SHOTS)
        await p
          .screenshot({ path: join(SHOTS, `${size}-${phone ? 'phone-' : ''}${mode}.png`), timeout: 60_000 })
          .catch(() => undefined);
      const state = latest;
      result = { ...result, state, ...(error || state.error ? { error: error ?? state.error } : {}) };
      if (pageErrors.length && (result.error || !result.state.done))
        result.error = `${result.error ?? 'not done'} [page: ${pageErrors.join('; ')}]`;
    } catch (err) {
      result = { ...result, error: crashed ? 'renderer crashed' : (err as Error).message.split('\n')[0] };
    } finally {
      memory = memoryOf(profile);
      lap = performance.now();
      await Promise.race([context.close(), sleep(30_000, undefined, { ref: false })]).catch(() => undefined);
      // A browser that did not close in time is ended here, by the pids of this profile's processes.
      for (const pid of processesOf(profile).keys())
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      mark('close');
      rmSync(profile, { recursive: true, force: true });
    }
    const r: Result = { ...result, memory, seconds: (performance.now() - started) / 1000 };
    const s = r.state;
    console.log(
      `  ${size} ${phone ? 'phone ' : ''}${LABEL[mode]}: ${r.error ? `FAILED: ${r.error}; ` : ''}first ${s.first?.toFixed(1) ?? '-'} s, ready ${s.ready?.toFixed(1) ?? '-'} s, whole ${s.whole?.toFixed(1) ?? '-'} s, ${s.shown !== undefined ? `${s.shown} splats` : `${s.onScreen ?? '-'} splats on screen${s.onScreenAt !== undefined ? ` (since ${s.onScreenAt.toFixed(1)} s)` : ''}`}${s.note ? ` (${s.note})` : ''}` +
        `, renderer ${MB(memory.renderer).toFixed(0)} MB, GPU process ${MB(memory.gpu).toFixed(0)} MB (${r.seconds.toFixed(0)} s in all: ${laps.join(', ')})` +
        (s.steps ? `\n      steps: ${s.steps}` : '') +
        (trace.length ? `\n      renderer RSS (s:MB, private+shared): ${trace.join(' ')}` : ''),
    );
    return r;
  }

  const fmt = (v: number | undefined, digits = 1) => (v === undefined ? '' : v.toFixed(digits));
  const x = (a: number | undefined, b: number | undefined) => (a && b ? (a / b).toFixed(2) + 'x' : '');
  const row = (size: string, mode: Mode, r: Result) => ({
    size,
    'file MB': MB(files[size]!.bytes).toFixed(0),
    viewer: LABEL[mode],
    'first visible s':
      r.error && r.state.first === undefined ? (/timeout/.test(r.error) ? 'timeout' : 'error') : fmt(r.state.first),
    'scene ready s': fmt(r.state.ready),
    'whole scene s': r.error ? (/timeout/.test(r.error) ? 'timeout' : 'error') : fmt(r.state.whole),
    'splats shown': r.state.shown ?? (r.state.onScreen !== undefined ? `${r.state.onScreen} at the limit` : ''),
    'renderer peak MB': MB(r.memory.renderer).toFixed(0),
    'GPU process peak MB': MB(r.memory.gpu).toFixed(0),
    'all Chromium MB': MB(r.memory.all).toFixed(0),
  });
  /** The element's row against the library's rows of the same file (time to the whole scene / renderer peak). */
  const versus = (ours: Result, lib: Result | undefined) =>
    lib && !ours.error && !lib.error
      ? `${x(ours.state.whole, lib.state.whole)} / ${x(ours.memory.renderer, lib.memory.renderer)}`
      : '';
  const seen: Record<string, PageFacts> = {};
  const failures: string[] = [];
  const t0 = performance.now();
  try {
    const desktop: Record<string, string | number>[] = [];
    const wanted = process.env['BENCH_SCENE_VIEWERS']?.split(',').map((v) => v.trim());
    const modes = (
      [
        'element',
        'element-full',
        'library',
        'library-progressive',
        ...(sparkFile ? (['spark'] as const) : []),
      ] as Mode[]
    ).filter((m) => !wanted || wanted.includes(m));
    console.log(
      `\nScenes: one fresh Chromium per measurement, up to ${LIMIT_MS / 1000} s each${MBPS > 0 ? `, served at ${MBPS} MB/s` : ''}`,
    );
    for (const { name } of picked) {
      const results: Partial<Record<Mode, Result>> = {};
      for (const mode of modes) {
        const r = (results[mode] = await measure(mode, name, false));
        seen['desktop'] ??= r.facts;
        if (r.error) failures.push(`${name} ${LABEL[mode]}: ${r.error}`);
      }
      for (const mode of modes)
        desktop.push({
          ...row(name, mode, results[mode]!),
          'whole / renderer vs library progressive': mode.startsWith('element')
            ? versus(results[mode]!, results['library-progressive'])
            : '',
          'whole / renderer vs library whole-file': mode.startsWith('element')
            ? versus(results[mode]!, results.library)
            : '',
        });
    }
    const phone: Record<string, string | number>[] = [];
    const phoneModes = (['element', 'library-progressive'] as const).filter((m) => modes.includes(m));
    for (const { name, count } of picked.filter((s) => s.count >= 1_000_000)) {
      const results: Partial<Record<Mode, Result>> = {};
      for (const mode of phoneModes) {
        const r = (results[mode] = await measure(mode, name, true));
        seen['phone'] ??= r.facts;
        if (r.error) failures.push(`${name} phone ${LABEL[mode]}: ${r.error}`);
      }
      for (const mode of phoneModes)
        phone.push({
          ...row(name, mode, results[mode]!),
          'splats in file': count,
          'whole / renderer vs library progressive':
            mode === 'element' ? versus(results.element!, results['library-progressive']) : '',
        });
    }
    console.log(
      `\nScenes at their real size: time from src to the first frame with splats and to the whole scene, and peak memory (VmHWM) of that browser${MBPS > 0 ? ` (served at ${MBPS} MB/s)` : ''}`,
    );
    console.table(desktop);
    if (phone.length) {
      console.log('\nPhone class: 390x844 at 3x, isMobile, touch, navigator.deviceMemory 4 (same files, same run)');
      console.table(phone);
    } else console.log('\nPhone class: not run (it uses the 1M and 2M files; BENCH_SCENES has neither)');
    if (failures.length) console.log(`\nFailed or timed out:\n  ${failures.join('\n  ')}`);
    const chromiumVersion = execFileSync(executablePath, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    console.log(
      `\nMachine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${chromiumVersion}, benchmark ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    for (const [kind, f] of Object.entries(seen))
      console.log(
        `  ${kind} page: screen.width ${f.screenWidth} (x${f.screenHeight}), navigator.deviceMemory ${f.deviceMemory}, devicePixelRatio ${f.devicePixelRatio}, hardwareConcurrency ${f.cores}, WebGL: ${f.gl}`,
      );
  } finally {
    server.closeAllConnections();
    server.close();
    rmSync(out, { recursive: true, force: true });
  }
}
