// The playground's Service Worker answers only the pages that opted in during their load (issue
// 31, item 5): a page of the same origin that never loads playground.js (or loaded it in another
// page, another time) reaches the site's own /mediakit, in real Chromium over real HTTP. The worker
// keeps knowing its pages across a restart and a reload, and unregisters itself once no page wants it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildCdnFolder, launchChromium, staticSite, type Site } from './site.js';

const PLAYGROUND_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>playground</title>
<script type="module" src="/playground.js"></script>
<script type="module" src="/mediakit-elements.js"></script>
</head><body><credit-badge></credit-badge></body></html>`;

// A playground page that shows a file of the endpoint as it starts, as an element restoring a saved
// value's kept result does (a module script after the playground's, as the elements' module is).
const PLAYGROUND_IMAGE_PAGE = PLAYGROUND_PAGE.replace(
  '</head>',
  `<script type="module">
    const img = new Image();
    img.src = '/mediakit/results/kept-before';
    document.body.append(img);
  </script></head>`,
);

// A page of the same site that never asked for the playground.
const PLAIN_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>plain</title></head><body>
<p>the site's own page</p></body></html>`;

/** What a page gets from `/mediakit/session`: the site's own proxy says `real: true`. */
function askSession(page: Page): Promise<{ status: number; real: boolean }> {
  return page.evaluate(async () => {
    const r = await fetch('/mediakit/session', { method: 'POST' });
    const body = (await r.json().catch(() => ({}))) as { real?: boolean };
    return { status: r.status, real: body.real === true };
  });
}

/** Polls `fn` in the page (awaiting what it answers) until it answers something truthy. */
async function until<T>(page: Page, fn: () => T | Promise<T>, ms = 30_000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) {
    const value = await page.evaluate(fn).catch(() => undefined); // a navigation may be under way
    if (value) return value as T;
  }
  throw new Error(`the page never answered ${String(fn)}`);
}

/** Where the page's playground runs ('worker' or 'page'), once it has started. */
const playgroundReady = (page: Page) =>
  until(
    page,
    async () => {
      const pg = (globalThis as { mediakitPlayground?: Promise<{ runs: string }> }).mediakitPlayground;
      return pg ? (await pg).runs : '';
    },
    60_000,
  );

/** The pretend account of the sandbox the page's worker runs (a new one each time the worker starts). */
const accountOf = (page: Page) =>
  page.evaluate(async () => {
    const pg = await (
      globalThis as unknown as { mediakitPlayground: Promise<{ ledger(): Promise<{ account_id: string }> }> }
    ).mediakitPlayground;
    return (await pg.ledger()).account_id;
  });

describe('the playground answers only pages that asked for it', () => {
  let cdn: Awaited<ReturnType<typeof buildCdnFolder>>;
  let site: Site;
  let browser: Browser;
  let context: BrowserContext;
  let playPage: Page;
  let plainPage: Page;
  const realHits: string[] = [];

  before(async () => {
    cdn = await buildCdnFolder();
    site = await staticSite({
      mounts: { '/': cdn.dir },
      pages: { '/play.html': PLAYGROUND_PAGE, '/play-image.html': PLAYGROUND_IMAGE_PAGE, '/plain.html': PLAIN_PAGE },
      routes: [
        // The site's real proxy at the elements' default endpoint.
        (req, res) => {
          if (!req.url?.startsWith('/mediakit/')) return false;
          realHits.push(`${req.method} ${req.url}`);
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ real: true }));
          return true;
        },
      ],
    });
    browser = await launchChromium();
    context = await browser.newContext();
  });

  after(async () => {
    await browser?.close();
    await site?.close();
    cdn?.remove();
  });

  it("a page that never loaded playground.js reaches the site's own /mediakit; the playground's page keeps its pretend one", async () => {
    playPage = await context.newPage();
    await playPage.goto(site.url + '/play.html');
    assert.equal(await playgroundReady(playPage), 'worker');
    await playPage.waitForFunction(
      () => /2,000/.test(document.querySelector('credit-badge')?.shadowRoot?.textContent ?? ''),
      null,
      { timeout: 30_000 },
    );
    assert.deepEqual(
      realHits,
      [],
      'the playground page reached the real proxy (its first calls went out before the worker took it)',
    );

    plainPage = await context.newPage();
    await plainPage.goto(site.url + '/plain.html');
    // The worker controls every page of its folder: this one too.
    assert.ok(await plainPage.evaluate(() => navigator.serviceWorker.controller !== null));
    assert.deepEqual(await askSession(plainPage), { status: 200, real: true });
    assert.deepEqual(realHits, ['POST /mediakit/session']);
    // A file link of the endpoint, as an <img> loads it, goes to the site too.
    await plainPage.evaluate(
      () =>
        new Promise((done) => {
          const img = document.createElement('img');
          img.onload = img.onerror = done;
          img.src = '/mediakit/files/any';
          document.body.append(img);
        }),
    );
    assert.deepEqual(realHits, ['POST /mediakit/session', 'GET /mediakit/files/any']);

    const pretend = await askSession(playPage);
    assert.equal(pretend.real, false, 'the playground page lost its pretend proxy');
    assert.equal(pretend.status, 200);
    assert.equal(realHits.length, 2);
  });

  it('a playground page the worker controls as it loads gets its files from the worker, from its first request', async () => {
    const page = await context.newPage();
    await page.goto(site.url + '/play-image.html');
    assert.equal(await playgroundReady(page), 'worker');
    await until(page, () => document.querySelector('img')?.complete);
    assert.deepEqual(realHits.slice(2), [], 'the page reached the real proxy before it had opted in');
    await page.close();
  });

  it('a worker the browser stopped and started again answers each page as before', async () => {
    const account = await accountOf(playPage);
    const cdp = await context.newCDPSession(playPage);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await cdp.detach();
    assert.deepEqual(await askSession(plainPage), { status: 200, real: true });
    assert.equal((await askSession(playPage)).real, false);
    assert.notEqual(await accountOf(playPage), account, 'the worker did not restart');
    assert.equal(realHits.length, 3);
  });

  it('a reload of the playground page keeps its worker and its pretend account', async () => {
    const before = await accountOf(playPage);
    await playPage.reload();
    await playgroundReady(playPage);
    assert.equal(await accountOf(playPage), before);
    assert.equal((await askSession(playPage)).real, false);
    assert.equal(realHits.length, 3);
  });

  it("a new visitor starts from a full budget and cannot see the last visitor's job (each story starts so)", async () => {
    // No named functions inside: the page gets the function's text, without tsx's name helper.
    const result = await playPage.evaluate(async () => {
      const pg = await (globalThis as unknown as { mediakitPlayground: Promise<{ newVisitor(): Promise<void> }> })
        .mediakitPlayground;
      type Session = { data: { token: string; budget: { used: number } } };
      const first = (await (await fetch('/mediakit/session', { method: 'POST' })).json()) as Session;
      const created = await fetch('/mediakit/api/v1/3d/jobs', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${first.data.token}`,
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
        body: JSON.stringify({ mode: 'text', prompt: 'a copper saucepan' }),
      });
      const job = ((await created.json()) as { data: { job_id: string } }).data.job_id;
      const spent = (await (
        await fetch('/mediakit/session', { headers: { authorization: `Bearer ${first.data.token}` } })
      ).json()) as Session;
      await pg.newVisitor();
      const second = (await (await fetch('/mediakit/session', { method: 'POST' })).json()) as Session;
      const seen = await fetch(`/mediakit/api/v1/3d/jobs/${job}`, {
        headers: { authorization: `Bearer ${second.data.token}` },
      });
      return {
        created: created.status,
        spent: spent.data.budget.used,
        fresh: second.data.budget.used,
        seen: seen.status,
      };
    });
    assert.equal(result.created, 202);
    assert.equal(result.spent, 2);
    assert.equal(result.fresh, 0, "the new visitor's budget carried the last visitor's spending");
    assert.equal(result.seen, 404, "the new visitor saw the last visitor's job");
  });

  it('the worker unregisters itself once no page wants it', async () => {
    await playPage.close();
    // The next page of the site the browser opens is the one that finds nobody wants the worker.
    await plainPage.goto(site.url + '/plain.html');
    await until(plainPage, async () => (await navigator.serviceWorker.getRegistrations()).length === 0);
    assert.deepEqual(await askSession(plainPage), { status: 200, real: true });
    // A new visit of the playground page registers it again.
    const again = await context.newPage();
    await again.goto(site.url + '/play.html');
    assert.equal(await playgroundReady(again), 'worker');
    assert.equal((await askSession(again)).real, false);
  });

  it('a first visit whose page showed a file before the worker took it is reloaded once, and the worker answers it then', async () => {
    const fresh = await browser.newContext();
    try {
      const page = await fresh.newPage();
      let loads = 0;
      page.on('framenavigated', (f) => f === page.mainFrame() && loads++);
      const before = realHits.length;
      await page.goto(site.url + '/play-image.html');
      await until(page, () => navigator.serviceWorker.controller !== null && document.querySelector('img')?.complete);
      assert.equal(await playgroundReady(page), 'worker');
      // A fast machine may give the worker the page before the image goes out: then no reload is needed.
      for (const end = Date.now() + 5_000; realHits.length > before && loads < 2 && Date.now() < end;)
        await page.waitForTimeout(100);
      await page.waitForTimeout(500);
      const leaked = realHits.slice(before);
      if (leaked.length > 0) {
        // Only the first load's image went out, before the worker had the page, and that load was redone.
        assert.deepEqual(leaked, ['GET /mediakit/results/kept-before']);
        assert.equal(loads, 2, 'the first visit whose image reached the network was not reloaded, or reloaded twice');
      } else assert.equal(loads, 1, 'reloaded though nothing reached the network');
    } finally {
      await fresh.close();
    }
  });
});
