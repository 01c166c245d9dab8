// The package as a user gets it: `npm pack`, the tarball installed into a fresh folder (never src),
// then
//   1. a Vite page that imports only MediaClient builds, with nothing of three.js, the splat
//      library or their decoders in its output;
//   2. every browser entry imports in Node without throwing (server rendering starts there);
//   3. without the sandbox's optional peers, importing the sandbox says what to install;
//   4. each example app under test/apps/<name> is built from the installed package (and, where its
//      app.json has `typecheck`, checked with its framework's checker: vue-tsc, svelte-check),
//      served behind the package's own dev stack (proxy + sandbox), and driven in Chromium:
//      <video-to-3d-uploader> takes a video to its succeeded state; an app whose app.json names a
//      `journey` (a CMS) runs that module instead, with its own servers and its own checks.
// The apps share one node_modules (one install). Usage: node scripts/apps.mjs [app names...]
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CHROMIUM_ARGS, ensureChromium } from './chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = join(tmpdir(), 'mediakit-apps');
const shared = join(work, 'shared');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const t0 = performance.now();
const failures = [];
const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
};
const log = (msg) => console.log(`[apps ${((performance.now() - t0) / 1000).toFixed(0).padStart(3)} s] ${msg}`);

function sh(cmd, args, cwd, env = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 << 20 });
  if (r.status !== 0 || r.error)
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}
const npmInstall = (cwd, pkgs) =>
  sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...pkgs], cwd);
function check(name, fn) {
  return Promise.resolve()
    .then(fn)
    .then(
      (detail) => log(`ok   ${name}${detail ? `: ${detail}` : ''}`),
      (err) => {
        failures.push(name);
        log(`FAIL ${name}: ${err?.stack ?? err}`);
      },
    );
}

// ---- the tarball -------------------------------------------------------------------------------
if (!existsSync(join(root, 'dist/index.js')) || !existsSync(join(root, 'cdn/mediakit-elements.js'))) {
  log('no build yet: npm run build');
  sh('node', ['scripts/build.mjs'], root);
}
rmSync(work, { recursive: true, force: true });
mkdirSync(shared, { recursive: true });
const tarball = join(work, sh('npm', ['pack', '--silent', '--pack-destination', work], root).trim().split('\n').pop());
log(`packed ${tarball} (${(statSync(tarball).size / 1024).toFixed(0)} KiB)`);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const version = (name) => pkg.devDependencies[name] ?? pkg.dependencies[name];
writeFileSync(
  join(shared, 'package.json'),
  JSON.stringify({ name: 'mediakit-apps', private: true, type: 'module' }, null, 2),
);
npmInstall(shared, [tarball, `vite@${version('vite')}`]);
log('installed the tarball and vite');
const installed = join(shared, 'node_modules/@mediakit/elements');

// ---- 0. what the tarball holds ----------------------------------------------------------------
await check('the package: LICENSE, no source maps, manifest paths that resolve, editor data', () => {
  if (!existsSync(join(installed, 'LICENSE'))) throw new Error('no LICENSE');
  const walk = (d) =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)],
    );
  const maps = walk(installed).filter((f) => f.endsWith('.map'));
  if (maps.length) throw new Error(`source maps without their sources: ${maps.length}`);
  const manifest = JSON.parse(
    readFileSync(
      join(installed, JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).customElements),
      'utf8',
    ),
  );
  const paths = manifest.modules.map((m) => m.path);
  const missing = paths.filter(
    (p) => !existsSync(join(installed, p)) || !existsSync(join(installed, p.replace(/\.js$/, '.d.ts'))),
  );
  if (missing.length) throw new Error(`manifest paths not in the package: ${missing.join(', ')}`);
  for (const f of [
    'dist/web-types.json',
    'dist/vscode.html-custom-data.json',
    'dist/api/API-REFERENCE.md',
    'cdn/mediakit-elements.js',
  ]) {
    if (!existsSync(join(installed, f))) throw new Error(`no ${f}`);
  }
  return `${paths.length} manifest modules resolve`;
});

// ---- 1. a page that imports only MediaClient ---------------------------------------------------
await check('a page importing only MediaClient builds without 3D', () => {
  const app = join(work, 'client-only');
  mkdirSync(join(app, 'src'), { recursive: true });
  symlinkSync(join(shared, 'node_modules'), join(app, 'node_modules'));
  writeFileSync(join(app, 'index.html'), '<!doctype html><script type="module" src="/src/main.js"></script>\n');
  writeFileSync(
    join(app, 'src/main.js'),
    "import { MediaClient } from '@mediakit/elements';\nconsole.log(MediaClient.for('/mediakit'));\n",
  );
  sh(join(shared, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], app);
  const files = readdirSync(join(app, 'dist/assets'));
  const bad = files.filter((f) => !f.endsWith('.js'));
  if (bad.length) throw new Error(`emitted files it never loads: ${bad.join(', ')}`);
  // The client's own lazy chunks (the MP4 reader, input checks) are fine; anything of 3D is not.
  let bytes = 0;
  for (const f of files) {
    const js = readFileSync(join(app, 'dist/assets', f));
    bytes += gzipSync(js, { level: 9 }).length;
    for (const marker of ['WebGLRenderer', 'GaussianSplat', 'DropInViewer', 'customElements.define']) {
      if (js.includes(marker)) throw new Error(`${f} contains ${marker}`);
    }
  }
  return `${files.length} chunk${files.length === 1 ? '' : 's'} (${files.join(', ')}), ${(bytes / 1024).toFixed(1)} KiB gzip in all`;
});

// ---- 2. browser entries in Node ----------------------------------------------------------------
const browserEntries = [
  '.',
  './define.js',
  ...Object.keys(pkg.exports).filter((k) => /^\.\/[a-z0-9]+(-[a-z0-9]+)+\.js$/.test(k)),
];
await check(`every browser entry imports in Node (${browserEntries.length})`, () => {
  const script = `for (const e of ${JSON.stringify(browserEntries)}) await import(e === '.' ? '@mediakit/elements' : '@mediakit/elements/' + e.slice(2));`;
  sh('node', ['--input-type=module', '-e', script], shared);
  return browserEntries.join(' ');
});

// ---- 3. the sandbox without its optional peers -------------------------------------------------
await check('the sandbox names its missing optional peers', () => {
  const r = spawnSync('node', ['--input-type=module', '-e', "await import('@mediakit/elements/sandbox')"], {
    cwd: shared,
    encoding: 'utf8',
  });
  if (r.status === 0) throw new Error('imported without sharp installed?');
  if (!r.stderr.includes('npm install -D sharp @gltf-transform/core mediabunny'))
    throw new Error(`unclear message:\n${r.stderr}`);
  return (
    r.stderr
      .split('\n')
      .find((l) => l.startsWith('Error: '))
      ?.slice(0, 110) + '…'
  );
});

// ---- 4. the example apps -----------------------------------------------------------------------
const apps = readdirSync(join(root, 'test/apps')).filter(
  (n) => existsSync(join(root, 'test/apps', n, 'app.json')) && (!only.length || only.includes(n)),
);
// An app whose app.json says "pending" (why it cannot pass yet) runs only when named.
const specs = apps
  .map((name) => ({ name, ...JSON.parse(readFileSync(join(root, 'test/apps', name, 'app.json'), 'utf8')) }))
  .filter((spec) => {
    if (!spec.pending || only.includes(spec.name)) return true;
    log(`skip ${spec.name}: ${spec.pending}`);
    return false;
  });
const extra = [
  ...new Set([
    'sharp',
    '@gltf-transform/core',
    'mediabunny',
    '@ffmpeg-installer/ffmpeg',
    'playwright-core',
    ...specs.flatMap((s) => s.dependencies ?? []),
  ]),
];
// An app names a dependency with its range (name@range), or takes the range of this repository.
const spec = (n) => (n.lastIndexOf('@') > 0 ? n : `${n}@${version(n) ?? pkg.peerDependencies?.[n] ?? 'latest'}`);
npmInstall(shared, extra.map(spec));
log(`installed the sandbox's peers and the apps' dependencies: ${extra.join(' ')}`);

const { createDevStack } = await import(pathToFileURL(join(installed, 'dist/dev/index.js')).href);
const video = makeVideo();
const { chromium } = createRequire(join(shared, 'x.js'))('playwright-core');
const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
try {
  for (const spec of specs) {
    // Inside the shared folder: node_modules is found by walking up, as in a monorepo (Turbopack
    // refuses a symlinked node_modules that points outside its root).
    const app = join(shared, 'apps', spec.name);
    await check(`app ${spec.name}`, async () => {
      cpSync(join(root, 'test/apps', spec.name), app, { recursive: true });
      const tb = performance.now();
      if (spec.build) {
        const bin = spec.build[0] === 'node' ? process.execPath : join(shared, 'node_modules/.bin', spec.build[0]);
        sh(bin, spec.build.slice(1), app, { NEXT_TELEMETRY_DISABLED: '1' });
      }
      const built = ((performance.now() - tb) / 1000).toFixed(1);
      const typechecked = spec.typecheck ? await typecheck(app, spec.typecheck) : '';
      // An app with a journey of its own (a CMS: its own server, sign-in, save and re-open) runs it:
      // journey.mjs's default export gets what it needs and answers a line for the log.
      if (spec.journey) {
        const { default: journey } = await import(pathToFileURL(join(app, spec.journey)).href);
        const said = await journey({ app, root, shared, installed, tarball, browser, createDevStack, video, log });
        return `built in ${built} s; ${said}`;
      }
      if (spec.serverRendered) {
        // Rendered on the server: the built HTML already holds the element's tag.
        const html = readFileSync(join(app, spec.out, 'index.html'), 'utf8');
        if (!html.includes(`<${spec.serverRendered}`))
          throw new Error(`the server-rendered page has no <${spec.serverRendered}>`);
        if (spec.dsd && !new RegExp(`<${spec.serverRendered}[^>]*><template shadowroot(mode)?="open"`).test(html))
          throw new Error('no declarative shadow DOM in the server-rendered page');
      }
      const served = await serve(join(app, spec.out ?? 'dist'), { '/cdn/': join(installed, 'cdn') }, spec.csp);
      try {
        const result = await drive(served.url + (spec.page ?? '/'), spec);
        return `built in ${built} s; ${typechecked}${result}`;
      } finally {
        await served.close();
      }
    });
  }
} catch (err) {
  await browser.close();
  throw err;
}

// ---- 5. the README's quick start, word for word ------------------------------------------------
if (!only.length || only.includes('quickstart')) {
  await check("the README's quick start (vite dev server with mediakitDev)", async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Quick start'),
      readme.indexOf('\n## ', readme.indexOf('## Quick start') + 5),
    );
    const block = (lang) => section.match(new RegExp('```' + lang + '\\n([\\s\\S]*?)```'))?.[1];
    const install =
      'npm install @mediakit/elements vite sharp @gltf-transform/core mediabunny @ffmpeg-installer/ffmpeg';
    if (!block('sh')?.includes(install))
      throw new Error(`the quick start no longer installs what this test installs: ${install}`);
    const app = join(shared, 'apps', 'quickstart');
    mkdirSync(app, { recursive: true });
    writeFileSync(join(app, 'vite.config.mjs'), block('js'));
    writeFileSync(join(app, 'index.html'), block('html'));
    const port = 5190 + Math.floor(Math.random() * 500);
    const vite = spawn(join(shared, 'node_modules/.bin/vite'), ['--port', String(port), '--strictPort'], {
      cwd: app,
      env: { ...process.env, MEDIAKIT_SANDBOX_SPEED: '600' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    vite.stdout.on('data', (c) => (out += c));
    vite.stderr.on('data', (c) => (out += c));
    try {
      const t = Date.now();
      while (!out.includes('mediakit proxy at') && Date.now() - t < 30_000)
        await new Promise((r) => setTimeout(r, 200));
      if (!out.includes('mediakit proxy at')) throw new Error(`vite did not start:\n${out}`);
      return await drive(`http://localhost:${port}/`, {});
    } finally {
      vite.kill();
    }
  });
}

await browser.close();
log(
  `${failures.length ? `FAILED: ${failures.join(', ')}` : 'all passed'} (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
);
process.exit(failures.length ? 1 : 0);

// ---- helpers -----------------------------------------------------------------------------------
/**
 * The app's types as its users' checker sees them (vue-tsc, svelte-check), from the installed
 * package: `pass` must exit 0 on the app; `fail` runs on a fixture that misuses the tags and must
 * exit non-zero with every message in `errors`, so a check that sees no types cannot pass.
 */
async function typecheck(app, { pass, fail, errors }) {
  // Both at once (each is a few seconds of one core).
  const run = ([cmd, ...args]) =>
    new Promise((done) => {
      const t = performance.now();
      const child = spawn(join(shared, 'node_modules/.bin', cmd), args, { cwd: app });
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (out += c));
      child.on('error', (error) => done({ status: null, error, out }));
      child.on('close', (status) => done({ status, out, s: ((performance.now() - t) / 1000).toFixed(1) }));
    });
  const [ok, bad] = await Promise.all([run(pass), run(fail)]);
  if (ok.status !== 0 || ok.error)
    throw new Error(`${pass.join(' ')} refused the app (exit ${ok.status}):\n${ok.out}${ok.error ?? ''}`);
  if (bad.error) throw bad.error;
  const missing = errors.filter((e) => !bad.out.includes(e));
  if (bad.status === 0 || missing.length) {
    throw new Error(
      `${fail.join(' ')} should have refused the fixture${bad.status === 0 ? ' (it exited 0)' : ''}${missing.length ? `; missing: ${missing.join(' | ')}` : ''}:\n${bad.out}`,
    );
  }
  return `${pass[0]} passed the app (${ok.s} s) and refused the wrong fixture with its ${errors.length} expected errors (${bad.s} s, at the same time); `;
}

function makeVideo() {
  const file = join(work, 'walk.mp4');
  let bin = 'ffmpeg';
  try {
    bin = createRequire(join(shared, 'x.js'))('@ffmpeg-installer/ffmpeg').path;
  } catch {
    // Debian's ffmpeg on PATH.
  }
  sh(
    bin,
    [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x240:rate=10',
      '-t',
      '2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-y',
      file,
    ],
    work,
  );
  return file;
}

/** The built app's files, the package's cdn folder at /cdn/, and the dev stack (proxy at /mediakit, sandbox at /sandbox). */
function serve(dir, mounts, csp) {
  const stack = createDevStack({ sandbox: { speed: 600 } });
  const server = createServer((req, res) => {
    stack.middleware(req, res, () => {
      const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
      const [prefix, base] = Object.entries(mounts).find(([p]) => path.startsWith(p)) ?? ['/', dir];
      let file = resolve(base, '.' + path.slice(prefix.length - 1));
      if (!file.startsWith(resolve(base))) return res.writeHead(403).end();
      if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
      if (!existsSync(file)) return res.writeHead(404).end('not found');
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      res.writeHead(200, {
        'content-type': type,
        ...(csp && type === 'text/html' ? { 'content-security-policy': csp } : {}),
      });
      createReadStream(file).pipe(res);
    });
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () =>
      ok({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((c) => server.close(c)) }),
    ),
  );
}

/** Opens the page, gives <video-to-3d-uploader> the video, confirms, and waits for `succeeded`. */
async function drive(url, { expect, csp, renders = [] }) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // A hydration mismatch is a console error in React (production builds name it by number).
  page.on(
    'console',
    (m) =>
      m.type() === 'error' && /hydrat|Minified React error #(418|423|425)/i.test(m.text()) && errors.push(m.text()),
  );
  // Init scripts come from the debugger protocol, outside the page's CSP.
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__violations.push(
        `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`,
      ),
    );
  });
  try {
    await page.goto(url);
    if (csp) {
      const isolated = await page.evaluate(() => [self.crossOriginIsolated, typeof SharedArrayBuffer]);
      if (isolated[0] !== false) throw new Error('the CSP page must not be cross-origin isolated');
    }
    for (const tag of renders) {
      await page
        .waitForFunction(
          (t) => customElements.get(t) && document.querySelector(t)?.shadowRoot?.children.length > 0,
          tag,
          { timeout: 20_000 },
        )
        .catch(() => {
          throw new Error(`<${tag}> did not render`);
        });
    }
    await page.waitForFunction(
      () => customElements.get('video-to-3d-uploader') && document.querySelector('video-to-3d-uploader')?.shadowRoot,
      null,
      { timeout: 30_000 },
    );
    await page.locator('video-to-3d-uploader input[type=file]').setInputFiles(video);
    await page.waitForFunction(() => document.querySelector('video-to-3d-uploader').status === 'ready', null, {
      timeout: 30_000,
    });
    await page.locator('video-to-3d-uploader [part~="primary-button"]').click();
    const deadline = Date.now() + 60_000;
    let status;
    while (Date.now() < deadline) {
      status = await page.evaluate(() => document.querySelector('video-to-3d-uploader').status);
      if (status === 'succeeded' || status === 'failed' || status === 'expired') break;
      await page.evaluate(() =>
        fetch('/sandbox/__sandbox/clock', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ advance_ms: 60_000 }),
        }),
      );
      await page.waitForTimeout(500);
    }
    if (status !== 'succeeded') throw new Error(`the uploader ended ${status}`);
    // Every string is a sentence, never a dictionary key (a bundler that drops the modules that
    // register the translations leaves keys such as "vtSucceeded" on screen).
    const keys = await page.evaluate(() =>
      document.querySelector('video-to-3d-uploader').shadowRoot.textContent.match(/\b[a-z]{2,3}[A-Z][A-Za-z]+\b/g),
    );
    if (keys) throw new Error(`untranslated keys on screen: ${[...new Set(keys)].join(', ')}`);
    if (expect) await page.locator(expect).waitFor({ timeout: 10_000 });
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    if (csp) {
      await page.waitForTimeout(1000);
      const violations = await page.evaluate(() => window.__violations);
      if (violations.length) throw new Error(`CSP violations: ${violations.join('; ')}`);
    }
    return `${renders.length ? `${renders.length} elements rendered, ` : ''}${csp ? 'no CSP violation, ' : ''}the uploader reached succeeded${expect ? `, and the app saw mk-succeeded (${expect})` : ''}`;
  } finally {
    await page.close();
  }
}
