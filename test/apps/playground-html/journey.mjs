// The one-file playground (README "Try it with no server", demo/playground.html), word for word
// from the packed package's README, saved in a copy of the package's cdn/ folder and served by a
// plain static file server: no proxy, no sandbox, no Node behind the page. In Chromium, all five
// elements work through the playground's Service Worker: the credit badge, a background removal,
// a headshot batch, a 3D model from a prompt (its turntable encoded by the page for the worker)
// and a walkthrough video to its scene, with the pretend ledger charged exactly once for each.
import { cpSync, createReadStream, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve } from 'node:path';

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

function staticServer(dir) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
    // The browser's own favicon request is not the page's: no 404 for it in the console.
    if (path === '/favicon.ico') return res.writeHead(204).end();
    let file = resolve(dir, '.' + path);
    if (!file.startsWith(resolve(dir))) return res.writeHead(403).end();
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) return res.writeHead(404).end('not found');
    // As static hosts do (GitHub Pages, Netlify): a sandboxed iframe's opaque origin loads modules in CORS mode.
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'access-control-allow-origin': '*',
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () =>
      ok({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((c) => server.close(c)) }),
    ),
  );
}

export default async function journey({ app, root, installed, browser, video, log }) {
  const readme = readFileSync(join(installed, 'README.md'), 'utf8');
  const start = readme.indexOf('## Try it with no server');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 5));
  const html = /```html\n([\s\S]*?)```/.exec(section)?.[1];
  if (!html) throw new Error('the README has no one-file playground under "Try it with no server"');
  if (html !== readFileSync(join(root, 'demo/playground.html'), 'utf8'))
    throw new Error("the README's one-file playground differs from demo/playground.html");
  const site = join(app, 'site');
  cpSync(join(installed, 'cdn'), site, { recursive: true });
  writeFileSync(join(site, 'index.html'), html);
  writeFileSync(
    join(site, 'framed.html'),
    '<!doctype html><title>framed</title><iframe sandbox="allow-scripts" src="index.html" style="width:1200px;height:860px"></iframe>',
  );
  const served = await staticServer(site);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  let loads = 0;
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text() + ' ' + (m.location()?.url ?? '')));
  // The first visit is not reloaded: the elements' first calls wait until the worker has taken the page.
  page.on('framenavigated', (f) => f === page.mainFrame() && ++loads);
  try {
    await page.goto(served.url + '/');
    await page.waitForFunction(() => navigator.serviceWorker.controller, null, { timeout: 60_000 });
    await page.waitForFunction(() => globalThis.mediakitPlayground, null, { timeout: 30_000 });
    const inTab = await page.evaluate(async () => (await globalThis.mediakitPlayground).runs);
    if (inTab !== 'worker') throw new Error(`in a tab the playground runs in the ${inTab}, not the worker`);
    if (loads !== 1) throw new Error(`the first visit loaded the page ${loads} times`);
    const charged = await fiveElements(page, video);
    if (errors.length) throw new Error(`console errors: ${errors.join(' | ').slice(0, 500)}`);

    // The same page in an opaque-origin iframe (sandbox="allow-scripts", as code playgrounds frame
    // examples): no Service Worker is allowed there, so the page runs the proxy and the sandbox itself.
    const framed = await context.newPage();
    const frameErrors = [];
    framed.on('pageerror', (e) => frameErrors.push(String(e)));
    framed.on('console', (m) => m.type() === 'error' && frameErrors.push(m.text()));
    await framed.goto(served.url + '/framed.html');
    const frame = await waitForFrame(framed);
    await frame.waitForFunction(() => globalThis.mediakitPlayground, null, { timeout: 30_000 });
    const runs = await frame.evaluate(async () => (await globalThis.mediakitPlayground).runs);
    if (runs !== 'page') throw new Error(`in a sandboxed iframe the playground runs in the ${runs}, not the page`);
    const inFrame = await fiveElements(frame, video);
    if (frameErrors.length)
      throw new Error(`console errors in the sandboxed iframe: ${frameErrors.join(' | ').slice(0, 500)}`);
    log(
      `playground: five elements from a static server, ${charged} pretend credits; in a sandboxed iframe, in the page, ${inFrame}`,
    );
    return `five elements working from a plain static server through the Service Worker (the model's turntable encoded by the page for the worker), charged ${charged} pretend credits once each, and again in an opaque-origin iframe with the playground in the page (${inFrame} credits), no console error`;
  } finally {
    await context.close();
    await served.close();
  }
}

/** The iframe of framed.html, once its document is the playground page. */
async function waitForFrame(page) {
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    const frame = page.frames().find((f) => f !== page.mainFrame() && f.url().endsWith('/index.html'));
    if (frame) return frame;
    await page.waitForTimeout(100);
  }
  throw new Error('framed.html shows no playground page');
}

/**
 * All five elements in `frame` (a page or an iframe): the mark, a badge with the day's pretend
 * budget, a background removal whose image shows, a headshot batch, a 3D model from a prompt with
 * its turntable, a walkthrough video to its scene, shown in its viewer. Answers the pretend credits charged.
 */
async function fiveElements(frame, video) {
  const mark = await frame.evaluate(() => getComputedStyle(document.querySelector('bg-tool'), '::before').content);
  if (!mark.includes('nothing is charged')) throw new Error(`no playground mark on the elements: ${mark}`);
  await frame.waitForFunction(
    () => /2,000/.test(document.querySelector('credit-badge')?.shadowRoot?.textContent ?? ''),
    null,
    { timeout: 30_000 },
  );
  const before = await frame.evaluate(async () => (await (await globalThis.mediakitPlayground).ledger()).balance);

  // A photo with a subject: a dark figure on a light backdrop.
  await frame.evaluate(async () => {
    const canvas = new OffscreenCanvas(480, 640);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#e9ecef';
    ctx.fillRect(0, 0, 480, 640);
    ctx.fillStyle = '#7a4a32';
    ctx.beginPath();
    ctx.ellipse(240, 250, 95, 120, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#2d3e5c';
    ctx.fillRect(110, 390, 260, 250);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
    globalThis.photo = new File([blob], 'portrait.jpg', { type: 'image/jpeg' });
  });
  const status = (tag) => frame.evaluate((t) => document.querySelector(t).status, tag);
  const reach = async (tag, wanted, advance = false, ms = 90_000) => {
    const end = Date.now() + ms;
    let now;
    while (Date.now() < end) {
      now = await status(tag);
      if (wanted.includes(now)) return now;
      if (now === 'failed' || now === 'expired')
        throw new Error(
          `<${tag}> ended ${now}: ${await frame.evaluate((t) => document.querySelector(t).shadowRoot.textContent.replace(/\s+/g, ' ').slice(0, 300), tag)}`,
        );
      if (advance) await frame.evaluate(async () => (await globalThis.mediakitPlayground).advance(60_000));
      await frame.waitForTimeout(400);
    }
    throw new Error(`<${tag}> stayed ${now}`);
  };
  for (const tag of ['bg-tool', 'headshot-studio']) {
    await frame.evaluate((t) => document.querySelector(t).selectFile(globalThis.photo), tag);
    await reach(tag, ['ready']);
    await frame.evaluate((t) => document.querySelector(t).start(), tag);
    await reach(tag, ['succeeded']);
  }
  await frame.evaluate(async () => {
    const el = document.querySelector('model-generator');
    el.mode = 'prompt';
    el.prompt = 'a red armchair';
    await el.updateComplete;
    await el.start();
  });
  await reach('model-generator', ['succeeded'], true);
  const turntable = await frame.evaluate(
    () => !!document.querySelector('model-generator').shadowRoot.querySelector('video, [part~="turntable"]'),
  );
  if (!turntable) throw new Error('the 3D model shows no turntable (the page encodes it for the worker)');
  await frame.locator('video-to-3d-uploader input[type=file]').setInputFiles(video);
  await reach('video-to-3d-uploader', ['ready']);
  await frame.evaluate(() => document.querySelector('video-to-3d-uploader').start());
  await reach('video-to-3d-uploader', ['succeeded'], true);
  // The scene shows in the uploader's viewer (from the worker's file link, or from an object URL in the page).
  await frame.waitForFunction(
    () =>
      document
        .querySelector('video-to-3d-uploader')
        .shadowRoot.querySelector('splat-viewer')
        ?.matches(':state(loaded)'),
    null,
    { timeout: 90_000 },
  );
  const after = await frame.evaluate(async () => (await (await globalThis.mediakitPlayground).ledger()).balance);
  // 1 (background) + 10 (four headshots) + 2 (a 3D model) + 20 (a scene), once each.
  if (before - after !== 33) throw new Error(`the pretend account was charged ${before - after} credits, not 33`);
  const shown = await frame.evaluate(() => {
    const img = document.querySelector('bg-tool').shadowRoot.querySelector('img.checkerboard');
    return img?.complete ? img.naturalWidth : 0;
  });
  if (!shown) throw new Error("the background removal's image does not show");
  return before - after;
}
