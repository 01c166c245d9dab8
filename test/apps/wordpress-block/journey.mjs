// The WordPress block journey (scripts/apps.mjs calls the default export after `vite build`):
// in Gutenberg's block editor (its iframe canvas), insert the plugin's block, make a cut-out with
// <bg-tool appearance="field"> inside the iframe, keep the file in the media library through
// assetHandler (POST /wp/v2/media), save the post (serialize), reload, re-open it (parse) and see
// the same image with no request to the media API; a second block of the post starts empty. The
// server is not WordPress (README.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './server.mjs';

const BLOCK = 'mediakit/background-removal';
const CANVAS = 'iframe[name="editor-canvas"]';

/** Calls `fn` until it answers something truthy (errors count as not yet), for up to `ms`. */
async function poll(fn, ms) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms${last ? ` (${last.message})` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export default async function journey({ app, shared, installed, browser, createDevStack, log = console.log }) {
  const t0 = performance.now();
  const secs = () => ((performance.now() - t0) / 1000).toFixed(1);
  const data = mkdtempSync(join(tmpdir(), 'wp-block-'));
  const server = await startServer({ dir: join(app, 'dist'), installed, data, createDevStack });
  const sharp = createRequire(join(shared, 'x.js'))('sharp');
  // A product photo: an orange subject on a light grey ground (what the sandbox cuts out).
  const photo = {
    name: 'chair.png',
    mimeType: 'image/png',
    buffer: await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="400"><rect width="320" height="400" fill="#dfe3e8"/><ellipse cx="160" cy="220" rx="80" ry="120" fill="#c0561b"/></svg>',
      ),
    )
      .png()
      .toBuffer(),
  };

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    // A failed load is reported below with its URL.
    if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) problems.push(`console error: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && !r.url().endsWith('/favicon.ico'))
      problems.push(`${r.status()} for ${r.request().method()} ${r.url()}`);
  });
  // Every request of the page and its frames (the canvas iframe included).
  const requests = [];
  page.on('request', (r) =>
    requests.push({ url: new URL(r.url()), frame: r.frame() === page.mainFrame() ? 'editor' : 'canvas' }),
  );
  const apiCalls = (since = 0) => requests.slice(since).filter((r) => r.url.pathname.startsWith('/mediakit/api/'));
  const editorUrl = `${server.url}/wp-admin/post.php?post=1&action=edit`;
  const canvas = page.frameLocator(CANVAS);
  const tool = canvas.locator(`[data-type="${BLOCK}"] bg-tool`);
  const inCanvas = (fn, arg) =>
    page.frame({ name: 'editor-canvas' })?.evaluate(fn, arg) ?? Promise.reject(new Error('no canvas frame'));
  // WP_JOURNEY_SHOTS=<folder>: a screenshot at every step, to look at.
  const shots = process.env.WP_JOURNEY_SHOTS;
  const step = async (what) => {
    log(`  wordpress-block ${secs()} s: ${what}`);
    if (shots)
      await page.screenshot({
        path: join(shots, `${secs().padStart(5, '0')}-${what.split(/[:,]/)[0].replace(/\W+/g, '-')}.png`),
      });
  };

  // Gutenberg's inserter, not the element: a click on an option the search is still replacing can
  // be lost, so a block that did not appear after 5 s is inserted once more (and said in the log).
  const blocks = () => inCanvas((type) => document.querySelectorAll(`[data-type="${type}"]`).length, BLOCK);
  const insertBlock = async (count) => {
    for (let tries = 1; ; tries++) {
      const add = page.locator('.editor-header').getByRole('button', { name: 'Add block' });
      await add.waitFor({ timeout: 30_000 });
      if ((await add.getAttribute('aria-pressed')) !== 'true') await add.click();
      await page.getByRole('searchbox', { name: 'Search' }).fill('background');
      await page.getByRole('option', { name: /Background removal/ }).click();
      const inserted = await poll(async () => (await blocks()) >= count, 5_000).catch(() => false);
      if (inserted) return;
      if (tries === 2) throw new Error(`the inserter did not insert block ${count} (${await blocks()} in the canvas)`);
      log(`  wordpress-block ${secs()} s: the inserter's click inserted nothing: once more`);
    }
  };

  try {
    // ---- 1. the editor, and the block through the inserter ------------------------------------
    await page.goto(editorUrl);
    await page.locator(CANVAS).waitFor({ timeout: 30_000 });
    // The block inserter (the editor's "+"), its search, and the block.
    await insertBlock(1);
    await tool.waitFor({ timeout: 20_000 });
    await step('block inserted');

    // Defined in the iframe's own registry by the CDN module, never by the editor's window; the
    // block gives it its properties once it is (edit.js waits for the iframe's whenDefined).
    const where = await poll(async () => {
      const w = await page.evaluate(() => {
        const frame = document.querySelector('iframe[name="editor-canvas"]');
        const el = frame.contentDocument.querySelector('bg-tool');
        const own = frame.contentWindow.customElements.get('bg-tool');
        return {
          parent: !!customElements.get('bg-tool'),
          upgraded: !!own && el instanceof own,
          appearance: el.getAttribute('appearance'),
          handler: typeof el.assetHandler,
        };
      });
      return w.parent || (w.upgraded && w.handler === 'function') ? w : null;
    }, 20_000).catch((err) => {
      throw new Error(`<bg-tool> was not defined in the canvas iframe, or got no assetHandler: ${err.message}`);
    });
    if (where.parent) throw new Error('<bg-tool> is defined in the editor window: the canvas must define its own');

    // ---- 2. Create → image → remove the background → kept in the media library ----------------
    const field = tool.locator('[part~="field"]');
    const dialog = tool.locator('[part~="dialog"]');
    if (where.appearance !== 'field' || !(await field.count()))
      throw new Error('the block shows no field (appearance="field"): is field mode in this build of the package?');
    const box = await field.boundingBox();
    if (!box || box.height > 240) throw new Error(`the field is ${box?.height} px tall in the canvas`);
    await tool.locator('[part~="field-create"]').click();
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    const changed = inCanvas(
      () =>
        new Promise((resolve) => {
          const el = document.querySelector('bg-tool');
          el.addEventListener('change', () => resolve(el.value), { once: true });
        }),
    );
    await tool.locator('input[type=file]').setInputFiles(photo);
    await poll(() => inCanvas(() => document.querySelector('bg-tool').status === 'ready'), 15_000);
    await step('dialog open, image ready');
    const uploadsBefore = server.stats.uploads.length;
    await tool.locator('[part~="primary-button"]').click();
    const value = await Promise.race([
      changed,
      new Promise((_, no) => setTimeout(() => no(new Error('no `change` from <bg-tool> in 60 s')), 60_000)),
    ]);
    const result = JSON.parse(value);
    await step(`change: ${result.status}, asset ${result.asset?.url}`);
    if (result.status !== 'succeeded' || !result.asset) throw new Error(`the value kept nothing: ${value}`);
    const upload = server.stats.uploads[uploadsBefore];
    if (!upload || server.stats.uploads.length !== uploadsBefore + 1)
      throw new Error(`the media endpoint received ${server.stats.uploads.length - uploadsBefore} files, not 1`);
    if (upload.type !== 'image/png' || upload.bytes.subarray(1, 4).toString() !== 'PNG')
      throw new Error(`the media library got ${upload.type}, not a PNG`);
    if (result.asset.id !== String(upload.id) || result.asset.url !== `${server.url}/wp-content/uploads/${upload.file}`)
      throw new Error(`the value names ${JSON.stringify(result.asset)}, not attachment ${upload.id} (${upload.file})`);
    const { channels, hasAlpha } = await sharp(upload.bytes).metadata();
    const corner = await sharp(upload.bytes).extract({ left: 1, top: 1, width: 1, height: 1 }).raw().toBuffer();
    if (!hasAlpha || channels !== 4 || corner[3] !== 0) throw new Error('the kept PNG has no transparent background');
    const apiWhileWorking = apiCalls().length;

    // The block's attribute follows the element's value (wp.data, as wp-admin exposes it).
    const attribute = await page.evaluate(
      (name) =>
        wp.data
          .select('core/block-editor')
          .getBlocks()
          .find((b) => b.name === name)?.attributes.value,
      BLOCK,
    );
    if (attribute !== value) throw new Error(`the block attribute is not the element's value: ${attribute}`);
    await tool.locator('[part~="dialog-close"]').click();
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    await tool.locator('[part~="field-open"]').waitFor({ timeout: 10_000 });
    await step('dialog closed');

    // ---- 3. save: serialize(blocks) to the post ------------------------------------------------
    await page.locator('.editor-header').getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('[data-save-state="saved"]').waitFor({ timeout: 15_000 });
    const saved = server.stats.saves.at(-1) ?? '';
    const delimiter = saved.match(/<!-- wp:mediakit\/background-removal (\{.*?\}) (\/)?-->/);
    if (!delimiter) throw new Error(`the saved post has no ${BLOCK} block:\n${saved}`);
    if (JSON.parse(delimiter[1]).value !== value) throw new Error('the saved block attribute is not the value');
    if (!saved.includes(`<img src="${result.asset.url}"`))
      throw new Error(`the saved markup does not show the kept image:\n${saved}`);
    await step('saved');

    // ---- 4. reload and re-open: parse(), the same image, no request to the media API ----------
    const since = requests.length;
    await page.reload();
    await tool.waitFor({ timeout: 30_000 });
    const reopened = await poll(
      () =>
        inCanvas(() => {
          const el = document.querySelector('bg-tool');
          const img = el?.shadowRoot?.querySelector('img[part~="field-preview"]');
          return el?.value && img?.complete && img.naturalWidth > 0
            ? { value: el.value, src: img.src, width: img.naturalWidth, height: img.naturalHeight }
            : null;
        }),
      20_000,
    ).catch(async (err) => {
      const seen = await inCanvas(() => {
        const el = document.querySelector('bg-tool');
        return {
          value: el?.value,
          imgs: [...(el?.shadowRoot?.querySelectorAll('img') ?? [])].map((i) => `${i.getAttribute('part')}: ${i.src}`),
        };
      }).catch((e) => String(e));
      throw new Error(`the re-opened field shows no preview (${JSON.stringify(seen)}): ${err.message}`);
    });
    await step('re-opened');
    if (reopened.value !== value) throw new Error(`the re-opened field's value differs:\n${reopened.value}\n${value}`);
    if (reopened.src !== result.asset.url)
      throw new Error(`the re-opened field shows ${reopened.src}, not ${result.asset.url}`);
    if (reopened.width !== result.width || reopened.height !== result.height)
      throw new Error(`the re-opened preview is ${reopened.width}×${reopened.height}`);
    // The bytes the field shows are the bytes the media endpoint received.
    const shown = Buffer.from(
      await inCanvas(async (src) => [...new Uint8Array(await (await fetch(src)).arrayBuffer())], reopened.src),
    );
    if (!shown.equals(upload.bytes)) throw new Error('the re-opened image is not the kept file');
    if (await tool.locator('[part~="field-create"]').count()) throw new Error('the re-opened field offers Create');

    // Open shows the whole tool on the saved result, still with no API call; Escape closes it.
    await tool.locator('[part~="field-open"]').click();
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    await poll(
      () =>
        inCanvas(() => {
          const el = document.querySelector('bg-tool');
          return el.status === 'succeeded' && el.shadowRoot.querySelector('[part~="download"]');
        }),
      15_000,
    );
    await step('opened the saved result');
    await page.waitForTimeout(1_000); // anything late (a lazy check, a poll) would show up here
    const after = apiCalls(since);
    if (after.length) throw new Error(`re-opening asked the media API: ${after.map((r) => r.url.pathname).join(', ')}`);
    const canvasRequests = requests.slice(since).filter((r) => r.frame === 'canvas').length;
    if (problems.length) throw new Error(problems.join('\n'));

    // Escape closes the dialog (the field contract) inside Gutenberg's canvas too, where the writing
    // flow takes an Escape no one claimed: it cancels the key and moves focus out of the iframe.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden', timeout: 3_000 }).catch(() => {
      throw new Error(
        "Escape did not close the field's dialog in the block canvas (the cause seen with Gutenberg 18: its writing flow, " +
          'use-tab-nav.js, calls preventDefault() on an Escape keydown nobody claimed, so the native ' +
          '<dialog> never gets its cancel: the element has to claim Escape itself).',
      );
    });

    // ---- 5. a second block in the same post: an empty field, the first keeps its value ---------
    await insertBlock(2);
    const fields = await poll(
      () =>
        inCanvas(() => {
          const els = [...document.querySelectorAll('bg-tool')];
          if (els.length < 2 || els.some((el) => !el.shadowRoot?.querySelector('[part~="field"]'))) return null;
          return els.map((el) => {
            const visible = (part) => {
              const b = el.shadowRoot.querySelector(`[part~="${part}"]`);
              return !!b && b.getClientRects().length > 0;
            };
            return {
              value: el.value,
              create: visible('field-create'),
              open: visible('field-open'),
              preview: !!el.shadowRoot.querySelector('img[part~="field-preview"]'),
              status: el.shadowRoot.querySelector('[part~="field-status"]')?.textContent?.trim() ?? '',
            };
          });
        }),
      20_000,
    ).catch(async (err) => {
      // What each element shows instead: upgraded or not, its appearance, its parts.
      const seen = await inCanvas(() =>
        [...document.querySelectorAll('bg-tool')].map((el) => ({
          upgraded: customElements.get('bg-tool') !== undefined && el instanceof customElements.get('bg-tool'),
          appearance: el.getAttribute('appearance'),
          value: el.value,
          parts: [...(el.shadowRoot?.querySelectorAll('[part]') ?? [])].map((p) => p.getAttribute('part')).slice(0, 12),
        })),
      ).catch((e) => String(e));
      throw new Error(`a second block's field did not show (${JSON.stringify(seen)}): ${err.message}`);
    });
    await page.waitForTimeout(1_000); // anything the new field would still take up
    const again = await inCanvas(() => [...document.querySelectorAll('bg-tool')].map((el) => el.value));
    const empty = fields.find((f) => f.value === '');
    if (fields.length !== 2 || !empty || again.filter((v) => v === '').length !== 1 || !again.includes(value))
      throw new Error(`a second block: ${JSON.stringify(fields)}; values now ${JSON.stringify(again)}`);
    if (!empty.create || empty.open || empty.preview)
      throw new Error(`the new block's empty field offers ${JSON.stringify(empty)}`);
    await step('a second block: an empty field');
    if (problems.length) throw new Error(problems.join('\n'));

    return (
      `<bg-tool appearance="field"> in the iframe canvas (field ${Math.round(box.height)} px); kept a ${upload.bytes.length} B PNG ` +
      `as attachment ${upload.id}; ${apiWhileWorking} media API request${apiWhileWorking === 1 ? '' : 's'} while working, ` +
      `${after.length} on re-open and Open (${requests.length - since} requests in all, ${canvasRequests} from the canvas); a second block's field empty ("${empty.status}"); journey ${secs()} s`
    );
  } catch (err) {
    await page.screenshot({ path: join(app, 'failure.png') }).catch(() => {});
    throw err;
  } finally {
    await context.close();
    await server.close();
    rmSync(data, { recursive: true, force: true });
  }
}
