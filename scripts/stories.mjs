// Opens every story of the built Storybook (storybook-static) in Chromium, served by a plain static
// file server with nothing behind it: the stories reach their states through the playground (the
// proxy and the sandbox in a Service Worker, src/playground), as on any static host. It fails on a
// console error, an uncaught exception, a failed request (any 404 at all), or an axe violation of
// serious or critical impact in the rendered story. Then it walks every story in turn in one page,
// as a designer clicks through the sidebar, and fails where a story shows another story's job.
// Each story is also photographed (./story-pixels.mjs) and compared with its baseline in
// test/stories-baselines. Run after `npm run build-storybook`:
//   node --import tsx scripts/stories.mjs [filter]
//   node --import tsx scripts/stories.mjs --update [filter]   (npm run test:stories -- --update)
// --update writes the baselines of the screenshots that differ (and, without a filter, deletes
// those of stories that are gone), then passes; it leaves out the walk.
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from './chromium.mjs';
import { Pixels } from './story-pixels.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const staticDir = join(root, 'storybook-static');
const UPDATE = process.argv.includes('--update');
const filter = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? '';
const SETTLE_MS = Number(process.env['STORY_SETTLE_MS'] ?? 2500);
// STORY_SHOTS=<folder>: a full-page PNG of each story and docs page, to look at; with
// STORY_LOCALE=ar (any toolbar language), STORY_WIDTH=390 and STORY_SCHEME=dark for the others.
const SHOTS = process.env['STORY_SHOTS'];
const LOCALE = process.env['STORY_LOCALE'];
const WIDTH = Number(process.env['STORY_WIDTH'] ?? 1000);
const SCHEME = process.env['STORY_SCHEME'] === 'dark' ? 'dark' : 'light';
if (SHOTS) mkdirSync(SHOTS, { recursive: true });
const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.md': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.mp4': 'video/mp4',
  '.woff2': 'font/woff2',
  '.glb': 'model/gltf-binary',
  '.ply': 'application/octet-stream',
  '.splat': 'application/octet-stream',
};

if (!existsSync(join(staticDir, 'index.json'))) {
  console.error('stories: no storybook-static (run npm run build-storybook first)');
  process.exit(1);
}

// Story names that are element states (the element's `status` or a custom state).
const STATES = [
  'idle',
  'ready',
  'working',
  'processing',
  'succeeded',
  'failed',
  'partial',
  'loading',
  'loaded',
  'offline',
  'low',
];
// The playground's proxy routes: their error answers are what the error stories show (402, 429, a
// refused video), and the sandbox's control plane (credit-badge's Failed story points at it). A 404
// is never one of them: a file, model or job that is not there is a defect wherever it comes from.
const API = /^\/(mediakit|mediakit-poor|sandbox)(\/|$)/;
if (!existsSync(join(staticDir, 'playground-sw.js'))) {
  console.error('stories: storybook-static has no playground-sw.js (build it again: npm run build-storybook)');
  process.exit(1);
}
// A plain static file server: files of storybook-static, else 404. The build copies its static
// folders (demo media, the shared assets) and the playground's worker into it.
const server = createServer((req, res) => {
  const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
  const file = normalize(join(staticDir, path.endsWith('/') ? path + 'index.html' : path));
  if (!file.startsWith(staticDir) || !existsSync(file) || !statSync(file).isFile())
    return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}`;

const index = JSON.parse(readFileSync(join(staticDir, 'index.json'), 'utf8'));
// Every story, and every docs page (autodocs from the manifest, the quick start).
// A filter may list several parts of story ids, comma-separated (`bg-tool--idle,badge--low`).
const stories = Object.values(index.entries).filter(
  (e) => (e.type === 'story' || e.type === 'docs') && filter.split(',').some((f) => e.id.includes(f)),
);
const axe = readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
const failures = [];
const started = Date.now();
// STORY_PIXELS=0 leaves the screenshots out (a quick look at one story's console and axe).
const pixels =
  process.env['STORY_PIXELS'] === '0'
    ? undefined
    : new Pixels({
        root,
        update: UPDATE,
        ids: stories.filter((s) => s.type === 'story').map((s) => s.id),
        filtered: !!filter,
      });

async function check(story) {
  // A fresh browser context per story: its own session, IndexedDB, job list and playground (worker,
  // sandbox and clock), so a job one story started never shows up in another (two run at a time).
  const context = await browser.newContext({ viewport: { width: WIDTH, height: 800 }, colorScheme: SCHEME });
  const page = await context.newPage();
  // Each problem is kept with the document it came from: a fresh context is the browser's first
  // visit, where the playground registers its worker and reloads the preview once, as the worker
  // takes it. What the first document logged before that reload is not the story's.
  let documents = 0;
  const found = [];
  const problem = (text) => found.push({ document: documents, text });
  page.on('request', (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) documents++;
  });
  // Chromium logs every non-2xx response as a console error. A story about an API error (402,
  // 429, a refused video) shows the proxy's answer on purpose; any other failed request (a missing
  // module, image or asset) is a defect.
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource:')) problem(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    const { pathname } = new URL(r.url());
    if (r.status() === 404 || (r.status() >= 400 && !API.test(pathname))) problem(`HTTP ${r.status()}: ${pathname}`);
  });
  page.on('pageerror', (e) => problem(`uncaught: ${e.message}`));
  const docs = story.type === 'docs';
  const root = docs ? '#storybook-docs' : '#storybook-root';
  await page.goto(
    `${url}/iframe.html?id=${story.id}&viewMode=${docs ? 'docs' : 'story'}${LOCALE ? `&globals=locale:${LOCALE}` : ''}`,
  );
  // The story is judged on the page the worker controls, once the playground has started there.
  const controlled = async () => {
    for (const end = Date.now() + 30_000; Date.now() < end; await page.waitForTimeout(100)) {
      // A page the worker has just taken also answers yes for a moment, until the playground
      // reloads it: that destroys the context, and the new page is asked again.
      const refused = await page
        .evaluate(() =>
          navigator.serviceWorker.controller !== null && 'mediakitPlayground' in globalThis
            ? globalThis.mediakitPlayground.then(
                () => null,
                (e) => String(e),
              )
            : false,
        )
        .catch(() => false);
      if (refused !== false) return refused;
    }
    return 'the playground never took the page (no Service Worker controls it)';
  };
  const refused = await controlled().catch((e) => `the playground did not start: ${e.message}`);
  const current = documents;
  const problems = [];
  const judged = () => found.filter((p) => p.document === current).map((p) => p.text);
  if (refused) problems.push(refused);
  if (current > 2)
    problems.push(`the preview loaded ${current} times (the playground reloads it once, on the first visit)`);
  // A story named after a state (Succeeded, Failed, Processing, Ready, Loaded, Offline, ...) is
  // checked in that state: an element in it must reach it (its `status`, or `:state()`).
  const state = docs ? undefined : STATES.find((s) => story.id.endsWith(`--${s}`));
  if (state) {
    await page
      .waitForFunction(
        ({ root, state }) =>
          [...document.querySelectorAll(`${root} *`)].some(
            (el) => el.localName.includes('-') && (el.status === state || el.matches(`:state(${state})`)),
          ),
        { root, state },
        { timeout: 60_000, polling: 200 },
      )
      .catch(() => problems.push(`the story never reached its state "${state}"`));
  }
  await page.waitForTimeout(SETTLE_MS);
  await page.addScriptTag({ content: axe });
  // On a docs page, Storybook's own controls table (its radio and toggle inputs) and the scrolling
  // frame it puts around each story are not ours: the elements inside are checked in full on
  // their story pages.
  const violations = await page.evaluate(
    async ({ root, docs }) => {
      const context = docs ? { include: [root], exclude: ['.docblock-argstable'] } : root;
      const options = {
        resultTypes: ['violations'],
        ...(docs ? { rules: { 'scrollable-region-focusable': { enabled: false } } } : {}),
      };
      const r = await globalThis.axe.run(context, options);
      return r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => {
          const n = v.nodes[0];
          return `${v.id} (${v.impact}): ${v.nodes.length} node(s), ${n?.target.join(' ')}\n         ${n?.html.slice(0, 160)}\n         ${n?.failureSummary?.split('\n')[1]?.trim() ?? ''}`;
        });
    },
    { root, docs },
  );
  problems.push(...violations.map((v) => `axe: ${v}`));
  if (documents !== current) problems.push('the preview reloaded while the story was shown');
  problems.unshift(...judged());
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${story.id}.png`), fullPage: true });
  if (pixels && !docs) problems.push(...(await pixels.check(page, story.id)));
  await context.close();
  return problems;
}

async function run(queue, workers) {
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let story = queue.shift(); story; story = queue.shift()) {
        const problems = await check(story);
        console.log(
          `${problems.length ? 'FAIL' : 'ok  '} ${story.id}${problems.length ? '\n       ' + problems.join('\n       ') : ''}`,
        );
        if (problems.length) failures.push(story.id);
      }
    }),
  );
}
// In one browser every story shares the playground's one account and clock (as in Storybook
// itself). A story tagged 'sandbox-state' arms a fault or moves the clock, which any other story's
// job would see (take the fault, or jump past the state it shows). Here each story has a fresh
// context, so its own worker and sandbox, but those stories still run alone: they wait on the
// clock and the worker's video work, and a second story beside them on a small machine makes them
// slow to reach their state. The others run two at a time.
const alone = (s) => s.tags?.includes('sandbox-state');
await run(stories.filter(alone), 1);
await run(
  stories.filter((s) => !alone(s)),
  2,
);

// A designer's walk through the sidebar: every story in turn in ONE preview page (one browser, one
// playground, one job store), switched as Storybook's sidebar switches them, without a reload.
// Each story must start clean: an element showing a job that was created before the story began
// (another story's, resumed from the job store) fails, with the text it shows.
async function walk(queue) {
  if (!queue.length) return;
  const context = await browser.newContext({ viewport: { width: WIDTH, height: 800 }, colorScheme: SCHEME });
  const page = await context.newPage();
  let current = queue[0].id;
  const extra = new Map();
  const note = (text) => extra.set(current, [...(extra.get(current) ?? []), text]);
  page.on('response', (r) => {
    if (r.status() === 404) note(`HTTP 404: ${new URL(r.url()).pathname}`);
  });
  page.on('pageerror', (e) => note(`uncaught: ${e.message}`));
  // The walk starts on a page with no element (the introduction), so the first story is switched to as well.
  const start = Object.values(index.entries).find((e) => e.type === 'docs' && /introduction/i.test(e.id));
  await page.goto(`${url}/iframe.html?id=${start?.id ?? queue[0].id}&viewMode=${start ? 'docs' : 'story'}`);
  await page.waitForFunction(
    () => navigator.serviceWorker.controller !== null && '__STORYBOOK_ADDONS_CHANNEL__' in globalThis,
    null,
    { timeout: 30_000 },
  );
  await page.waitForTimeout(1000);
  for (const story of queue) {
    current = story.id;
    const shown = await page.evaluate(
      async ({ id, settle }) => {
        const channel = globalThis.__STORYBOOK_ADDONS_CHANNEL__;
        const began = Date.now();
        const rendered = new Promise((resolve) => {
          const done = (e) => {
            if ((e?.storyId ?? e) !== id) return;
            channel.off('storyRendered', done);
            channel.off('storyErrored', done);
            resolve();
          };
          channel.on('storyRendered', done);
          channel.on('storyErrored', done);
          setTimeout(resolve, 20_000);
        });
        channel.emit('setCurrentStory', { storyId: id, viewMode: 'story' });
        await rendered;
        await new Promise((r) => setTimeout(r, settle));
        // Every custom element of the story, into shadow roots (a viewer inside an element too).
        const all = [];
        const visit = (root) => {
          for (const el of root.querySelectorAll('*')) {
            if (el.localName.includes('-')) all.push(el);
            if (el.shadowRoot) visit(el.shadowRoot);
          }
        };
        visit(document.querySelector('#storybook-root') ?? document);
        const textOf = (el) => {
          const parts = [];
          const read = (n) => {
            if (n.nodeType === Node.TEXT_NODE) parts.push(n.textContent);
            for (const c of n.shadowRoot ? n.shadowRoot.childNodes : []) read(c);
            for (const c of n.childNodes) read(c);
          };
          read(el);
          return parts.join(' ').replace(/\s+/g, ' ').trim();
        };
        return all
          .map((el) => ({ tag: el.localName, job: el.job }))
          .filter(({ job }) => job && typeof job.createdAt === 'number' && job.createdAt < began)
          .map(({ tag, job }) => {
            const el = all.find((e) => e.job === job);
            return `<${tag}> shows a job from another story (${job.status}, progress ${job.progress}, created ${((began - job.createdAt) / 1000).toFixed(1)} s before this story): "${textOf(el).slice(0, 140)}"`;
          });
      },
      { id: story.id, settle: 1500 },
    );
    const problems = [...shown, ...(extra.get(story.id) ?? [])];
    console.log(
      `${problems.length ? 'FAIL' : 'ok  '} walk ${story.id}${problems.length ? '\n       ' + problems.join('\n       ') : ''}`,
    );
    if (problems.length) failures.push(`walk ${story.id}`);
  }
  await context.close();
}
// STORY_WALK=0 leaves the walk out (a quick look at one story).
if (process.env['STORY_WALK'] !== '0' && !UPDATE) await walk(stories.filter((s) => s.type === 'story'));
if (pixels) {
  const problems = pixels.finish();
  for (const p of problems) console.log(`FAIL pixels: ${p}`);
  if (problems.length) failures.push('pixels');
}

await browser.close();
server.closeAllConnections?.();
server.close();
console.log(
  `\nstories: ${failures.length ? `FAIL ${failures.join(', ')}` : `${stories.length} of ${stories.length} clean`} (no console error, no uncaught exception, no 404, axe 0 serious or critical; ${pixels ? (UPDATE ? 'screenshots written to test/stories-baselines; ' : 'screenshots match test/stories-baselines; ') : ''}then every story in turn in one page, none showing another story's job) in ${Math.round((Date.now() - started) / 1000)} s`,
);
process.exit(failures.length ? 1 : 0);
