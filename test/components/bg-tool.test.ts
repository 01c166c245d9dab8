import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys, sendMouse } from '@web/test-runner-commands';
import '../../src/components/bg-tool/define.js';
import type { BgTool, BgToolValue } from '../../src/components/bg-tool/bg-tool.js';
import { MediaClient } from '../../src/client/media-client.js';
import type { ImageSucceededDetail, SucceededEvent } from '../../src/events/outcome.js';
import { charges, fault, photo, requestsTo, until } from '../fixtures/browser.js';
import { assetLibrary, apiRequests } from '../fixtures/asset-library.js';
import { phonePhoto, type PhonePhoto } from '../fixtures/phone-photo-files.js';
import { strayRequests, watchMeasures } from '../fixtures/timings.js';
import { runImageElementTests } from './shared/image-element-contract.js';
import { runProductElementTests } from './shared/product-element-contract.js';

const endpoint = '/mk-bg';
const cut = (el: Element) => el.shadowRoot!;
const q = <T extends Element = HTMLElement>(el: Element, sel: string): T | undefined =>
  cut(el).querySelector<T>(sel) ?? undefined;
const spent = () => charges('mk-bg', 'imageTool');

async function image(w = 320, h = 400): Promise<File> {
  return new File([await photo(w, h, 'image/png')], 'product.png', { type: 'image/png' });
}

/**
 * A fresh element. It keeps nothing unless a test asks (`keep: 'auto'`): a kept result is one more
 * request that counts against the proxy's 30 creates a minute, which this file's runs come near.
 */
async function mount(attrs: Partial<Record<'size' | 'format' | 'bg-color' | 'keep', string>> = {}): Promise<BgTool> {
  const el = await fixture<BgTool>(html`<bg-tool endpoint=${endpoint}></bg-tool>`);
  for (const [k, v] of Object.entries({ keep: 'none', ...attrs })) el.setAttribute(k, v!);
  await el.updateComplete;
  return el;
}

async function ready(el: BgTool, file?: File): Promise<void> {
  el.selectFile(file ?? (await image()));
  await until(() => el.status === 'ready' || q(el, '[part~="error"]'), 10_000, 'the image check');
  await el.updateComplete;
}

async function done(el: BgTool): Promise<void> {
  await el.updateComplete;
  await until(() => el.status === 'succeeded' || el.status === 'failed', 30_000, `the result (now ${el.status})`);
  await el.updateComplete;
}

/** RGBA of the pixel at (x, y) of an image blob. */
async function pixel(blob: Blob, x: number, y: number): Promise<number[]> {
  const bitmap = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(bitmap, 0, 0);
  return [...ctx.getImageData(x, y, 1, 1).data];
}

const near = (a: number[], b: number[], tolerance = 24) => a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);

describe('<bg-tool>: input', () => {
  it('refuses a file that is not an image, sending nothing', async () => {
    const el = await mount();
    const before = requestsTo(`${endpoint}/api/v1`);
    el.selectFile(new File(['hello'], 'photo.png', { type: 'image/png' }));
    const panel = await until(() => q<HTMLElement>(el, '[part~="error"]'), 5_000, 'the error panel');
    expect(panel.dataset['reason']).to.equal('not_image');
    expect(el.status).to.equal('idle');
    expect(requestsTo(`${endpoint}/api/v1`)).to.equal(before);
  });

  it('takes an address: refuses one that is not http(s), and sends a valid one for the service to fetch', async () => {
    const el = await mount();
    const input = q<HTMLInputElement>(el, '[part~="url-input"]')!;
    input.value = 'ftp://example.com/a.png';
    input.dispatchEvent(new Event('input'));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    await el.updateComplete;
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(cut(el).textContent).to.contain('starting with https://');
    el.selectUrl('https://images.example/shoe.jpg');
    await el.updateComplete;
    expect(el.status).to.equal('ready');
    const sent: string[] = [];
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body) {
      if (typeof body === 'string') sent.push(body);
      return send.call(this, body);
    };
    try {
      void el.start();
      await done(el);
    } finally {
      XMLHttpRequest.prototype.send = send;
    }
    expect(JSON.parse(sent[0]!)).to.include({ image_url: 'https://images.example/shoe.jpg' });
    expect(el.status).to.equal('failed'); // the sandbox cannot reach that host
    expect(q(el, '[part~="error"]')).to.not.equal(undefined);
  });
});

describe('<bg-tool>: changing the input', () => {
  it('an address chosen while a file is still being checked wins: the late check never replaces it', async () => {
    performance.clearMeasures('mediakit:bg-tool:validate');
    const el = await mount();
    el.selectFile(await image(3000, 3000)); // its check (decode) is still running on the next line
    el.selectUrl('https://images.example/shoe.jpg');
    await el.updateComplete;
    await new Promise((r) => setTimeout(r, 2_000)); // well past the file's check
    await el.updateComplete;
    expect(q<HTMLImageElement>(el, 'img')?.getAttribute('src'), 'the before picture').to.equal(
      'https://images.example/shoe.jpg',
    );
    expect(el.status).to.equal('ready');
    expect(
      performance.getEntriesByName('mediakit:bg-tool:validate').length,
      'the abandoned check is not a timing',
    ).to.equal(0);
  });
});

describe('<bg-tool>: options and outputs, checked by pixels', function () {
  this.timeout(90_000);

  it('PNG keeps transparency; the cost is said before; charged what the response says', async () => {
    const el = await mount();
    await ready(el);
    expect(q(el, '[part~="cost"]')!.textContent).to.contain('Costs 1 credit');
    const before = await spent();
    const ready$ = new Promise<SucceededEvent<ImageSucceededDetail>>((r) =>
      el.addEventListener('mk-succeeded', r as EventListener, { once: true }),
    );
    q(el, '[part~="primary-button"]')!.click();
    await done(el);
    const e = await ready$;
    expect(e.detail).to.include({ width: 320, height: 400, format: 'png', charged: 1 });
    expect(e.detail.blob.type).to.equal('image/png');
    expect(await spent()).to.equal(before + 1);
    expect((await pixel(e.detail.blob, 2, 2))[3], 'corner transparent').to.equal(0);
    expect((await pixel(e.detail.blob, 160, 220))[3], 'subject opaque').to.be.greaterThan(240);
    const facts = q(el, '[part~="facts"]')!.textContent!;
    expect(facts).to.contain('320×400').and.contain('PNG').and.contain('1 credit');
    expect(q(el, '.checkerboard')).to.not.equal(undefined);
    expect(q<HTMLAnchorElement>(el, '[part~="download"]')!.download).to.equal('product-no-background.png');
  });

  it('marks validate and process as mediakit:bg-tool:* measures for the site, sending nothing anywhere', async () => {
    const watch = watchMeasures();
    try {
      const el = await mount();
      await ready(el);
      q(el, '[part~="primary-button"]')!.click();
      await done(el);
      expect(el.status).to.equal('succeeded');
      const mine = await watch.wait('bg-tool', ['validate', 'process']);
      expect(Object.keys(mine).sort()).to.deep.equal(['process', 'validate']);
      for (const [phase, ms] of Object.entries(mine)) expect(ms, phase).to.be.greaterThan(0);
      expect(strayRequests(watch.since, endpoint)).to.deep.equal([]);
    } finally {
      watch.stop();
    }
  });

  it('applies a background colour (colour input) and JPG (no transparency: white)', async () => {
    const el = await mount();
    await ready(el);
    const colour = q<HTMLInputElement>(el, 'input[type="color"]')!;
    colour.value = '#00ff00';
    colour.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect(el.bgColor).to.equal('#00ff00');
    expect(q<HTMLInputElement>(el, 'input[name="none"]')!.checked).to.equal(false);
    void el.start();
    await done(el);
    const green = el.file!;
    expect(await pixel(green, 2, 2)).to.satisfy((p: number[]) => near(p, [0, 255, 0, 255]));

    q<HTMLInputElement>(el, 'input[name="none"]')!.click();
    q<HTMLInputElement>(el, 'input[name="format"][value="jpg"]')!.click();
    await el.updateComplete;
    expect(cut(el).textContent).to.contain('JPG has no transparency');
    q(el, '[part~="primary-button"]')!.click();
    await until(() => el.result?.format === 'jpg', 30_000, 'the JPG');
    const jpg = el.file!;
    expect(jpg.type).to.equal('image/jpeg');
    expect([...new Uint8Array(await jpg.slice(0, 3).arrayBuffer())]).to.deep.equal([0xff, 0xd8, 0xff]);
    expect(await pixel(jpg, 2, 2)).to.satisfy((p: number[]) => near(p, [255, 255, 255, 255]));
    expect(await pixel(jpg, 160, 220)).to.satisfy((p: number[]) => near(p, [0xc0, 0x56, 0x1b, 255], 40));
  });

  it('sizes preview (at most 0.25 MP) and full, and crops to the subject', async () => {
    const el = await mount();
    await ready(el, await image(1000, 800));
    const select = q<HTMLSelectElement>(el, 'select')!;
    select.value = 'preview';
    select.dispatchEvent(new Event('change'));
    void el.start();
    await done(el);
    expect(el.result!.width * el.result!.height)
      .to.be.at.most(250_000)
      .and.greaterThan(200_000);
    select.value = 'full';
    select.dispatchEvent(new Event('change'));
    void el.start();
    await until(() => el.result?.width === 1000, 30_000, 'the full-size result');
    expect(el.result!.height).to.equal(800);
    q<HTMLInputElement>(el, 'input[name="crop"]')!.click();
    await el.updateComplete;
    expect(el.crop).to.equal(true);
    void el.start();
    await until(() => el.result && el.result.width < 1000, 30_000, 'the cropped result');
    expect(el.result!.width).to.be.within(400, 600); // the subject is half the width
    expect((await pixel(el.file!, Math.floor(el.result!.width / 2), Math.floor(el.result!.height / 2)))[3]).to.equal(
      255,
    );
  });

  it('offers the result to the clipboard as PNG, also from a JPG, and says truly whether the browser took it', async () => {
    const el = await mount({ format: 'jpg' });
    await ready(el);
    void el.start();
    await done(el);
    expect(q(el, '[part~="copy-button"]')).to.not.equal(undefined);
    const written: string[][] = [];
    let allowed: boolean | undefined;
    const write = navigator.clipboard.write.bind(navigator.clipboard);
    navigator.clipboard.write = async (items: ClipboardItems) => {
      written.push(items.flatMap((i) => [...i.types]));
      // Headless Chromium usually refuses (no focused window); a headed one takes it.
      return write(items).then(
        () => void (allowed = true),
        (err: unknown) => ((allowed = false), Promise.reject(err)),
      );
    };
    try {
      q(el, '[part~="copy-button"]')!.click();
      await until(() => q(el, '.notice'), 5_000, 'the copy notice');
    } finally {
      navigator.clipboard.write = write;
    }
    expect(written).to.deep.equal([['image/png']]);
    expect(q(el, '.notice')!.textContent).to.equal(
      allowed ? 'Image copied to the clipboard' : 'This browser did not allow copying the image. Download it instead.',
    );
  });

  it('says running again is a new charge, and charges it', async () => {
    const el = await mount();
    await ready(el);
    void el.start();
    await done(el);
    const before = await spent();
    const again = q(el, '[part~="primary-button"]')!;
    expect(again.textContent).to.contain('Run again with these options (1 credit)');
    expect(cut(el).getElementById(again.getAttribute('aria-describedby')!)!.textContent).to.contain('new charge');
    again.click();
    await el.updateComplete;
    await done(el);
    expect(await spent()).to.equal(before + 1);
  });

  it('charges once for a double click', async () => {
    const el = await mount();
    await ready(el);
    const before = await spent();
    const button = q(el, '[part~="primary-button"]')!;
    button.click();
    button.click();
    void el.start();
    await done(el);
    expect(await spent()).to.equal(before + 1);
  });

  it('waits out a 429 with a countdown, charged once', async () => {
    const el = await mount();
    await ready(el);
    const before = await spent();
    await fault('mk-bg', 'rate_limit');
    void el.start();
    await until(() => q(el, '[part~="wait"]'), 10_000, 'the countdown');
    expect(q(el, '[part~="wait"]')!.textContent).to.match(/Trying again by itself in \d+ seconds?/);
    await done(el);
    expect(el.status).to.equal('succeeded');
    expect(await spent()).to.equal(before + 1);
  });

  it('with the budget spent: says so before, disables the button, and a scripted run() gets the 402 with a top-up and no charge', async () => {
    // The /mk-poor stack gives this browser's session 5 credits: spend them through the page's own client first.
    const client = new MediaClient({ endpoint: '/mk-poor' });
    for (let i = 0; i < 5; i++) await client.imageTool({ image: await image(64, 64) });
    const before = await charges('mk-poor', 'imageTool');
    const el = await fixture<BgTool>(html`<bg-tool endpoint="/mk-poor" top-up-href="/buy"></bg-tool>`);
    await ready(el);
    await until(() => q(el, '[part~="cost"]')?.textContent?.includes('left'), 5_000, 'the budget');
    expect(q(el, '[part~="cost"]')!.textContent).to.contain('Needs 1 credit').and.contain('0 credits left');
    expect(q<HTMLButtonElement>(el, '[part~="primary-button"]')!.disabled).to.equal(true);
    await el.start(); // a script calling it anyway
    const panel = await until(() => q<HTMLElement>(el, '[part~="error"]'), 5_000, 'the 402 panel');
    expect(panel.dataset['reason']).to.equal('insufficient_credits');
    expect(q<HTMLAnchorElement>(el, '[part~="error"] a[part~="top-up"]')!.getAttribute('href')).to.equal('/buy');
    expect(q(el, '[part~="primary-button"]'), 'the image and its options stay for when there are credits').to.not.equal(
      undefined,
    );
    expect(q(el, '[part~="drop-zone"]'), 'not sent back to choosing a file').to.equal(undefined);
    expect(await charges('mk-poor', 'imageTool')).to.equal(before);
  });

  it('says nothing was charged when the service fails', async () => {
    const el = await mount();
    await ready(el);
    const before = await spent();
    await fault('mk-bg', 'create_error');
    void el.start();
    await done(el);
    expect(el.status).to.equal('failed');
    expect(q(el, '[part~="error"]')!.textContent).to.contain('Nothing was charged');
    expect(await spent()).to.equal(before);
  });
});

describe('<bg-tool>: in a form', function () {
  this.timeout(60_000);

  it('is required until there is a result, submits the value and the file (`NAME-file`) as multipart, and a reset clears both', async () => {
    const wrap = await fixture(html`<div>
      <form method="post" enctype="multipart/form-data" action="/__test/echo-form" target="sink">
        <input name="title" value="Red shoe" />
        <bg-tool endpoint=${endpoint} name="cutout" required></bg-tool>
      </form>
      <iframe name="sink" title="sink"></iframe>
    </div>`);
    const form = wrap.querySelector('form')!;
    const el = wrap.querySelector('bg-tool')!;
    await el.updateComplete;
    expect(form.checkValidity()).to.equal(false);
    expect(el.validity.valueMissing).to.equal(true);
    expect(el.validationMessage).to.equal('Remove the background of an image first.');
    const changed = new Promise((r) => el.addEventListener('change', r, { once: true }));
    await ready(el);
    void el.start();
    await done(el);
    await changed; // keeping settled: the value will not change under the submit
    expect(form.checkValidity()).to.equal(true);
    const frame = wrap.querySelector('iframe')!;
    const loaded = new Promise((r) => frame.addEventListener('load', r, { once: true }));
    form.requestSubmit();
    await loaded;
    const echoed = JSON.parse(frame.contentDocument!.body.textContent!) as {
      parts: { name: string; filename?: string; type?: string; size?: number; value?: string }[];
    };
    expect(echoed.parts).to.deep.include({ name: 'title', value: 'Red shoe' });
    expect(echoed.parts).to.deep.include({ name: 'cutout', value: el.value });
    expect(JSON.parse(el.value)).to.include({ kind: 'background-removal', width: 320, height: 400 });
    expect(echoed.parts).to.deep.include({
      name: 'cutout-file',
      filename: 'product-no-background.png',
      type: 'image/png',
      size: el.file!.size,
    });
    expect(echoed.parts.map((p) => p.name)).to.deep.equal(['title', 'cutout', 'cutout-file']);
    const seen: string[] = [];
    for (const type of ['input', 'change']) el.addEventListener(type, () => seen.push(type));
    form.reset();
    await el.updateComplete;
    expect(el.status).to.equal('idle');
    expect(el.value).to.equal('');
    expect(el.result).to.equal(null);
    expect(el.file).to.equal(null);
    expect(seen, 'a form reset is no user change').to.deep.equal([]);
    expect(form.checkValidity()).to.equal(false);
  });
});

describe('<bg-tool>: slider, language, keyboard, accessibility', function () {
  this.timeout(90_000);

  it('moves the before/after slider by keyboard and pointer', async () => {
    const el = await mount();
    await ready(el);
    void el.start();
    await done(el);
    const slider = q(el, '[role="slider"]')!;
    expect(slider.getAttribute('aria-valuenow')).to.equal('50');
    slider.focus();
    await sendKeys({ press: 'ArrowLeft' });
    expect(slider.getAttribute('aria-valuenow')).to.equal('45');
    await sendKeys({ press: 'ArrowRight' });
    await sendKeys({ press: 'ArrowRight' });
    expect(slider.getAttribute('aria-valuenow')).to.equal('55');
    await sendKeys({ press: 'Home' });
    expect(slider.getAttribute('aria-valuenow')).to.equal('0');
    expect(slider.getAttribute('aria-valuetext')).to.equal('100% of the result shown');
    await sendKeys({ press: 'End' });
    expect(slider.getAttribute('aria-valuenow')).to.equal('100');
    const box = q(el, '[part~="compare"]')!.getBoundingClientRect();
    await sendMouse({
      type: 'click',
      position: [Math.round(box.left + box.width * 0.25), Math.round(box.top + box.height / 2)],
    });
    await el.updateComplete;
    expect(Number(slider.getAttribute('aria-valuenow'))).to.be.within(23, 27);
    const after = q(el, '.after')!;
    expect(getComputedStyle(after).clipPath).to.match(/inset\(0px 0px 0px 2[3-7]%\)/);
  });

  it('speaks German under lang="de"', async () => {
    const wrap = await fixture(html`<div lang="de"><bg-tool endpoint=${endpoint}></bg-tool></div>`);
    const el = wrap.querySelector('bg-tool')!;
    await until(() => cut(el).textContent?.includes('Bild auswählen'), 5_000, 'German strings');
    await ready(el);
    expect(q(el, '[part~="options"]')!.textContent)
      .to.contain('PNG mit Transparenz')
      .and.contain('Auf das Motiv zuschneiden');
    expect(q(el, '[part~="primary-button"]')!.textContent).to.contain('Hintergrund entfernen (1 Credit)');
  });

  it('has no serious or critical axe violations in any state', async () => {
    const el = await mount();
    const check = async () => {
      await el.updateComplete;
      await expect(el).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
    };
    await check(); // idle
    await ready(el);
    await check(); // ready
    void el.start();
    await el.updateComplete;
    expect(el.status).to.equal('sending');
    await check(); // working
    await done(el);
    await check(); // succeeded
    await fault('mk-bg', 'create_error');
    void el.start();
    await done(el);
    expect(el.status).to.equal('failed');
    await check(); // failed
  });
});

describe('<bg-tool>: phases', function () {
  this.timeout(60_000);

  it('a reset while working cancels: back to idle, no failure shown, no `process` timing', async () => {
    const el = await mount();
    await ready(el);
    const measured = performance.getEntriesByName('mediakit:bg-tool:process').length;
    void el.start();
    await el.updateComplete;
    expect(el.status).to.equal('sending');
    el.reset();
    await until(() => el.status === 'idle', 10_000, `idle after the reset (now ${el.status})`);
    await new Promise((r) => setTimeout(r, 500));
    await el.updateComplete;
    expect(el.status).to.equal('idle');
    expect(el.matches(':state(idle)')).to.equal(true);
    expect(q(el, '[part~="error"]')).to.equal(undefined);
    expect(
      performance.getEntriesByName('mediakit:bg-tool:process').length,
      'the cancelled run is not a timing',
    ).to.equal(measured);
  });

  it('disabled with a result: every button and field is off', async () => {
    const el = await mount();
    await ready(el);
    void el.start();
    await done(el);
    el.disabled = true;
    await el.updateComplete;
    // :disabled, not .disabled: the options' own fieldset disables what is inside it.
    const enabled = [...cut(el).querySelectorAll('button, input:not([hidden]), select')].filter(
      (c) => !c.matches(':disabled'),
    );
    expect(enabled.map((c) => c.outerHTML.slice(0, 80))).to.deep.equal([]);
  });
});

/**
 * The site's own media library, as a CMS gives it to `assetHandler`: it keeps each blob under a
 * path of this page and answers that path itself (a stand-in for the CMS's file server, so the
 * kept URL is an ordinary same-origin URL the element fetches).
 */
const apiCalls = () => apiRequests(endpoint);

/** The events `el` fires from now on, by type. */
function record(el: Element, types = ['input', 'change', 'mk-succeeded']): string[] {
  const seen: string[] = [];
  for (const type of types) el.addEventListener(type, () => seen.push(type));
  return seen;
}

const bytesOf = async (blob: Blob) => [...new Uint8Array(await blob.arrayBuffer())];

describe('<bg-tool>: its value', function () {
  this.timeout(90_000);
  let lib: ReturnType<typeof assetLibrary>;
  /** One result, made and kept in `lib` once (the tests below show it again, which costs nothing). */
  let first: { el: BgTool; seen: string[]; calls: typeof lib.calls };
  let saved: string;
  let savedFile: File;
  before(async () => {
    lib = assetLibrary();
    const el = await mount({ 'bg-color': '#0f0', keep: 'auto' });
    el.assetHandler = lib.handler;
    const seen = record(el);
    await ready(el);
    expect(seen, 'an image alone is no value').to.deep.equal([]);
    void el.start();
    await done(el);
    await until(() => seen.includes('change'), 10_000, '`change`');
    await new Promise((r) => setTimeout(r, 300));
    first = { el, seen, calls: [...lib.calls] };
    [saved, savedFile] = [el.value, el.file!];
  });
  beforeEach(() => (lib.calls.length = 0));
  after(() => lib.close());

  it('is a versioned JSON value: `input` with the result, one `change` once the assetHandler kept it, which it names', async () => {
    const { el, seen, calls } = first;
    expect(seen).to.deep.equal(['input', 'mk-succeeded', 'change']);
    expect(calls.length, 'the handler is called once').to.equal(1);
    const [{ blob, info }] = calls as [(typeof calls)[0]];
    expect(info).to.deep.include({ type: 'image/png', kind: 'background-removal' });
    // A unique, descriptive name (the file's own name and an id) and a key for the media library.
    expect(info.filename).to.match(/^product-no-background-[0-9a-f]{10}\.png$/);
    expect(info.key).to.match(/^background-removal-[0-9a-f]{32}$/);
    expect(await bytesOf(blob)).to.deep.equal(await bytesOf(el.file!));
    const value = JSON.parse(el.value) as BgToolValue;
    const id = '1';
    expect(value).to.deep.equal({
      v: 1,
      kind: 'background-removal',
      status: 'succeeded',
      asset: { url: `/__library/${id}/${info.filename}`, type: 'image/png', bytes: blob.size, id },
      created: value.created,
      width: 320,
      height: 400,
      format: 'png',
      options: { size: 'auto', format: 'png', bgColor: '#00ff00', crop: false },
      charged: 1,
    });
    expect(Date.now() - Date.parse(value.created)).to.be.within(0, 60_000);
    expect(el.result).to.deep.equal(value);
    expect(el.value).to.not.match(/blob:|data:|\/files\//);
    expect(q(el, '[part~="keep"]')!.textContent!.trim()).to.equal('Saved.');
    expect(q(el, '[part~="announcer"]')!.textContent).to.contain('Background removed: 320×400 PNG');
  });

  it('shows a saved value on a new element: the same bytes, its facts, no comparison and no run without the original, no API call, no event', async () => {
    const value = saved;
    const before = apiCalls();
    const el = await mount();
    const seen = record(el);
    el.value = value;
    await until(() => el.matches(':state(succeeded)'), 10_000, 'the restored result');
    await el.updateComplete;
    const img = q<HTMLImageElement>(el, '.result img')!;
    expect(await bytesOf(await (await fetch(img.src)).blob())).to.deep.equal(await bytesOf(savedFile));
    expect(await bytesOf(el.file!)).to.deep.equal(await bytesOf(savedFile));
    expect(img.alt).to.equal('Image without background');
    expect(q(el, '[part~="facts"]')!.textContent).to.contain('320×400').and.contain('PNG').and.contain('1 credit');
    const download = q<HTMLAnchorElement>(el, '[part~="download"]')!;
    expect(download.href).to.equal(img.src);
    expect(download.download).to.equal('image-no-background.png');
    expect(q(el, '[part~="compare"]'), 'no before/after without the original').to.equal(undefined);
    expect(q(el, '[part~="primary-button"]'), 'no run without an image').to.equal(undefined);
    expect(q(el, '[part~="drop-zone"]'), 'the result, not the intake').to.equal(undefined);
    expect(q(el, '[part~="keep"]'), 'nothing is being kept').to.equal(undefined);
    await new Promise((r) => setTimeout(r, 300));
    expect(q(el, '[part~="announcer"]')!.textContent!.trim(), 'an opened value is no milestone to announce').to.equal(
      '',
    );
    expect(apiCalls(), 'requests to the API').to.equal(before);
    expect(seen, 'setting a value fires nothing, and it is no fresh image').to.deep.equal([]);
    expect(el.value).to.equal(value);
    expect(el.result).to.deep.equal(JSON.parse(value));
    await expect(el).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
    el.value = value; // the same again: nothing happens
    await el.updateComplete;
    expect(q<HTMLImageElement>(el, '.result img')!.src).to.equal(img.src);
  });

  it('takes its value from the `value` attribute too, as a server-rendered form gives it', async () => {
    const el = await fixture<BgTool>(html`<bg-tool endpoint=${endpoint} value=${saved}></bg-tool>`);
    await until(() => el.matches(':state(succeeded)'), 10_000, 'the restored result');
    expect(el.value).to.equal(saved);
    expect(q(el, '.result img')).to.not.equal(undefined);
  });

  it('the user removes a result with "Use another image" or a new image: `change` once, no value; a scripted reset fires nothing', async () => {
    const value = saved;
    const el = await mount();
    el.value = value;
    await until(() => el.status === 'succeeded', 10_000, 'the restored result');
    const seen = record(el);
    [...cut(el).querySelectorAll('button')].find((b) => b.textContent!.trim() === 'Use another image')!.click();
    await el.updateComplete;
    expect(seen).to.deep.equal(['change']);
    expect([el.value, el.result, el.file, el.status]).to.deep.equal(['', null, null, 'idle']);
    expect(q(el, '[part~="drop-zone"]')).to.not.equal(undefined);

    el.value = value; // restored, then a new image chosen over it
    await until(() => el.status === 'succeeded', 10_000, 'the restored result');
    await ready(el);
    expect(seen).to.deep.equal(['change', 'change']);
    expect(el.value).to.equal('');
    expect(el.status).to.equal('ready');

    el.value = value;
    await until(() => el.status === 'succeeded', 10_000, 'the restored result');
    el.reset();
    el.value = value;
    el.value = '';
    await el.updateComplete;
    expect(seen, 'no event for a script').to.deep.equal(['change', 'change']);
    expect(el.status).to.equal('idle');
  });

  it('a value set while the background is being removed cancels that, and shows the value', async () => {
    const value = saved;
    const el = await mount();
    const seen = record(el);
    await ready(el);
    void el.start();
    await el.updateComplete;
    expect(el.status).to.equal('sending');
    el.value = value;
    await until(() => el.status === 'succeeded', 10_000, 'the value shown');
    await new Promise((r) => setTimeout(r, 1_000)); // long past the request's answer
    expect(seen, 'the cancelled request shows nothing').to.deep.equal([]);
    expect(el.value).to.equal(value);
    expect(q(el, '[part~="error"]')).to.equal(undefined);
    expect(q(el, '[part~="compare"]')).to.equal(undefined);
  });

  it('refuses a value it cannot show, with a warning naming why, and stays as it was', async () => {
    const value = JSON.parse(saved) as BgToolValue;
    const el = await mount();
    el.value = saved;
    await until(() => el.status === 'succeeded', 10_000, 'the value shown');
    const shown = el.value;
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
    const handle = 'h'.repeat(24);
    const cases: [object, RegExp][] = [
      [{ ...value, asset: { ...value.asset, type: 'text/html' } }, /"asset\.type"/],
      [{ ...value, width: 0 }, /"width"/],
      [{ ...value, format: 'gif' }, /"format"/],
      [{ ...value, options: { ...value.options, size: 'huge' } }, /"options\.size"/],
      [{ ...value, options: { ...value.options, bgColor: 'red' } }, /"options\.bgColor"/],
      [{ ...value, charged: -1 }, /"charged"/],
      [{ ...value, job: handle }, /"job"/],
      [{ ...value, status: 'running', job: handle }, /"status"/],
      [{ ...value, asset: null }, /"asset"/],
      [{ ...value, kind: 'headshot' }, /"kind"/],
    ];
    try {
      for (const [bad, problem] of cases) {
        warnings.length = 0;
        el.value = JSON.stringify(bad);
        await el.updateComplete;
        expect(warnings.join('\n'), JSON.stringify(bad).slice(0, 80)).to.match(problem);
        expect(el.value).to.equal(shown);
        expect(el.status).to.equal('succeeded');
      }
    } finally {
      console.warn = warn;
    }
  });

  it('a kept image that is gone: failed, the value kept, and starting over removes it', async () => {
    const value = JSON.parse(saved) as BgToolValue;
    const gone = JSON.stringify({ ...value, asset: { ...value.asset, url: '/__library/gone/image.png' } });
    const el = await mount();
    const seen = record(el);
    el.value = gone;
    const panel = await until(() => q<HTMLElement>(el, '[part~="error"]'), 10_000, 'the error panel');
    expect(panel.dataset['reason']).to.equal('not_found');
    expect(el.status).to.equal('failed');
    expect(el.matches(':state(failed)')).to.equal(true);
    expect(el.value).to.equal(gone);
    await expect(el).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
    [...panel.querySelectorAll('button')].find((b) => b.textContent!.trim() === 'Start over')!.click();
    await el.updateComplete;
    expect(seen).to.deep.equal(['change']);
    expect([el.value, el.status]).to.deep.equal(['', 'idle']);
  });

  it('says when keeping failed, with a retry that keeps it; `change` fires once, after', async () => {
    let fail = true;
    const el = await mount({ keep: 'auto' });
    el.assetHandler = (blob, info) =>
      fail ? Promise.reject(new Error('the media library is down')) : lib.handler(blob, info);
    const seen = record(el);
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      await ready(el);
      void el.start();
      await done(el);
      const retry = await until(() => q<HTMLElement>(el, '[part~="keep-retry"]'), 10_000, 'the keep retry');
      expect(q(el, '[part~="keep"]')!.textContent).to.contain('could not be saved');
      expect(JSON.parse(el.value).asset).to.equal(null);
      expect(seen).to.deep.equal(['input', 'mk-succeeded']);
      fail = false;
      retry.click();
      await until(() => seen.includes('change'), 10_000, '`change`');
    } finally {
      console.warn = warn;
    }
    expect(seen).to.deep.equal(['input', 'mk-succeeded', 'change']);
    expect(JSON.parse(el.value).asset.url).to.match(
      new RegExp(`^/__library/${lib.kept.size}/product-no-background-[0-9a-f]{10}\\.png$`),
    );
    expect(lib.calls.length).to.equal(1);
  });

  it('keep="none": nothing keeps it (not even the handler), the value says so, and nothing goes to the result store', async () => {
    const stored = requestsTo(`${endpoint}/results`);
    const el = await mount({ keep: 'auto' });
    el.keep = 'none'; // as a site sets it
    el.assetHandler = lib.handler;
    const seen = record(el);
    await ready(el);
    void el.start();
    await done(el);
    await until(() => seen.includes('mk-succeeded'), 10_000, '`mk-succeeded`');
    await new Promise((r) => setTimeout(r, 300));
    // Nothing to wait for: `change` comes at once with the value.
    expect(seen).to.have.members(['input', 'mk-succeeded', 'change']).and.to.have.length(3);
    expect(JSON.parse(el.value)).to.include({ asset: null, kind: 'background-removal' });
    expect(lib.calls).to.deep.equal([]);
    expect(requestsTo(`${endpoint}/results`)).to.equal(stored);
    expect(q(el, '[part~="keep"]')).to.equal(undefined);
  });
});

runProductElementTests({
  tag: 'bg-tool',
  endpoint,
  idleState: 'idle',
  vocabulary: {
    file: () => image(),
    prepare: (el) => ready(el as BgTool),
    // The sandbox holds its answer back: seconds to see `sending` and to cancel.
    slowly: async (el) => (await ready(el as BgTool), await fault('mk-bg', 'slow', { count: 1, ms: 1_500 })),
    fail: () => fault('mk-bg', 'create_error'),
  },
  produce: async (el) => {
    await ready(el as BgTool);
    void (el as BgTool).start();
    await done(el as BgTool);
  },
});

describe('<bg-tool>: photos as phones make them (made to fit before anything is spent)', function () {
  this.timeout(120_000);

  /** Chooses a corpus photo, removes its background, and says what the facts line said and what came back. */
  async function removeBackground(name: PhonePhoto) {
    const el = await mount({ format: 'jpg' });
    const before = await spent();
    const sent = requestsTo(`${endpoint}/api/v1`);
    el.selectFile(await phonePhoto(name));
    await until(() => el.status === 'ready' || q(el, '[part~="error"]'), 60_000, 'the image check');
    await el.updateComplete;
    expect(q(el, '[part~="error"]'), 'no refusal').to.equal(undefined);
    expect(requestsTo(`${endpoint}/api/v1`), 'nothing sent while converting').to.equal(sent);
    const facts = q(el, '[part~="photo-fit"]')?.textContent ?? '';
    const ready$ = new Promise<SucceededEvent<ImageSucceededDetail>>((r) =>
      el.addEventListener('mk-succeeded', r as EventListener, { once: true }),
    );
    q(el, '[part~="primary-button"]')!.click();
    await done(el);
    expect(el.status).to.equal('succeeded');
    expect(await spent(), 'exactly one charge').to.equal(before + 1);
    return { facts, detail: (await ready$).detail };
  }

  it('an iPhone HEIC (12 MP): converted in the browser (its pixels kept), one charge', async () => {
    const { facts, detail } = await removeBackground('iphone-12mp.heic');
    expect(facts).to.match(/^Converted from HEIC, \d+(\.\d)? MB to \d+(\.\d)? MB\.$/);
    // The service's auto size gives at most 10 MP: the 12 MP original arrived whole.
    expect(detail.width / detail.height).to.be.closeTo(4032 / 3024, 0.01);
  });

  it('a 24 MP Android JPEG over 12 MB: re-encoded under 12 MB, one charge', async () => {
    const { facts } = await removeBackground('android-24mp.jpg');
    expect(facts).to.match(/^Made to fit, (24\sMP to \d+(\.\d)?\sMP, )?14(\.\d)? MB to \d+(\.\d)? MB\.$/);
  });

  it('a JPEG with EXIF orientation 6: drawn upright, so the result is portrait; one charge', async () => {
    const { facts, detail } = await removeBackground('exif-6.jpg');
    expect(facts).to.match(/, turned upright\.$/);
    expect([detail.width, detail.height]).to.deep.equal([400, 600]);
  });

  it('a 16-bit PNG and a CMYK JPEG: sent unchanged (the API takes them); one charge each', async () => {
    for (const name of ['deep-16bit.png', 'print-cmyk.jpg'] as const) {
      const { facts, detail } = await removeBackground(name);
      expect(facts, name).to.equal('');
      expect([detail.width, detail.height], name).to.deep.equal([800, 600]);
    }
  });
});

runImageElementTests({
  tag: 'bg-tool',
  endpoint,
  attrs: 'keep="none"',
  image: () => image(),
  resultHeading: '.result-title',
  afterHeading: (active) => expect(active?.getAttribute('role')).to.equal('slider'),
  finish: async (_, active) => {
    await sendKeys({ press: 'End' });
    expect(active()?.getAttribute('aria-valuenow')).to.equal('100');
    await sendKeys({ press: 'Tab' });
    expect(active()?.getAttribute('part')).to.equal('download');
  },
});
