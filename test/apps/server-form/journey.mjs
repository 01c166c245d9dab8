// The plain server form's journey (scripts/apps.mjs runs it with the installed package): an editor
// opens /edit/1, makes a cut-out in the field, types a title and presses Save (a real form
// submission: the page runs no JavaScript of the site's own); the server gets the JSON and the
// image, keeps the image in its media folder and redirects to the form, which shows the saved
// picture again without a single API request. Saving again changes nothing; with JavaScript off the
// form still renders and a save keeps the picture.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSite } from './server.mjs';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

function assert(ok, message) {
  if (!ok) throw new Error(message);
}

/** A product photo: an orange oval on a light grey background (what the sandbox cuts out). */
async function photo(shared) {
  const sharp = createRequire(join(shared, 'x.js'))('sharp');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="400">
    <rect width="320" height="400" fill="#dfe3e8"/><ellipse cx="160" cy="220" rx="80" ry="120" fill="#c0561b"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export default async function journey({ shared, installed, browser, createDevStack, log }) {
  const t0 = performance.now();
  const secs = () => ((performance.now() - t0) / 1000).toFixed(1);
  const dataDir = mkdtempSync(join(tmpdir(), 'server-form-'));
  const site = createSite({
    stack: createDevStack({ sandbox: { speed: 600 } }),
    cdnDir: join(installed, 'cdn'),
    dataDir,
  });
  const base = await site.listen(0);
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const requests = [];
  page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
  const api = (list) => list.filter((r) => r.includes('/mediakit/api/'));
  const notes = [];
  try {
    // ---- 1. the empty form -----------------------------------------------------------------
    await page.goto(`${base}/edit/1`);
    const scripts = await page.evaluate(() => [...document.scripts].map((s) => s.getAttribute('src') ?? 'inline'));
    assert(
      scripts.length === 1 && scripts[0] === '/cdn/mediakit-elements.js',
      `the page loads scripts other than the CDN build: ${scripts.join(', ')}`,
    );
    const tool = page.locator('bg-tool[name="cutout"]');
    await page.waitForFunction(
      () => customElements.get('bg-tool') && document.querySelector('bg-tool').shadowRoot,
      null,
      {
        timeout: 20_000,
      },
    );
    // Field mode (appearance="field"): Create opens the whole tool in its dialog. Before field mode
    // exists in the package, the element shows the whole tool in the page.
    const field = await page.evaluate(() => document.querySelector('bg-tool').appearance === 'field');
    if (field) {
      await tool.locator('[part~="field-create"]').click();
      await tool.locator('[part~="dialog"]').waitFor({ state: 'visible', timeout: 5_000 });
    } else notes.push('no field mode in this build: the whole element was used');

    // ---- 2. make a cut-out ----------------------------------------------------------------
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      tool.locator('[part~="choose-button"]').first().click(),
    ]);
    await chooser.setFiles({ name: 'chair.png', mimeType: 'image/png', buffer: await photo(shared) });
    await page.waitForFunction(() => document.querySelector('bg-tool').status === 'ready', null, { timeout: 15_000 });
    // `change` comes once the result is kept (the proxy's result store here).
    const changed = page.evaluate(
      () =>
        new Promise((done) =>
          document.querySelector('bg-tool').addEventListener('change', (e) => done(e.target.value), { once: true }),
        ),
    );
    await tool.locator('[part~="primary-button"]').click();
    const made = await Promise.race([
      changed,
      new Promise((_, no) => setTimeout(() => no(new Error('no change event within 30 s')), 30_000)),
    ]);
    const madeValue = JSON.parse(made);
    assert(madeValue.asset?.url, `the committed value has no kept asset: ${made}`);
    const produced = await page.evaluate(async () => {
      const file = document.querySelector('bg-tool').file;
      const bytes = new Uint8Array(await file.arrayBuffer());
      return { name: file.name, type: file.type, bytes: [...bytes] };
    });
    const producedHash = sha256(Buffer.from(produced.bytes));
    if (field) {
      await tool.locator('[part~="dialog-close"]').click();
      await tool.locator('[part~="dialog"]').waitFor({ state: 'hidden', timeout: 5_000 });
    }
    await page.fill('input[name="title"]', 'Red chair');
    const tMade = secs();

    // ---- 3. Save: a real form submission ----------------------------------------------------
    requests.length = 0; // from here on: the post, the redirect and the form again
    await Promise.all([page.waitForURL(/\/edit\/1\?saved=1$/), page.click('form > button')]);
    const first = site.posts.at(-1);
    assert(first, 'the server received no post');
    assert(first.cutout === made, `the server got another value:\n${first.cutout}\nnot\n${made}`);
    assert(first.file, `the server got no cutout-file (fields: ${first.fields.join(', ')})`);
    assert(
      first.file.sha256 === producedHash && first.file.bytes === produced.bytes.length,
      `the server's file (${first.file.bytes} bytes) is not the element's (${produced.bytes.length} bytes)`,
    );
    assert(first.title === 'Red chair', `title ${first.title}`);
    assert(first.outcome === 'replaced', `outcome ${first.outcome} ${first.errors ?? ''}`);
    const stored = site.record('1').cutout;
    const storedValue = JSON.parse(stored);
    assert(storedValue.asset.url === `/media/${first.file.sha256}.png`, `stored url ${storedValue.asset.url}`);
    assert(
      sha256(readFileSync(join(site.mediaDir, `${first.file.sha256}.png`))) === producedHash,
      'the media folder holds other bytes',
    );

    // ---- 4. the form again: the saved picture, no API request --------------------------------
    await page.waitForFunction(
      () => {
        const el = document.querySelector('bg-tool');
        return el?.status === 'succeeded' && el.file;
      },
      null,
      { timeout: 15_000 },
    );
    const shown = await page.evaluate(async () => {
      const el = document.querySelector('bg-tool');
      const bytes = new Uint8Array(await el.file.arrayBuffer());
      const img = el.shadowRoot.querySelector('[part~="field-preview"]');
      return {
        attr: el.getAttribute('value'),
        value: el.value,
        form: new FormData(document.querySelector('form')).get('cutout'),
        bytes: [...bytes],
        preview: img ? { src: img.getAttribute('src'), width: img.naturalWidth, complete: img.complete } : null,
        title: document.querySelector('input[name="title"]').value,
      };
    });
    assert(shown.attr === stored, 'the value attribute is not the stored JSON');
    assert(shown.form === stored, `FormData(form).get('cutout') is not the stored JSON:\n${shown.form}\n${stored}`);
    assert(shown.title === 'Red chair', `title shows ${shown.title}`);
    assert(sha256(Buffer.from(shown.bytes)) === producedHash, 'the field shows other bytes than were saved');
    if (field) {
      assert(
        shown.preview?.complete && shown.preview.width > 0,
        `no preview in the field: ${JSON.stringify(shown.preview)}`,
      );
    }
    await page.waitForTimeout(1_000); // anything late (a budget read, a lazy panel) is counted too
    const afterSave = requests.slice();
    assert(api(afterSave).length === 0, `the saved form asked the API: ${api(afterSave).join(', ')}`);
    const mediaGets = afterSave.filter((r) => r.includes('/media/')).length;
    const proxyCalls = afterSave.filter((r) => r.includes('/mediakit/'));

    // ---- 5. Save again, unchanged ----------------------------------------------------------
    await Promise.all([page.waitForURL(/\/edit\/1\?saved=1$/), page.click('form > button')]);
    const second = site.posts.at(-1);
    assert(second !== first, 'the second save did not reach the server');
    assert(second.cutout === stored, 'the second save sent another value');
    assert(second.outcome === 'unchanged', `second save: ${second.outcome} ${second.errors ?? ''}`);
    assert(site.record('1').cutout === stored, 'the second save changed the stored value');
    assert(readdirSync(site.mediaDir).length === 1, `media holds ${readdirSync(site.mediaDir).join(', ')}`);
    await page.waitForFunction(() => document.querySelector('bg-tool')?.status === 'succeeded', null, {
      timeout: 15_000,
    });

    // ---- 6. JavaScript off: the form renders; a save keeps the picture ---------------------
    const plain = await browser.newContext({ javaScriptEnabled: false });
    try {
      const p = await plain.newPage();
      await p.goto(`${base}/edit/1`);
      const attr = await p.locator('bg-tool[name="cutout"]').getAttribute('value');
      assert(attr === stored, 'without JavaScript the page does not hold the value');
      assert((await p.inputValue('input[name="title"]')) === 'Red chair', 'without JavaScript: no title');
      const still = await p.evaluate(() => {
        const img = document.querySelector('img[alt="The saved cut-out"]');
        return img && { src: img.getAttribute('src'), width: img.naturalWidth };
      });
      assert(
        still?.src === storedValue.asset.url && still.width === storedValue.width,
        `without JavaScript no saved picture: ${JSON.stringify(still)}`,
      );
      await p.fill('input[name="title"]', 'Red chair (no JS)');
      await Promise.all([p.waitForURL(/\/edit\/1\?saved=1$/), p.click('form > button')]);
      const third = site.posts.at(-1);
      assert(third.cutout === null && !third.file, `without JavaScript the form posted ${third.fields.join(', ')}`);
      assert(third.outcome === 'kept (no cutout field)', `no-JS save: ${third.outcome}`);
      assert(site.record('1').cutout === stored, 'the save without JavaScript lost the picture');
      assert(site.record('1').title === 'Red chair (no JS)', 'the save without JavaScript lost the title');
      assert((await p.locator('bg-tool').getAttribute('value')) === stored, 'no value after the no-JS save');
    } finally {
      await plain.close();
    }

    // ---- 7. Remove, then Save (what the element posts for "no picture") -----------------------
    if (field) {
      await page.reload();
      await page.waitForFunction(() => document.querySelector('bg-tool')?.status === 'succeeded', null, {
        timeout: 15_000,
      });
      await tool.locator('[part~="field-remove"]').click();
      await Promise.all([page.waitForURL(/\/edit\/1\?saved=1$/), page.click('form > button')]);
      const fourth = site.posts.at(-1);
      // An element with no value posts an empty entry (as an empty input does), so the server can
      // tell "removed" from "not sent" (JavaScript off) and clears the field.
      assert(
        fourth.cutout === '',
        `after Remove the element posted ${JSON.stringify(fourth.cutout)}, not an empty entry`,
      );
      assert(site.record('1').cutout === '', 'Remove then Save did not clear the value');
    }

    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    return (
      `${field ? 'field mode' : 'full element'}: cut-out made in ${tMade} s; the server got the JSON and the ` +
      `${first.file.type} cutout-file (the element's value named ${madeValue.asset.url.split('/').slice(0, 3).join('/')}/…; ` +
      `${first.file.bytes} bytes, same SHA-256 as el.file), kept it as ` +
      `${storedValue.asset.url.slice(0, 20)}…; the re-rendered form showed the same bytes with ` +
      `${api(afterSave).length} /mediakit/api/ requests (${proxyCalls.length} to /mediakit/ at all` +
      `${proxyCalls.length ? `: ${[...new Set(proxyCalls)].join(', ')}` : ''}; ${mediaGets} to /media/), ` +
      `FormData's cutout = the stored JSON; saved again unchanged; without JavaScript the form rendered and ` +
      `kept the picture${field ? '; Remove then Save cleared it' : ''}${notes.length ? `; NOTE ${notes.join('; ')}` : ''} (${secs()} s)`
    );
  } finally {
    await context.close();
    await site.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
