// The story screenshots of scripts/stories.mjs: each story in two variants, which between them
// cover the four looks a story must keep (light and dark, a wide and a phone width, left to right
// and Arabic right to left), compared with the baselines in test/stories-baselines:
//   light-en-1280  the visitor prefers light (theme auto), English, 1280 px wide
//   dark-ar-390    the toolbar's dark theme, Arabic (dir=rtl), 390 px wide
// The shot is #storybook-root only, once the story has settled: fonts loaded, no request in
// flight, animations and transitions finished or cancelled, the caret hidden. A <canvas> (the
// WebGL viewers, drawn by SwiftShader, and auto-rotating) and a <video> (its frame depends on
// when it is taken) are filled with one grey box: the boxes' size and place are compared, their
// pixels are not. On a difference the actual image, the baseline and a diff (the differing pixels
// red) are written to test-results/stories/. --update rewrites the baselines that differ.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareImages, decodePng, encodePng } from './pixels.ts';

export const VARIANTS = [
  { name: 'light-en-1280', width: 1280, scheme: 'light', lang: 'en', theme: 'auto' },
  { name: 'dark-ar-390', width: 390, scheme: 'dark', lang: 'ar', theme: 'dark' },
];

/**
 * Puts the story in a variant as the toolbar would (.storybook/preview.ts: the decorator's
 * `lang`, `dir` and surface around the story, the theme on each element that sets none), but on
 * the story as it stands: a new render, as the toolbar makes, starts the story's job again, and
 * its shot would depend on how far that job had gone. Runs in the page.
 */
function applyVariant({ lang, theme }) {
  const wrapper = document.querySelector('#storybook-root [lang]');
  if (!wrapper) return;
  wrapper.setAttribute('lang', lang);
  wrapper.setAttribute('dir', lang === 'ar' ? 'rtl' : 'ltr');
  wrapper.setAttribute(
    'style',
    theme === 'dark'
      ? 'background:#0d1117;color:#e6edf3;padding:16px'
      : theme === 'light'
        ? 'background:#fff;color:#1f2328;padding:16px'
        : '',
  );
  const themed = (globalThis.__storyPixelsThemed ??= new WeakSet());
  for (const el of wrapper.querySelectorAll(
    'video-to-3d-uploader, headshot-studio, model-generator, bg-tool, credit-badge',
  )) {
    if (el.hasAttribute('theme') && !themed.has(el)) continue;
    themed.add(el);
    if (theme === 'auto') el.removeAttribute('theme');
    else el.setAttribute('theme', theme);
  }
}

/** A pixel differs beyond 0.1 (YIQ); a shot fails when over 0.5 % of its pixels do (scripts/pixels.ts). */
const THRESHOLD = 0.1;
const MAX_RATIO = 0.005;

/**
 * The self-check: on this story, styles broken on purpose must fail the comparison (while the
 * story as it is passes it), so a comparison that has stopped seeing anything cannot pass quietly.
 */
const SELF_CHECK = {
  story: 'elements-bg-tool--idle',
  breaks: [
    { what: 'a wrong padding on the drop zone', css: '[part~="drop-zone"] { padding: 4px !important; }' },
    { what: 'a wrong text colour on the card', css: '[part~="base"] { color: #8a8a8a !important; }' },
  ],
};

/**
 * Stories whose pixels are not compared: each shows work that is still moving when the shot is
 * taken (a job's progress, a 429 retry that becomes a running job, a field whose job ends while
 * it is shown, a video converted on the device and its preview frames), and where it has got to
 * depends on the machine's speed, so two runs on one machine differ. They are still opened and checked by
 * scripts/stories.mjs; their shots need the sandbox's clock and the conversion held first.
 */
const MOVING = new Set([
  'elements-model-generator--processing',
  'elements-model-generator--rate-limited',
  'elements-model-generator--field-with-result',
  'elements-video-to-3d-uploader--made-to-fit',
  'elements-video-to-3d-uploader--converting',
  'elements-video-to-3d-uploader--field-with-result',
]);

export class Pixels {
  /** @param {{ root: string, update: boolean, ids: string[], filtered: boolean }} options */
  constructor({ root, update, ids, filtered }) {
    this.baselines = join(root, 'test/stories-baselines');
    this.results = join(root, 'test-results/stories');
    this.update = update;
    this.ids = ids;
    this.filtered = filtered;
    this.written = [];
    this.selfChecked = false;
    this.captureMs = 0;
    this.compareMs = 0;
    this.shots = 0;
    mkdirSync(this.baselines, { recursive: true });
    rmSync(this.results, { recursive: true, force: true });
  }

  /** Photographs the story shown on `page` in every variant; returns its problems. */
  async check(page, id) {
    const problems = [];
    if (MOVING.has(id)) return problems;
    for (const variant of VARIANTS) {
      const actual = await this.shoot(page, variant).catch((e) => `pixels ${variant.name}: no shot: ${e.message}`);
      const problem = typeof actual === 'string' ? actual.split('\n')[0] : this.compare(id, variant, actual);
      if (problem) problems.push(problem);
    }
    if (id === SELF_CHECK.story && !this.update) {
      this.selfChecked = true;
      for (const broken of SELF_CHECK.breaks) {
        const actual = await this.shoot(page, VARIANTS[0], broken.css);
        const expected = this.baseline(id, VARIANTS[0]);
        if (!expected) continue;
        const c = compareImages(actual, expected, THRESHOLD, MAX_RATIO);
        console.log(
          `       self-check, ${broken.what}: ${c.ok ? 'NOT caught' : `caught (${describe(c, actual, expected)})`}`,
        );
        if (c.ok) problems.push(`pixels self-check: ${broken.what} passed the comparison (it must fail)`);
      }
    }
    return problems;
  }

  baseline(id, variant) {
    const file = join(this.baselines, `${id}.${variant.name}.png`);
    return existsSync(file) ? decodePng(readFileSync(file)) : undefined;
  }

  /** The story in one variant, settled, as an image; `css` is added to every element's shadow root. */
  async shoot(page, variant, css) {
    const began = Date.now();
    await page.setViewportSize({ width: variant.width, height: 800 });
    await page.emulateMedia({ colorScheme: variant.scheme });
    const requests = watchRequests(page);
    await page.evaluate(applyVariant, { lang: variant.lang, theme: variant.theme });
    await settle(page, requests);
    if (css)
      await page.evaluate((css) => {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(css);
        const visit = (root) => {
          for (const el of root.querySelectorAll('*'))
            if (el.shadowRoot) {
              el.shadowRoot.adoptedStyleSheets = [...el.shadowRoot.adoptedStyleSheets, sheet];
              visit(el.shadowRoot);
            }
        };
        visit(document.querySelector('#storybook-root'));
        globalThis.__storyPixelsBroken = sheet;
      }, css);
    // The root's box on the whole page (beyond the viewport too), in whole pixels.
    const clip = await page.evaluate(() => {
      const r = document.querySelector('#storybook-root').getBoundingClientRect();
      const x = Math.round(r.left + scrollX);
      const y = Math.round(r.top + scrollY);
      return { x, y, width: Math.round(r.right + scrollX) - x, height: Math.round(r.bottom + scrollY) - y };
    });
    const png = await page.screenshot({
      clip,
      fullPage: true,
      animations: 'disabled',
      caret: 'hide',
      mask: [page.locator('canvas, video')],
      maskColor: '#808080',
      timeout: 60_000,
    });
    if (css)
      await page.evaluate(() => {
        const sheet = globalThis.__storyPixelsBroken;
        const visit = (root) => {
          for (const el of root.querySelectorAll('*'))
            if (el.shadowRoot) {
              el.shadowRoot.adoptedStyleSheets = el.shadowRoot.adoptedStyleSheets.filter((s) => s !== sheet);
              visit(el.shadowRoot);
            }
        };
        visit(document.querySelector('#storybook-root'));
      });
    const image = decodePng(png);
    this.captureMs += Date.now() - began;
    this.shots++;
    return image;
  }

  /** Compares a shot with its baseline (or, with --update, writes it where it differs). */
  compare(id, variant, actual) {
    const began = Date.now();
    const name = `${id}.${variant.name}.png`;
    const expected = this.baseline(id, variant);
    const c = expected && compareImages(actual, expected, THRESHOLD, MAX_RATIO);
    this.compareMs += Date.now() - began;
    if (c?.ok) return undefined;
    if (this.update) {
      writeFileSync(join(this.baselines, name), encodePng(actual));
      this.written.push(name);
      return undefined;
    }
    if (!c)
      return `pixels ${variant.name}: no baseline test/stories-baselines/${name} (npm run test:stories -- --update)`;
    mkdirSync(this.results, { recursive: true });
    const base = join(this.results, `${id}.${variant.name}`);
    writeFileSync(`${base}.actual.png`, encodePng(actual));
    writeFileSync(`${base}.expected.png`, encodePng(expected));
    writeFileSync(`${base}.diff.png`, encodePng(c.diff));
    return `pixels ${variant.name}: ${describe(c, actual, expected)}, see test-results/stories/${id}.${variant.name}.{actual,expected,diff}.png`;
  }

  /** After every story: baselines of stories that are gone, the totals; returns the problems. */
  finish() {
    const problems = [];
    const wanted = new Set(this.ids.flatMap((id) => VARIANTS.map((v) => `${id}.${v.name}.png`)));
    if (!this.filtered) {
      for (const name of readdirSync(this.baselines).filter((n) => n.endsWith('.png') && !wanted.has(n))) {
        if (this.update) {
          rmSync(join(this.baselines, name));
          this.written.push(`${name} (deleted)`);
        } else problems.push(`test/stories-baselines/${name} belongs to no story (npm run test:stories -- --update)`);
      }
    }
    if (!this.update && this.ids.includes(SELF_CHECK.story) && !this.selfChecked)
      problems.push(`the self-check story ${SELF_CHECK.story} was not photographed`);
    const bytes = readdirSync(this.baselines).reduce((sum, n) => sum + readFileSync(join(this.baselines, n)).length, 0);
    console.log(
      `\npixels: ${this.shots} shots (${VARIANTS.map((v) => v.name).join(', ')}), capture ${(this.captureMs / 1000).toFixed(1)} s, ` +
        `comparison ${(this.compareMs / 1000).toFixed(1)} s (summed over both workers); baselines ${(bytes / 1e6).toFixed(2)} MB` +
        (this.update
          ? `; ${this.written.length} written or deleted${this.written.length ? `: ${this.written.join(', ')}` : ''}`
          : ''),
    );
    return problems;
  }
}

/** Counts the page's requests in flight, from now on. */
function watchRequests(page) {
  const state = { inFlight: 0, last: Date.now() };
  const start = () => {
    state.inFlight++;
    state.last = Date.now();
  };
  const end = () => {
    state.inFlight = Math.max(0, state.inFlight - 1);
    state.last = Date.now();
  };
  page.on('request', start);
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  state.stop = () => {
    page.off('request', start);
    page.off('requestfinished', end);
    page.off('requestfailed', end);
  };
  return state;
}

/**
 * Waits until the fonts are loaded and no request has been in flight for 200 ms (1.5 s at most: a
 * story that polls its job never falls quiet), then for two frames.
 */
async function settle(page, requests) {
  for (const end = Date.now() + 1500; Date.now() < end; await page.waitForTimeout(50))
    if (requests.inFlight === 0 && Date.now() - requests.last >= 200) break;
  requests.stop();
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}

function describe(c, actual, expected) {
  return c.sameSize
    ? `${c.differing} px (${(c.ratio * 100).toFixed(2)} %) differ`
    : `size ${actual.width}x${actual.height}, baseline ${expected.width}x${expected.height}`;
}
