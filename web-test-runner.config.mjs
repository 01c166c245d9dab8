// Browser tests in Debian's Chromium through playwright-core (no browser download), TypeScript
// through esbuild with our tsconfig (Lit decorators need it), and the sandbox mounted in the test
// server itself (the proxy at /mediakit, the sandbox at /sandbox: the same stack as `npm start`),
// so tests talk real HTTP to both. Run through scripts/test.mjs, which registers tsx so this file
// can import the TypeScript stack.
//
// The stacks' control planes (/sandbox*/__sandbox, /sandbox*/__dev) answer only pages that carry
// the dev token cookie, which grantDevCookie below gives every test page as it loads.
//
// Two more stacks, each owned by one test file so its ledger checks see only its own charges:
// /mk-short (sandbox /sandbox-short; test/client) has 2-second session tokens; /mk-jobs (sandbox
// /sandbox-jobs; test/jobs) shares its account balance. Test-only routes: /__test/account?stack=NAME names the sandbox account
// behind a stack (for its ledger and faults) and /__fixtures/video makes a small H.264 video with
// ffmpeg (test/fixtures/media.ts), /__fixtures/phone?name=NAME serves a phone-media corpus clip (test/fixtures/phone-media.ts), /__fixtures/splat?asset=NAME&to=ksplat|spz|spz-v3 converts a shared
// splat asset with maintained tools (test/fixtures/splat-convert.ts), /__fixtures/held-ply serves a PLY
// that stops part-way until the test releases it, /__fixtures/photo?name=NAME serves a phone-photo
// corpus file (test/fixtures/phone-photos.ts), /__fixtures/draco?asset=NAME
// Draco-compresses a shared GLB with Google's encoder (test/fixtures/draco.ts); /__assets/NAME serves ../shared/assets and /__test/inspect?asset=NAME
// reports a GLB's statistics by @gltf-transform/functions' inspect().
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { CHROMIUM_ARGS, findChromium } from './scripts/chromium.mjs';
import { watchedPage } from './scripts/page-watch.mjs';
import { createDevStack } from './src/dev/index.ts';
import { readFile } from 'node:fs/promises';
import { inspectStats } from './test/fixtures/inspect.ts';
import { makeVideo } from './test/fixtures/media.ts';
import { PHONE_CLIPS, phoneClipBytes } from './test/fixtures/phone-media.ts';
import { PHONE_PHOTOS, phonePhotoBytes } from './test/fixtures/phone-photos.ts';
import { convertSplat } from './test/fixtures/splat-convert.ts';
import { dracoGlb } from './test/fixtures/draco.ts';
import { hostileEndpoint } from './test/fixtures/hostile-endpoint.ts';
import { adminPages } from './test/fixtures/admin-pages.ts';
import { ballPly } from './test/fixtures/splats.ts';

const execFileAsync = promisify(execFile);
const ASSETS = fileURLToPath(new URL('../shared/assets/', import.meta.url));
const assetName = (name) => (/^[A-Za-z0-9._-]+$/.test(name ?? '') ? name : undefined);

const artifacts = { turntableFrames: 12, turntableSize: 128 };
const stacks = {
  mediakit: createDevStack({ sandbox: { speed: 60, artifacts }, budget: 10_000 }),
  'mk-short': createDevStack({
    basePath: '/mk-short',
    sandboxPath: '/sandbox-short',
    sandbox: { speed: 60, artifacts },
    budget: 10_000,
    proxy: { tokenTtlSeconds: 2 },
  }),
  'mk-jobs': createDevStack({
    basePath: '/mk-jobs',
    sandboxPath: '/sandbox-jobs',
    sandbox: { speed: 60, artifacts },
    budget: 10_000,
    proxy: { exposeAccountBalance: true },
  }),
  // One stack per element test file, so faults and ledgers are that file's own.
  'mk-video': createDevStack({
    basePath: '/mk-video',
    sandboxPath: '/sandbox-video',
    sandbox: { speed: 1, artifacts },
    budget: 10_000,
  }),
  // The phone-media corpus made to fit (test/components/video-fit): its own ledger.
  'mk-fit': createDevStack({
    basePath: '/mk-fit',
    sandboxPath: '/sandbox-fit',
    sandbox: { speed: 60, artifacts },
    budget: 10_000,
  }),
  'mk-kit': createDevStack({
    basePath: '/mk-kit',
    sandboxPath: '/sandbox-kit',
    sandbox: { speed: 1, artifacts },
    budget: 10_000,
  }),
  'mk-model': createDevStack({
    basePath: '/mk-model',
    sandboxPath: '/sandbox-model',
    sandbox: { speed: 60, artifacts },
    budget: 10_000,
    // One test visitor makes more charged calls a minute than the proxy's default of 30 on a fast
    // machine; the 429 tests arm the sandbox's fault instead.
    proxy: { rateLimits: { create: { limit: 600, windowSeconds: 60 } } },
  }),
  'mk-headshot': createDevStack({
    basePath: '/mk-headshot',
    sandboxPath: '/sandbox-headshot',
    sandbox: { speed: 60, artifacts },
    budget: 10_000,
    // One test visitor makes more charged calls a minute than the proxy's default of 30 on a fast
    // machine; the 429 tests arm the sandbox's fault instead.
    proxy: { rateLimits: { create: { limit: 600, windowSeconds: 60 } } },
  }),
  'mk-bg': createDevStack({
    basePath: '/mk-bg',
    sandboxPath: '/sandbox-bg',
    sandbox: { speed: 60, artifacts },
    budget: 10_000,
    // One test visitor makes more charged calls a minute than the proxy's default of 30 on a fast
    // machine; the 429 tests arm the sandbox's fault instead.
    proxy: { rateLimits: { create: { limit: 600, windowSeconds: 60 } } },
  }),
  'mk-badge': createDevStack({
    basePath: '/mk-badge',
    sandboxPath: '/sandbox-badge',
    sandbox: { speed: 60, artifacts },
    budget: 100,
  }),
  // Behind /mk-hostile (test/components/hostile-links): answers whose *_url fields are javascript: links.
  'mk-links': createDevStack({
    basePath: '/mk-links',
    sandboxPath: '/sandbox-links',
    sandbox: { speed: 60, artifacts },
    budget: 10_000,
  }),
  // Field mode across documents (test/components/field-documents): its own job list and ledger.
  'mk-field': createDevStack({
    basePath: '/mk-field',
    sandboxPath: '/sandbox-field',
    // Jobs wait for the test's clock: a job left running stays running while other documents open.
    sandbox: { speed: 1, artifacts },
    budget: 10_000,
  }),
  // A stack whose sessions have almost nothing left (402 before any upload).
  'mk-poor': createDevStack({
    basePath: '/mk-poor',
    sandboxPath: '/sandbox-poor',
    sandbox: { speed: 60, artifacts },
    budget: 5,
  }),
};

/** Downloads held part-way by /__fixtures/held-ply until the test releases them. */
const held = new Map();

/**
 * mediabunny's Node-only module (its package.json "browser" field maps it to nothing; the dev
 * server's resolver does not read that field), served empty to the browser: it imports node:fs.
 */
const mediabunnyInBrowser = {
  name: 'mediabunny-in-browser',
  serve(context) {
    if (context.path.endsWith('/mediabunny/dist/modules/src/node.js')) return { body: 'export {};', type: 'js' };
  },
};

/** Test-only routes (Koa). */
async function testRoutes(ctx, next) {
  // A PLY (ballPly(n), SH degree `sh`) whose download stops after `first` of its bytes until
  // /__fixtures/held-ply/release?id=ID (test/viewers/splat-stream: a scene shown while it downloads).
  if (ctx.path === '/__fixtures/held-ply' && /^\w{1,40}$/.test(ctx.query.id ?? '')) {
    const n = Math.max(1, Math.min(200_000, Number(ctx.query.n) || 1000));
    const sh = [0, 1, 2, 3].includes(Number(ctx.query.sh)) ? Number(ctx.query.sh) : 0;
    const bytes = ballPly(n, undefined, sh);
    const first = Math.floor(bytes.byteLength * Math.max(0, Math.min(1, Number(ctx.query.first) || 0.25)));
    // Written to the socket itself: the dev server reads a stream body whole before it sends it.
    ctx.respond = false;
    ctx.res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(bytes.byteLength),
      'cache-control': 'no-store',
    });
    ctx.res.write(bytes.subarray(0, first));
    held.set(ctx.query.id, () => ctx.res.end(bytes.subarray(first)));
    return;
  }
  if (ctx.path === '/__fixtures/held-ply/release') {
    const release = held.get(ctx.query.id);
    held.delete(ctx.query.id);
    release?.();
    ctx.body = { released: !!release };
    return;
  }
  if (ctx.path === '/__test/account') {
    const stack = stacks[ctx.query.stack ?? 'mediakit'];
    ctx.body = { account_id: stack ? await stack.account : null };
    return;
  }
  // The shared real-world assets (GLB, PLY), and what @gltf-transform's inspect() says of a GLB.
  if (ctx.path.startsWith('/__assets/') && assetName(ctx.path.slice(10))) {
    const bytes = await readFile(ASSETS + ctx.path.slice(10)).catch(() => undefined);
    if (!bytes) return next();
    ctx.type = 'application/octet-stream';
    ctx.body = bytes;
    return;
  }
  if (ctx.path === '/__test/inspect' && assetName(ctx.query.asset)) {
    ctx.body = await inspectStats(new Uint8Array(await readFile(ASSETS + ctx.query.asset)));
    return;
  }
  // What a submitted <form> carried (test/components/bg-tool): each part's name, type and size.
  if (ctx.path === '/__test/echo-form' && ctx.method === 'POST') {
    const chunks = [];
    for await (const c of ctx.req) chunks.push(c);
    const form = await new Response(Buffer.concat(chunks), {
      headers: { 'content-type': ctx.get('content-type') },
    }).formData();
    ctx.body = {
      parts: [...form].map(([name, v]) =>
        typeof v === 'string' ? { name, value: v } : { name, filename: v.name, type: v.type, size: v.size },
      ),
    };
    return;
  }
  if (
    ctx.path === '/__fixtures/splat' &&
    assetName(ctx.query.asset) &&
    ['ksplat', 'spz', 'spz-v3'].includes(ctx.query.to)
  ) {
    ctx.type = 'application/octet-stream';
    ctx.body = Buffer.from(await convertSplat(ctx.query.asset, ctx.query.to));
    return;
  }
  if (ctx.path === '/__fixtures/draco' && assetName(ctx.query.asset)) {
    ctx.type = 'application/octet-stream';
    ctx.body = Buffer.from(await dracoGlb(new Uint8Array(await readFile(ASSETS + ctx.query.asset)), ctx.query.asset));
    return;
  }
  // The phone-media corpus (test/fixtures/phone-media.ts), made once by the system's ffmpeg.
  if (
    ctx.path === '/__fixtures/phone' &&
    (Object.hasOwn(PHONE_CLIPS, ctx.query.name ?? '') || ctx.query.name === 'truncated.mp4')
  ) {
    ctx.type = ctx.query.name.endsWith('.mov') ? 'video/quicktime' : 'video/mp4';
    ctx.body = Buffer.from(await phoneClipBytes(ctx.query.name));
    return;
  }
  // The phone-photo corpus (test/fixtures/phone-photos.ts), made once by sharp and heif-enc.
  if (ctx.path === '/__fixtures/photo' && Object.hasOwn(PHONE_PHOTOS, ctx.query.name ?? '')) {
    ctx.type = 'application/octet-stream';
    ctx.body = Buffer.from(await phonePhotoBytes(ctx.query.name));
    return;
  }
  // A tag's idle state rendered on the server (test/fixtures/ssr-render.ts), for hydration tests.
  if (ctx.path === '/__test/ssr' && /^[a-z]+(-[a-z0-9]+)+$/.test(ctx.query.tag ?? '')) {
    const { stdout } = await execFileAsync(
      process.execPath,
      ['--import', 'tsx', 'test/fixtures/ssr-render.ts', ctx.query.tag, ctx.query.attrs ?? ''],
      { encoding: 'utf8', cwd: fileURLToPath(new URL('.', import.meta.url)), maxBuffer: 16 * 1024 * 1024 },
    );
    ctx.type = 'text/html';
    ctx.body = stdout;
    return;
  }
  if (ctx.path === '/__fixtures/video') {
    const n = (name, fallback) => Math.max(1, Math.min(4096, Number(ctx.query[name] ?? fallback) || fallback));
    ctx.type = ctx.query.container === 'mov' ? 'video/quicktime' : 'video/mp4';
    ctx.body = Buffer.from(
      await makeVideo({
        seconds: n('seconds', 2),
        width: n('width', 64),
        height: n('height', 64),
        fps: n('fps', 5),
        container: ctx.query.container === 'mov' ? 'mov' : 'mp4',
      }),
    );
    return;
  }
  return next();
}

/**
 * The test pages are the dev stacks' own pages: they get the dev token cookie as they load (the
 * stacks' control plane, __sandbox and __dev, answers nothing else). The stacks only see the paths
 * mounted below, so the test server gives it on every document request. One token serves every
 * stack in this process.
 */
function grantDevCookie(ctx, next) {
  stacks.mediakit.grantDevCookie(ctx.req, ctx.res);
  return next();
}

/**
 * Module scripts for opaque-origin frames (test/jobs/no-storage: `<iframe sandbox="allow-scripts">`):
 * their requests say `Origin: null` and are cross-origin, so the test server's own files (never the
 * stacks, whose CORS is under test) are served to them with `Access-Control-Allow-Origin: *`.
 */
function corsForOpaqueFrames(ctx, next) {
  if (ctx.get('origin') === 'null' && ctx.method === 'GET' && !/^\/(mk-|mediakit|sandbox)/.test(ctx.path))
    ctx.set('access-control-allow-origin', '*');
  return next();
}

/** Koa middleware around the connect one: the stack answers /mediakit/* and /sandbox/*, the test server the rest. */
function mount(middleware, prefixes) {
  return (ctx, next) =>
    new Promise((resolve, reject) => {
      const path = ctx.path;
      if (!prefixes.some((p) => path === p || path.startsWith(p + '/'))) return resolve(next());
      ctx.respond = false;
      ctx.res.once('finish', resolve);
      ctx.res.once('close', resolve);
      middleware(ctx.req, ctx.res, (err) => reject(err ?? new Error('unreachable')));
    });
}

export default {
  nodeResolve: { exportConditions: ['browser', 'development'] },
  concurrency: 2,
  // The whole browser run (625 s in a fresh-clone CI with issue 21's tests): the element journeys run real jobs.
  testsFinishTimeout: 1_200_000,
  testFramework: { config: { timeout: 20_000 } },
  // test/fixtures/report-guard.ts first: a failed assertion on a DOM node is reported, not a hang.
  testRunnerHtml: (testFramework) =>
    `<!DOCTYPE html><html><body><script type="module" src="/test/fixtures/report-guard.ts"></script>` +
    `<script type="module" src="${testFramework}"></script></body></html>`,
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath: process.env.CHROME_PATH ?? findChromium(),
        args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
      },
      // Says when a page crashes, opens a dialog or freezes, and where (scripts/page-watch.mjs).
      createPage: (args) => watchedPage(args),
    }),
  ],
  middleware: [
    corsForOpaqueFrames,
    grantDevCookie,
    testRoutes,
    // The site's own admin pages (test/components/saved-value-security): /admin/*, /__test/admin-hits.
    adminPages(),
    mount(stacks.mediakit.middleware, ['/mediakit', '/sandbox']),
    mount(stacks['mk-short'].middleware, ['/mk-short', '/sandbox-short']),
    mount(stacks['mk-jobs'].middleware, ['/mk-jobs', '/sandbox-jobs']),
    hostileEndpoint('/mk-hostile', '/mk-links'),
    ...['video', 'fit', 'kit', 'model', 'headshot', 'bg', 'badge', 'poor', 'links', 'field'].map((n) =>
      mount(stacks[`mk-${n}`].middleware, [`/mk-${n}`, `/sandbox-${n}`]),
    ),
  ],
  plugins: [
    mediabunnyInBrowser,
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) }),
  ],
};
