// The Payload CMS example, end to end (scripts/apps.mjs runs it with the packed package installed):
// Payload 3 + SQLite (`next build`, `next start`), the mediakit dev stack (proxy + API sandbox)
// beside it, and an admin in Chromium who creates the first user, makes a product's 3D model with <model-generator>
// in field mode (kept in the media collection by the field's assetHandler), saves it, and re-opens
// it: the model shows again from the saved value without one API call; a second admin sees the
// same value; Payload's REST API returns it, and its URL answers the very bytes generated.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

const FIRST = { email: 'first@example.com', password: 'first-admin-pass-1' };
const SECOND = { email: 'second@example.com', password: 'second-admin-pass-2' };
const PROMPT = 'a small ceramic teapot with a bamboo handle';
// `next start` on a production build (faster here than `next dev` compiling the admin on demand);
// PAYLOAD_NEXT_MODE=dev runs `next dev` instead.
const MODE = process.env.PAYLOAD_NEXT_MODE === 'dev' ? 'dev' : 'start';
// How long a page may take the first time (`next dev` compiles the admin then: a minute here).
const FIRST_LOAD = MODE === 'dev' ? 240_000 : 60_000;
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const seconds = (t) => ((performance.now() - t) / 1000).toFixed(1);

function listen(server, port = 0) {
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok(server.address().port));
  });
}

/** Fills a Payload form once the page has hydrated (a value typed before that may be lost). */
async function fill(page, fields) {
  await page.waitForLoadState('networkidle', { timeout: FIRST_LOAD });
  for (const [selector, text] of Object.entries(fields)) {
    const input = page.locator(selector);
    await input.fill(text);
    if ((await input.inputValue()) !== text) throw new Error(`${selector} did not take its value`);
  }
}

/** Names the step a wait failed in. */
const step = (what) => (err) => {
  throw new Error(`${what}: ${err.message}`);
};

async function freePort() {
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((c) => probe.close(c));
  return port;
}

export default async function journey({ app, browser, createDevStack, log }) {
  const t0 = performance.now();
  for (const f of ['payload.db', 'payload.db-shm', 'payload.db-wal', 'media'])
    rmSync(join(app, f), { recursive: true, force: true });

  // The dev stack (proxy at /mediakit, sandbox at /sandbox) on its own port; Next forwards
  // /mediakit/* to it (next.config.mjs).
  const stack = createDevStack({ sandbox: { speed: 600 } });
  const devServer = createServer((req, res) => stack.middleware(req, res, () => res.writeHead(404).end()));
  const devOrigin = `http://127.0.0.1:${await listen(devServer)}`;
  const advance = async () => {
    const r = await fetch(`${devOrigin}/sandbox/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mediakit-dev-token': stack.devToken },
      body: JSON.stringify({ advance_ms: 60_000 }),
    });
    if (!r.ok) throw new Error(`the sandbox clock: ${r.status} ${await r.text()}`);
  };

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const nextBin = join(dirname(createRequire(join(app, 'x.js')).resolve('next/package.json')), 'dist/bin/next');
  const { NODE_ENV: _, ...inherited } = process.env;
  const env = {
    ...inherited,
    NEXT_TELEMETRY_DISABLED: '1',
    PAYLOAD_SECRET: randomBytes(24).toString('hex'),
    // Read by next.config.mjs's rewrites (at build time for `next start`).
    MEDIAKIT_DEV_ORIGIN: devOrigin,
  };
  let next;
  let exited;
  let out = '';
  const contexts = [];
  const tail = () => out.split('\n').slice(-40).join('\n');

  try {
    let built = '';
    if (MODE === 'start') {
      const tb = performance.now();
      const r = spawnSync(process.execPath, [nextBin, 'build'], {
        cwd: app,
        env,
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      });
      if (r.status !== 0) throw new Error(`next build failed:\n${r.stdout}\n${r.stderr}`);
      built = `next build ${seconds(tb)} s, `;
      log(`payload-cms: ${built.slice(0, -2)}`);
    }
    next = spawn(process.execPath, [nextBin, MODE, '--port', String(port), '--hostname', '127.0.0.1'], {
      cwd: app,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: next's workers end with it
    });
    next.stdout.on('data', (c) => (out += c));
    next.stderr.on('data', (c) => (out += c));
    exited = new Promise((ok) => next.once('exit', ok));
    const ts = performance.now();
    while (!/Ready in/.test(out)) {
      if (next.exitCode !== null) throw new Error(`next ${MODE} exited ${next.exitCode}:\n${tail()}`);
      if (performance.now() - ts > 60_000) throw new Error(`next ${MODE} did not start:\n${tail()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const started = seconds(ts);
    log(`payload-cms: next ${MODE} ready in ${started} s`);

    // ---- the first admin, created in the UI (a fresh database asks for one) ----
    // Each admin's browser; nothing may leave this origin (no CDN, no Gravatar, no API but ours).
    const foreign = new Set();
    const newContext = async () => {
      const context = await browser.newContext({ baseURL: origin, viewport: { width: 1280, height: 900 } });
      contexts.push(context);
      context.on(
        'request',
        (r) => /^https?:/.test(r.url()) && !r.url().startsWith(origin + '/') && foreign.add(r.url()),
      );
      return context;
    };
    const first = await newContext();
    const page = await first.newPage();
    const errors = [];
    const watch = (p) => {
      p.on('pageerror', (e) => errors.push(String(e)));
      // A hydration mismatch is a console error in React (production builds name it by number).
      p.on(
        'console',
        (m) =>
          m.type() === 'error' && /hydrat|Minified React error #(418|423|425)/i.test(m.text()) && errors.push(m.text()),
      );
    };
    watch(page);

    const tf = performance.now();
    await page.goto('/admin', { timeout: FIRST_LOAD });
    await page.waitForURL('**/admin/create-first-user', { timeout: FIRST_LOAD }).catch(step('the first-user form'));
    await fill(page, {
      '#field-email': FIRST.email,
      '#field-password': FIRST.password,
      '#field-confirm-password': FIRST.password,
    });
    await page.locator('button[type=submit]').click();
    await page
      .waitForURL((u) => u.pathname === '/admin', { timeout: FIRST_LOAD })
      .catch(step('signing in the first admin'));
    const signedIn = seconds(tf);
    log(`payload-cms: first admin created and signed in (${signedIn} s)`);

    // ---- a product: Create opens the tool, a prompt, generate, the sandbox's clock ----
    const tc = performance.now();
    // The GLB as the proxy delivers it to the element (the sandbox's model): the bytes generated,
    // hashed as they pass (its signed link lasts an hour of the sandbox's fast clock: seconds here).
    const generated = new Set();
    await page.route('**/mediakit/files/**', async (route) => {
      const response = await route.fetch();
      const body = await response.body();
      if (response.ok() && /gltf-binary/.test(response.headers()['content-type'] ?? ''))
        generated.add(`${sha256(body)} (${body.length} B)`);
      await route.fulfill({ response, body });
    });
    const making = [];
    page.on('request', (r) => new URL(r.url()).pathname.startsWith('/mediakit/api/') && making.push(r.url()));
    await page.goto('/admin/collections/products/create', { timeout: FIRST_LOAD });
    await fill(page, { '#field-title': 'Teapot' });
    const mg = page.locator('model-generator');
    await mg.locator('[part~="field-create"]').click({ timeout: FIRST_LOAD });
    await mg.locator('[part~="dialog"]').waitFor({ state: 'visible' });
    log(`payload-cms: the product form is up, the tool's dialog open (${seconds(tc)} s)`);
    await mg.locator('[part~="prompt"]').fill(PROMPT);
    await mg.locator('[part~="generate-button"]').click();
    let value;
    const deadline = Date.now() + 120_000;
    for (;;) {
      value = await mg.evaluate((el) => (el.value ? JSON.parse(el.value) : null));
      if (value?.status === 'succeeded' && value.asset) break;
      if (value?.status === 'failed' || Date.now() > deadline)
        throw new Error(`the model did not come: ${JSON.stringify(value)}`);
      if (value?.status === 'running') await advance();
      await page.waitForTimeout(400);
    }
    if (!value.asset.url.startsWith('/api/media/file/'))
      throw new Error(`the GLB is not kept in the media collection: ${value.asset.url}`);
    if (value.prompt !== PROMPT) throw new Error(`the value's prompt: ${value.prompt}`);
    await mg.locator('[part~="dialog-close"]').click();
    await mg.locator('[part~="dialog"]').waitFor({ state: 'hidden' });
    await mg.locator('[part~="field-preview"]').waitFor();
    await page.locator('#action-save').click();
    await page
      .waitForURL(/\/admin\/collections\/products\/\d+$/, { timeout: FIRST_LOAD })
      .catch(step('saving the product'));
    const id = page.url().split('/').pop();
    const made = seconds(tc);
    const madeCalls = making.length;
    log(`payload-cms: model made, kept and product ${id} saved (${made} s)`);

    // ---- the edit view again: the saved value shows, with no API call ----
    const apiCalls = (p) => {
      const seen = [];
      p.on('request', (r) => new URL(r.url()).pathname.startsWith('/mediakit/') && seen.push(r.url()));
      return seen;
    };
    const toApi = (calls) => calls.filter((u) => new URL(u).pathname.startsWith('/mediakit/api/'));
    const shown = async (p) => {
      const el = p.locator('model-generator');
      await el.locator('[part~="field-preview"]').waitFor({ timeout: FIRST_LOAD });
      await p.waitForFunction(
        () => {
          const img = document.querySelector('model-generator')?.shadowRoot?.querySelector('[part~="field-preview"]');
          return img?.complete && img.naturalWidth > 0;
        },
        null,
        { timeout: 30_000 },
      );
      await p.waitForTimeout(1500); // anything the element would still ask the API for
      const buttons = await el.evaluate((e) =>
        ['field-create', 'field-open', 'field-replace', 'field-remove'].filter((p) => {
          const b = e.shadowRoot.querySelector(`[part~="${p}"]`);
          return b && b.getClientRects().length > 0;
        }),
      );
      if (buttons.join() !== 'field-open,field-replace,field-remove')
        throw new Error(`the field with a saved model offers ${buttons.join(', ')}`);
      return el.evaluate((e) => ({
        value: JSON.parse(e.value),
        preview: e.shadowRoot.querySelector('[part~="field-preview"]').currentSrc,
        detail: e.shadowRoot.querySelector('[part~="field-detail"]')?.textContent ?? '',
      }));
    };
    const calls1 = apiCalls(page);
    await page.reload();
    const again = await shown(page);
    if (toApi(calls1).length) throw new Error(`re-opening the product called the API: ${calls1.join(', ')}`);
    if (!isDeepStrictEqual(again.value, value))
      throw new Error(`the re-opened value differs:\n${JSON.stringify(again.value)}\n${JSON.stringify(value)}`);
    if (!new URL(again.preview).pathname.startsWith('/api/media/file/'))
      throw new Error(`the preview is not the kept poster: ${again.preview}`);
    if (!again.detail.includes(PROMPT.slice(0, 20)))
      throw new Error(`the field does not say what made it: ${again.detail}`);

    // ---- REST: sign in, add a second admin, read the product ----
    const login = async ({ email, password }) => {
      const r = await fetch(`${origin}/api/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      if (!r.ok) throw new Error(`REST login of ${email}: ${r.status}`);
      return (await r.json()).token;
    };
    const created = await fetch(`${origin}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `JWT ${await login(FIRST)}` },
      body: JSON.stringify(SECOND),
    });
    if (!created.ok) throw new Error(`creating the second admin: ${created.status} ${await created.text()}`);
    const jwt = await login(SECOND);
    const doc = await (
      await fetch(`${origin}/api/products/${id}`, { headers: { authorization: `JWT ${jwt}` } })
    ).json();
    if (!isDeepStrictEqual(doc.model, value))
      throw new Error(`REST answers another value: ${JSON.stringify(doc.model)}`);
    const file = await fetch(new URL(doc.model.asset.url, origin));
    if (!file.ok) throw new Error(`the kept GLB's URL: ${file.status}`);
    const bytes = Buffer.from(await file.arrayBuffer());
    const media = await (
      await fetch(`${origin}/api/media?limit=10`, { headers: { authorization: `JWT ${jwt}` } })
    ).json();
    const kept = media.docs.map((d) => d.mimeType).sort();
    const hashes = [...generated];
    if (hashes.length !== 1)
      throw new Error(`expected the proxy to deliver one GLB, saw ${hashes.join(', ') || 'none'}`);
    if (`${sha256(bytes)} (${bytes.length} B)` !== hashes[0])
      throw new Error(
        `the kept GLB ${doc.model.asset.url}, ${sha256(bytes)} (${bytes.length} B), is not the bytes generated, ${hashes[0]}; ` +
          `the media collection: ${JSON.stringify(media.docs.map((d) => [d.id, d.filename, d.filesize, d.mimeType]))}`,
      );
    if (bytes.length !== value.asset.bytes)
      throw new Error(`the value says ${value.asset.bytes} bytes, the file has ${bytes.length}`);

    // ---- the second admin in the UI ----
    const second = await newContext();
    const page2 = await second.newPage();
    watch(page2);
    await page2.goto('/admin/login', { timeout: FIRST_LOAD });
    await fill(page2, { '#field-email': SECOND.email, '#field-password': SECOND.password });
    await page2.locator('button[type=submit]').click();
    await page2
      .waitForURL((u) => u.pathname === '/admin', { timeout: FIRST_LOAD })
      .catch(step('signing in the second admin'));
    const calls2 = apiCalls(page2);
    await page2.goto(`/admin/collections/products/${id}`, { timeout: FIRST_LOAD });
    const seen = await shown(page2);
    if (toApi(calls2).length) throw new Error(`the second admin's view called the API: ${calls2.join(', ')}`);
    if (!isDeepStrictEqual(seen.value, value)) throw new Error('the second admin sees another value');
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    if (foreign.size) throw new Error(`requests to other hosts: ${[...foreign].join(', ')}`);
    if (/not found in importMap|⨯ (?:\w*Error|unhandled)/.test(out))
      throw new Error(`Next or Payload reported an error:\n${tail()}`);

    return (
      `${built}next ${MODE} ready in ${started} s, first admin in ${signedIn} s, model made (${madeCalls} /mediakit/api/ requests), kept (${kept.join(', ')}) and saved in ${made} s; ` +
      `re-opened by both admins (the second made through REST) with 0 /mediakit/api/ requests (${calls1.length + calls2.length} to /mediakit/ at all: ${[...new Set([...calls1, ...calls2].map((u) => new URL(u).pathname))].join(' ')}), no request off the origin; REST value equal, GLB ${bytes.length} B same sha-256 as generated; ${seconds(t0)} s in all`
    );
  } catch (err) {
    throw new Error(`${err.stack ?? err}\n--- next ${MODE} (last lines) ---\n${tail()}`, { cause: err });
  } finally {
    for (const c of contexts) await c.close().catch(() => undefined);
    const group = (signal) => {
      try {
        process.kill(-next.pid, signal);
      } catch {
        // Already gone.
      }
    };
    if (next) {
      group('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      group('SIGKILL');
    }
    devServer.closeAllConnections();
    await new Promise((c) => devServer.close(c));
  }
}
