/**
 * The viewers, measured in Chromium (SwiftShader WebGL here, so times are software rendering):
 *   1. Gzip size of each production chunk (vite build of a page with both tags) next to
 *      @google/model-viewer's own build (a bench-only install into the OS temp dir).
 *   2. Time from setting src to the first frame, and the JavaScript transferred, for the three
 *      shared GLBs (with <model-viewer> on the same files as the baseline) and generated
 *      10k- and 100k-splat PLYs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/chromium.mjs';
import { ballPly } from '../fixtures/splats.js';

declare const show: (tag: string, src: string, loadEvent?: string) => Promise<number>;

const root = fileURLToPath(new URL('../..', import.meta.url));
const assets = join(root, '../shared/assets');
const MODEL_VIEWER = '4.4.0';

function modelViewer(): string {
  const dir = join(tmpdir(), `mediakit-bench-model-viewer-${MODEL_VIEWER}`);
  const file = join(dir, 'node_modules/@google/model-viewer/dist/model-viewer.min.js');
  if (!existsSync(file))
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        dir,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--silent',
        `@google/model-viewer@${MODEL_VIEWER}`,
      ],
      { stdio: 'inherit' },
    );
  return file;
}

interface ManifestEntry {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}

export async function viewersBench(): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), 'mediakit-bench-viewers-'));
  await build({
    configFile: false,
    root,
    logLevel: 'error',
    build: {
      outDir: out,
      emptyOutDir: true,
      manifest: true,
      rolldownOptions: { input: join(root, 'test/bench/viewers-page.html') },
    },
  });
  const manifest = JSON.parse(readFileSync(join(out, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestEntry>;
  const closure = (key: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const i of manifest[key]?.imports ?? []) closure(i, seen);
    return seen;
  };
  const gz = (keys: Iterable<string>) =>
    [...keys].reduce((n, k) => n + gzipSync(readFileSync(join(out, manifest[k]!.file)), { level: 9 }).byteLength, 0);
  const entry = closure('test/bench/viewers-page.html');
  const minus = (a: Set<string>, b: Set<string>) => new Set([...a].filter((x) => !b.has(x)));
  const glb = minus(closure('src/viewers/glb-viewer/glb-renderer.ts'), entry);
  // Loaded only when needed: the studio lighting after the first frame, Meshopt for files that use it.
  const lazyOf = (id: string) => {
    const key = Object.keys(manifest).find((k) => k.endsWith(id));
    return key ? minus(closure(key), new Set([...entry, ...glb])) : new Set<string>();
  };
  const room = lazyOf('RoomEnvironment.js');
  const meshopt = lazyOf('meshopt_decoder.module.js');
  const splat = minus(closure('src/viewers/splat-viewer/splat-renderer.ts'), entry);
  const shared = new Set([...glb].filter((k) => splat.has(k)));
  const mvFile = modelViewer();
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const mvGz = gzipSync(readFileSync(mvFile), { level: 9 }).byteLength;
  console.log(
    '\nViewer chunks, gzip -9 (vite build; three and the splat library bundled in, as an app would ship them)',
  );
  console.table([
    {
      chunk: 'elements: both tags, lit, base (loaded with the page)',
      gzip: kb(gz(entry)),
      'vs model-viewer': (gz(entry) / mvGz).toFixed(2) + 'x',
    },
    {
      chunk: 'glb renderer: three, GLTFLoader, orbit (lazy, to the first frame)',
      gzip: kb(gz(glb)),
      'vs model-viewer': (gz(glb) / mvGz).toFixed(2) + 'x',
    },
    {
      chunk: '  + studio lighting (RoomEnvironment, after the first frame)',
      gzip: kb(gz(room)),
      'vs model-viewer': '',
    },
    {
      chunk: '  + Meshopt decoder (only for EXT_meshopt_compression files)',
      gzip: kb(gz(meshopt)),
      'vs model-viewer': '',
    },
    {
      chunk: 'splat renderer: three + gaussian-splats-3d (lazy)',
      gzip: kb(gz(splat)),
      'vs model-viewer': (gz(splat) / mvGz).toFixed(2) + 'x',
    },
    { chunk: `  of which shared by both renderers (three)`, gzip: kb(gz(shared)), 'vs model-viewer': '' },
    {
      chunk: `baseline: @google/model-viewer ${MODEL_VIEWER} model-viewer.min.js`,
      gzip: kb(mvGz),
      'vs model-viewer': '1.00x',
    },
  ]);

  const generated: Record<string, Uint8Array> = { '10k.ply': ballPly(10_000), '100k.ply': ballPly(100_000) };
  const page = join(out, 'test/bench/viewers-page.html');
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const send = (body: Uint8Array | string, type: string) =>
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    if (path === '/') return send(readFileSync(page), 'text/html');
    if (path === '/mv')
      return send(
        `<!doctype html><script type="module" src="/mv.js"></script><script>window.show=(tag,src,ev)=>customElements.whenDefined('model-viewer').then(()=>new Promise((res,rej)=>{const el=document.createElement('model-viewer');el.setAttribute('loading','eager');el.style.cssText='display:block;width:640px;height:480px';document.body.append(el);const t0=performance.now();el.addEventListener('load',()=>res(performance.now()-t0),{once:true});el.addEventListener('error',()=>rej(new Error('model-viewer failed')),{once:true});el.setAttribute('src',src);}))</script>`,
        'text/html',
      );
    if (path === '/mv.js') return send(readFileSync(mvFile), 'text/javascript');
    if (path.startsWith('/gen/') && generated[path.slice(5)])
      return send(generated[path.slice(5)]!, 'application/octet-stream');
    if (path.startsWith('/assets/') && /^[\w.-]+$/.test(path.slice(8)) && existsSync(join(assets, path.slice(8))))
      return send(readFileSync(join(assets, path.slice(8))), 'application/octet-stream');
    const file = join(out, path);
    if (file.startsWith(out) && existsSync(file) && statSync(file).isFile())
      return send(readFileSync(file), extname(file) === '.js' ? 'text/javascript' : 'application/octet-stream');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  const rows: Record<string, string | number>[] = [];
  async function measure(label: string, viewer: string, pagePath: string, tag: string, src: string): Promise<number> {
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
    const p = await context.newPage();
    await p.goto(base + pagePath);
    await p.waitForFunction(() => 'show' in window);
    const before = await p.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .reduce((n, e) => n + (e.name.endsWith('.js') ? (e as PerformanceResourceTiming).encodedBodySize : 0), 0),
    );
    const ms = await p.evaluate(([t, s]) => show(t!, s!), [tag, src] as const);
    const js = await p.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .reduce((n, e) => n + (e.name.endsWith('.js') ? (e as PerformanceResourceTiming).encodedBodySize : 0), 0),
    );
    await context.close();
    rows.push({
      file: label,
      viewer,
      'src → first frame ms': Math.round(ms),
      'JS on page (KiB, uncompressed)': (js / 1024).toFixed(0),
      'of which after src': ((js - before) / 1024).toFixed(0),
    });
    return ms;
  }
  try {
    for (const asset of ['Box.glb', 'Duck.glb', 'DamagedHelmet.glb']) {
      if (!existsSync(join(assets, asset))) continue;
      const mv = await measure(asset, 'baseline: <model-viewer>', '/mv', 'model-viewer', `/assets/${asset}`);
      const ours = await measure(asset, '<glb-viewer>', '/', 'glb-viewer', `/assets/${asset}`);
      rows.at(-1)!['vs baseline'] = (ours / mv).toFixed(2) + 'x';
      rows.at(-2)!['vs baseline'] = '1.00x';
    }
    for (const name of Object.keys(generated))
      await measure(`generated ${name}`, '<splat-viewer>', '/', 'splat-viewer', `/gen/${name}`);
    console.log('\nViewers: time from src to first frame (fresh page each, SwiftShader), and JavaScript fetched');
    console.table(rows);
  } finally {
    await browser.close();
    server.close();
  }
}
