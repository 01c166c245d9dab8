// The Payload CMS example, end to end (scripts/apps.mjs runs it with the packed package installed):
// Payload 3 + SQLite (`next build`, `next start`) with the mediakit proxy in its own route handler
// (app/mediakit/[...path]/route.js, authorize: the Payload user in the site's scope) and the API
// sandbox beside it. Two admins in two Chromium contexts: A creates the first user and starts a
// product's 3D model with <model-generator> in field mode, saves the product while the job runs;
// a new product in A's browser stays empty; B opens the product and follows A's job to the end;
// both keep the result in the media collection once (one copy of each file, equal values); A
// re-opens it with no API call; Payload's REST API returns the value and its URL answers the very
// bytes generated; Replace makes another model, and saving deletes the replaced media.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const FIRST = { email: 'first@example.com', password: 'first-admin-pass-1' };
const SECOND = { email: 'second@example.com', password: 'second-admin-pass-2' };
const PROMPT = 'a small ceramic teapot with a bamboo handle';
const PROMPT2 = 'a copper kettle with a wooden knob';
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

/** Calls `fn` until it answers something truthy, for up to `ms`. */
async function poll(fn, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 400));
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

export default async function journey({ app, browser, installed, log }) {
  const t0 = performance.now();
  for (const f of ['payload.db', 'payload.db-shm', 'payload.db-wal', 'media'])
    rmSync(join(app, f), { recursive: true, force: true });

  // The API sandbox on its own port, as the provider would be; its clock is moved by hand, so a
  // job runs until the test lets it finish.
  const { createSandbox, nodeListener } = await import(pathToFileURL(join(installed, 'dist/sandbox/index.js')).href);
  const sandbox = createSandbox({ speed: 1 });
  const control = async (path, body) => {
    const r = await sandbox.fetch(
      new Request(`http://sandbox/__sandbox/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    if (!r.ok) throw new Error(`the sandbox's ${path}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  const devServer = createServer(nodeListener((request) => sandbox.fetch(request)));
  const upstream = `http://127.0.0.1:${await listen(devServer)}`;
  const { keys } = await control('accounts', { credits: 100_000 });
  const advance = () => control('clock', { advance_ms: 60_000 });

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const nextBin = join(dirname(createRequire(join(app, 'x.js')).resolve('next/package.json')), 'dist/bin/next');
  const { NODE_ENV: _, ...inherited } = process.env;
  const env = {
    ...inherited,
    NEXT_TELEMETRY_DISABLED: '1',
    PAYLOAD_SECRET: randomBytes(24).toString('hex'),
    // Read by the proxy's route (app/mediakit/[...path]/route.js).
    MEDIAKIT_UPSTREAM: upstream,
    MEDIA_KEY_GENERATE: keys.generate,
    MEDIAKIT_SECRET: randomBytes(32).toString('hex'),
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
      // "Leave without saving?" on a reload of a changed form: leave (the test saved what counts).
      p.on('dialog', (d) => void d.accept().catch(() => undefined));
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

    // ---- REST: sign in, add the second admin ----
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
    const rest = async (path) => {
      const r = await fetch(`${origin}${path}`, { headers: { authorization: `JWT ${jwt}` } });
      if (!r.ok) throw new Error(`REST ${path}: ${r.status}`);
      return r.json();
    };
    const mediaDocs = async () => (await rest('/api/media?limit=100&depth=0&sort=id')).docs;
    const filesOnDisk = () => {
      try {
        return readdirSync(join(app, 'media')).sort();
      } catch {
        return [];
      }
    };

    // ---- A: a product, Create, a prompt, generate; saved while the job runs ----
    const tc = performance.now();
    // The GLB as the proxy delivers it to the element (the sandbox's model): the bytes generated,
    // hashed as they pass (its signed link lasts an hour of the sandbox's clock).
    const generated = new Set();
    const hashGlb = async (route) => {
      const response = await route.fetch();
      const body = await response.body();
      if (response.ok() && /gltf-binary/.test(response.headers()['content-type'] ?? ''))
        generated.add(`${sha256(body)} (${body.length} B)`);
      await route.fulfill({ response, body });
    };
    await first.route('**/mediakit/files/**', hashGlb);
    const making = [];
    page.on('request', (r) => new URL(r.url()).pathname.startsWith('/mediakit/api/') && making.push(r.url()));
    await page.goto('/admin/collections/products/create', { timeout: FIRST_LOAD });
    await fill(page, { '#field-title': 'Teapot' });
    const mg = page.locator('model-generator');
    await mg.locator('[part~="field-create"]').click({ timeout: FIRST_LOAD });
    await mg.locator('[part~="dialog"]').waitFor({ state: 'visible' });
    log(`payload-cms: the product form is up, the tool's dialog open (${seconds(tc)} s)`);
    await mg.locator('[part~="prompt"]').fill(PROMPT);
    await mg.locator('[part~="primary-button"]').click();
    const valueOf = (p) => p.locator('model-generator').evaluate((el) => (el.value ? JSON.parse(el.value) : null));
    const running = await poll(() => valueOf(page).then((v) => v?.status === 'running' && v.job && v), 60_000).catch(
      step('the running value'),
    );
    await mg.locator('[part~="dialog-close"]').click();
    await mg.locator('[part~="dialog"]').waitFor({ state: 'hidden' });
    await page.locator('#action-save').click();
    await page
      .waitForURL(/\/admin\/collections\/products\/\d+$/, { timeout: FIRST_LOAD })
      .catch(step('saving the product mid-job'));
    const id = page.url().split('/').pop();
    const savedRunning = (await rest(`/api/products/${id}`)).model;
    if (!isDeepStrictEqual(savedRunning, running))
      throw new Error(`the product saved mid-job holds ${JSON.stringify(savedRunning)}, not the running value`);
    log(`payload-cms: product ${id} saved with its running job (${seconds(tc)} s)`);

    // ---- A, same browser, another tab: a new product's field stays empty ----
    const fresh = await first.newPage();
    watch(fresh);
    await fresh.goto('/admin/collections/products/create', { timeout: FIRST_LOAD });
    await fresh.locator('model-generator').locator('[part~="field-create"]').waitFor({ timeout: FIRST_LOAD });
    await fresh.waitForTimeout(2000); // a job record the element could still adopt
    const empty = await fresh.locator('model-generator').evaluate((el) => ({
      value: el.value,
      status: el.shadowRoot.querySelector('[part~="field-status"]')?.textContent?.trim() ?? '',
    }));
    if (empty.value !== '' || /progress/i.test(empty.status))
      throw new Error(`a new product's field shows another document's job: ${JSON.stringify(empty)}`);
    await fresh.close();

    // ---- B: signs in, opens the product, follows A's job ----
    const second = await newContext();
    await second.route('**/mediakit/files/**', hashGlb);
    const page2 = await second.newPage();
    watch(page2);
    await page2.goto('/admin/login', { timeout: FIRST_LOAD });
    await fill(page2, { '#field-email': SECOND.email, '#field-password': SECOND.password });
    await page2.locator('button[type=submit]').click();
    await page2
      .waitForURL((u) => u.pathname === '/admin', { timeout: FIRST_LOAD })
      .catch(step('signing in the second admin'));
    await page2.goto(`/admin/collections/products/${id}`, { timeout: FIRST_LOAD });
    await page2.locator('model-generator [part~="field-open"]').waitFor({ timeout: FIRST_LOAD });
    const following = await poll(
      () =>
        page2
          .locator('model-generator')
          .evaluate((el) => (el.status === 'processing' || el.status === 'queued' ? el.status : '')),
      30_000,
    ).catch(step("B following A's job"));
    log(`payload-cms: the second admin follows the job (${following})`);

    // ---- the job ends: both editors keep the result, once ----
    const tk = performance.now();
    const both = await poll(async () => {
      const [a, b] = await Promise.all([valueOf(page), valueOf(page2)]);
      if (a?.status === 'succeeded' && a.asset && b?.status === 'succeeded' && b.asset) return [a, b];
      await advance();
      return undefined;
    }, 120_000).catch(step('both editors keep the result'));
    const [value, valueB] = both;
    if (!isDeepStrictEqual(value, valueB))
      throw new Error(`the two editors hold different values:\n${JSON.stringify(value)}\n${JSON.stringify(valueB)}`);
    if (!value.asset.url.startsWith('/api/media/file/'))
      throw new Error(`the GLB is not kept in the media collection: ${value.asset.url}`);
    if (value.prompt !== PROMPT) throw new Error(`the value's prompt: ${value.prompt}`);
    const media1 = await mediaDocs();
    const names1 = media1.map((d) => d.filename).sort();
    if (media1.length !== 3 || !/^model-[0-9a-f]{10}\.glb$/.test(names1[0]))
      throw new Error(`one copy of each file expected, the media collection holds ${JSON.stringify(names1)}`);
    const onDisk1 = filesOnDisk();
    if (onDisk1.length !== 3) throw new Error(`the media folder holds ${onDisk1.join(', ')}`);
    const kept = media1.map((d) => d.mimeType).sort();
    log(`payload-cms: both editors kept ${names1.join(', ')} once (${seconds(tk)} s)`);
    await page.locator('#action-save').click();
    await poll(async () => isDeepStrictEqual((await rest(`/api/products/${id}`)).model, value), 30_000).catch(
      step('saving the kept model'),
    );
    const made = seconds(tc);
    const madeCalls = making.length;

    // ---- A's edit view again: the saved value shows, with no API call ----
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

    // ---- REST: the product's value, and its file's bytes ----
    const doc = await rest(`/api/products/${id}`);
    if (!isDeepStrictEqual(doc.model, value))
      throw new Error(`REST answers another value: ${JSON.stringify(doc.model)}`);
    const file = await fetch(new URL(doc.model.asset.url, origin));
    if (!file.ok) throw new Error(`the kept GLB's URL: ${file.status}`);
    const bytes = Buffer.from(await file.arrayBuffer());
    const hashes = [...generated];
    if (!hashes.includes(`${sha256(bytes)} (${bytes.length} B)`))
      throw new Error(
        `the kept GLB ${doc.model.asset.url}, ${sha256(bytes)} (${bytes.length} B), is not the bytes generated, ${hashes.join(', ')}`,
      );
    if (bytes.length !== value.asset.bytes)
      throw new Error(`the value says ${value.asset.bytes} bytes, the file has ${bytes.length}`);

    // ---- B reloads: the saved value, with no API call ----
    const calls2 = apiCalls(page2);
    await page2.reload();
    const seen = await shown(page2);
    if (toApi(calls2).length) throw new Error(`the second admin's view called the API: ${calls2.join(', ')}`);
    if (!isDeepStrictEqual(seen.value, value)) throw new Error('the second admin sees another value');

    // ---- A: Replace, a new model, save: the replaced media are deleted ----
    const tr = performance.now();
    await mg.locator('[part~="field-replace"]').click();
    await mg.locator('[part~="dialog"]').waitFor({ state: 'visible' });
    await mg.locator('[part~="prompt"]').fill(PROMPT2);
    await mg.locator('[part~="primary-button"]').click();
    const replaced = await poll(async () => {
      const v = await valueOf(page);
      if (v?.status === 'succeeded' && v.asset && v.prompt === PROMPT2) return v;
      await advance();
      return undefined;
    }, 120_000).catch(step('the replacing model'));
    await mg.locator('[part~="dialog-close"]').click();
    await mg.locator('[part~="dialog"]').waitFor({ state: 'hidden' });
    await page.locator('#action-save').click();
    await poll(async () => isDeepStrictEqual((await rest(`/api/products/${id}`)).model, replaced), 30_000).catch(
      step('saving the replacing model'),
    );
    // The save's afterChange deletes them; the document reads saved before the save's answer comes.
    const want2 = [replaced.asset.id, replaced.turntable.id, replaced.poster.id].sort();
    let media2 = [];
    let ids2 = [];
    await poll(async () => {
      media2 = await mediaDocs();
      ids2 = media2.map((d) => String(d.id)).sort();
      return isDeepStrictEqual(ids2, want2);
    }, 20_000).catch(() => undefined);
    if (!isDeepStrictEqual(ids2, want2))
      throw new Error(
        `after Replace and save the media collection holds ${JSON.stringify(media2.map((d) => [d.id, d.filename]))}, not only the new model's ${want2.join(', ')}`,
      );
    // Gone (Payload answers a deleted upload's URL with an error status, 500 in 3.90).
    const old = await fetch(new URL(value.asset.url, origin));
    if (old.ok) throw new Error(`the replaced GLB's URL still answers ${old.status}`);
    const onDisk2 = filesOnDisk();
    if (onDisk2.length !== 3 || onDisk2.some((f) => onDisk1.includes(f)))
      throw new Error(`after Replace the media folder holds ${onDisk2.join(', ')}`);
    const replacedIn = seconds(tr);
    log(
      `payload-cms: Replace kept ${media2.map((d) => d.filename).join(', ')} and deleted the old three (${replacedIn} s)`,
    );

    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    if (foreign.size) throw new Error(`requests to other hosts: ${[...foreign].join(', ')}`);
    if (/not found in importMap|⨯ (?:\w*Error|unhandled)/.test(out))
      throw new Error(`Next or Payload reported an error:\n${tail()}`);

    return (
      `${built}next ${MODE} ready in ${started} s, first admin in ${signedIn} s; a model started (${madeCalls} /mediakit/api/ requests from A), saved mid-job, a new product in the same browser empty, followed by the second admin to the end, kept once by both (${kept.join(', ')}; equal values) and saved in ${made} s; ` +
      `re-opened by both admins with 0 /mediakit/api/ requests (${calls1.length + calls2.length} to /mediakit/ at all), no request off the origin; REST value equal, GLB ${bytes.length} B same sha-256 as generated; Replace and save deleted the old media (${replacedIn} s); ${seconds(t0)} s in all`
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
