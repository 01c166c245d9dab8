// The playground wherever it is loaded (issue 34, item 3), in real Chromium from plain static file
// servers, each on a browser's first visit: the README's layout (the page saved in a copy of the
// CDN folder: the worker serves it), a page at the site's root loading the files from
// node_modules/@mediakit/elements/cdn/ (the worker's folder is not the page's) and a page loading
// them from another origin, as from a CDN (the worker can never serve it), and a page whose worker
// file is missing. Where the worker cannot serve the page, the playground runs in the page and says
// once, in the console, why and how to use the worker. Every layout: the elements work from their first call, with no console error, no failed
// call to the playground's paths (a static server answers a POST with 501) and no reload.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { buildCdnFolder, launchChromium, staticSite, type Site } from './site.js';

const README_PAGE = readFileSync(fileURLToPath(new URL('../../demo/playground.html', import.meta.url)), 'utf8');

/** A page with three elements, loading the playground and the elements from `base`. */
const pageFrom = (base: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>elements</title>
<script type="module" src="${base}playground.js"></script>
<script type="module" src="${base}mediakit-elements.js"></script>
</head><body>
<credit-badge></credit-badge>
<bg-tool></bg-tool>
<model-generator></model-generator>
</body></html>`;

interface Visit {
  runs: string;
  /** Console errors, uncaught exceptions, failed responses, and warnings that a list or a call failed. */
  problems: string[];
  /** The playground's console.info lines. */
  infos: string[];
  loads: number;
}

/** Polls `fn` in the page (awaiting what it answers) until it answers something truthy. */
async function until<T>(page: Page, fn: (arg: string) => T | Promise<T>, arg = '', ms = 60_000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) {
    const value = await page.evaluate(fn, arg).catch(() => undefined); // a navigation may be under way
    if (value) return value as T;
  }
  throw new Error(`the page never answered ${String(fn)}`);
}

/**
 * A first visit of `url` in a fresh browser profile: the badge shows the pretend day's budget and a
 * background removal succeeds with its image shown.
 */
async function firstVisit(browser: Browser, url: string): Promise<Visit> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  const infos: string[] = [];
  let loads = 0;
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()} ${m.location()?.url ?? ''}`);
    // "could not read the job list" and the like (the in-page playground's note that it keeps nothing is not one).
    if (m.type() === 'warning' && /\[mediakit\].*could not/.test(m.text())) problems.push(`warning: ${m.text()}`);
    if (m.type() === 'info' && m.text().includes('mediakit playground')) infos.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.request().method()} ${r.url()}`);
  });
  page.on('framenavigated', (f) => f === page.mainFrame() && loads++);
  try {
    await page.goto(url);
    const runs = await until(page, async () => {
      const pg = (globalThis as { mediakitPlayground?: Promise<{ runs: string }> }).mediakitPlayground;
      return pg ? (await pg).runs : '';
    });
    await until(page, () => /2,000/.test(document.querySelector('credit-badge')?.shadowRoot?.textContent ?? ''));
    const mark = await page.evaluate(() => getComputedStyle(document.querySelector('bg-tool')!, '::before').content);
    assert.match(mark, /nothing is charged/);
    await page.evaluate(async () => {
      const canvas = new OffscreenCanvas(320, 400);
      const ctx = canvas.getContext('2d')!;
      ctx.fillStyle = '#e9ecef';
      ctx.fillRect(0, 0, 320, 400);
      ctx.fillStyle = '#7a4a32';
      ctx.beginPath();
      ctx.ellipse(160, 160, 60, 80, 0, 0, Math.PI * 2);
      ctx.fill();
      const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
      const el = document.querySelector('bg-tool') as HTMLElement & { selectFile(f: File): void };
      el.selectFile(new File([blob], 'portrait.jpg', { type: 'image/jpeg' }));
    });
    const reached = (wanted: string) =>
      until(
        page,
        (w) => {
          const { status } = document.querySelector('bg-tool') as HTMLElement & { status: string };
          return status === w || status === 'failed' ? status : '';
        },
        wanted,
      ).then((status) => assert.equal(status, wanted));
    await reached('ready');
    await page.evaluate(() => {
      void (document.querySelector('bg-tool') as HTMLElement & { start(): Promise<void> }).start();
    });
    await reached('succeeded');
    await until(page, () => {
      const img = document.querySelector('bg-tool')!.shadowRoot!.querySelector<HTMLImageElement>('img.checkerboard');
      return img?.complete ? img.naturalWidth : 0;
    });
    return { runs, problems, infos, loads };
  } catch (err) {
    const text = await page
      .evaluate(() => document.querySelector('bg-tool')?.shadowRoot?.textContent?.replace(/\s+/g, ' ').slice(0, 300))
      .catch(() => '');
    throw new Error(`${(err as Error).message}\n<bg-tool> shows: ${text}\nproblems: ${problems.join('\n')}`, {
      cause: err,
    });
  } finally {
    await context.close();
  }
}

describe('the playground wherever it is loaded', () => {
  let cdn: Awaited<ReturnType<typeof buildCdnFolder>>;
  let browser: Browser;
  const sites: Site[] = [];

  before(async () => {
    cdn = await buildCdnFolder();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await Promise.all(sites.map((s) => s.close()));
    cdn?.remove();
  });

  it("the README's layout (the page saved in a copy of the CDN folder): the worker, from the first call", async () => {
    const site = await staticSite({ mounts: { '/': cdn.dir }, pages: { '/': README_PAGE } });
    sites.push(site);
    const visit = await firstVisit(browser, site.url + '/');
    assert.deepEqual(visit.problems, []);
    assert.equal(visit.runs, 'worker');
    assert.deepEqual(visit.infos, []);
    assert.equal(visit.loads, 1, 'the first visit was reloaded');
  });

  it('a page at the root loading node_modules/@mediakit/elements/cdn/: in the page, with one line on using the worker', async () => {
    const site = await staticSite({
      mounts: { '/node_modules/@mediakit/elements/cdn/': cdn.dir },
      pages: { '/': pageFrom('node_modules/@mediakit/elements/cdn/') },
    });
    sites.push(site);
    const visit = await firstVisit(browser, site.url + '/');
    assert.deepEqual(visit.problems, []);
    assert.equal(visit.runs, 'page');
    assert.equal(visit.infos.length, 1, visit.infos.join('\n'));
    assert.match(visit.infos[0]!, /playground-sw\.js/);
    assert.match(visit.infos[0]!, /mediakit-playground-worker/);
    assert.equal(visit.loads, 1);
  });

  it('a page whose worker file is missing (a bundled app that did not copy playground-sw.js): in the page, saying why', async () => {
    const site = await staticSite({
      mounts: { '/app/': cdn.dir },
      pages: {
        '/': pageFrom('app/').replace(
          '<head>',
          '<head><meta name="mediakit-playground-worker" content="/playground-sw.js">',
        ),
      },
    });
    sites.push(site);
    const visit = await firstVisit(browser, site.url + '/');
    // The browser's own line on the missing file is the one error.
    assert.deepEqual(
      visit.problems.filter((p) => !/bad HTTP response code \(404\) was received when fetching the script/.test(p)),
      [],
    );
    assert.equal(visit.runs, 'page');
    assert.equal(visit.infos.length, 1, visit.infos.join('\n'));
    assert.match(visit.infos[0]!, /playground-sw\.js.*404/);
    assert.equal(visit.loads, 1);
  });

  it('a page loading the files from another origin, as from a CDN: in the page, with one line on using the worker', async () => {
    const files = await staticSite({ mounts: { '/': cdn.dir }, cors: true });
    sites.push(files);
    const site = await staticSite({ pages: { '/shop/': pageFrom(files.url + '/') } });
    sites.push(site);
    const visit = await firstVisit(browser, site.url + '/shop/');
    assert.deepEqual(visit.problems, []);
    assert.equal(visit.runs, 'page');
    assert.equal(visit.infos.length, 1, visit.infos.join('\n'));
    assert.match(visit.infos[0]!, /playground-sw\.js/);
    assert.equal(visit.loads, 1);
  });
});
