import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { unzipSync } from 'fflate';
import '../../src/components/headshot-studio/define.js';
import type { HeadshotStudio } from '../../src/components/headshot-studio/headshot-studio.js';
import type { HeadshotsSucceededDetail, SucceededEvent } from '../../src/events/outcome.js';

type HeadshotsSucceeded = SucceededEvent<HeadshotsSucceededDetail>;
import type { HeadshotChosenEvent } from '../../src/events/headshot-chosen.js';
import type { FileSelectedEvent } from '../../src/events/file-selected.js';
import { fault, ledger, photo, requestsTo, until, type StackName } from '../fixtures/browser.js';
import { apiRequests } from '../fixtures/asset-library.js';
import { phonePhoto, type PhonePhoto } from '../fixtures/phone-photo-files.js';
import { strayRequests, watchMeasures } from '../fixtures/timings.js';
import { runImageElementTests } from './shared/image-element-contract.js';
import { runProductElementTests } from './shared/product-element-contract.js';

const endpoint = '/mk-headshot';
const cut = (el: Element) => el.shadowRoot!;
const q = <T extends Element = HTMLElement>(el: Element, sel: string): T | undefined =>
  cut(el).querySelector<T>(sel) ?? undefined;
const qa = <T extends Element = HTMLElement>(el: Element, sel: string): T[] => [...cut(el).querySelectorAll<T>(sel)];
/** Amounts of the headshot charges in a stack's sandbox ledger, oldest first. */
const charged = async (stack: StackName = 'mk-headshot') =>
  (await ledger(stack)).filter((e) => e.type === 'charge' && e.endpoint === 'headshots').map((e) => e.amount);
/** HTTP status of the last headshot request the page made (resource timing). */
const lastStatus = () =>
  (
    performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes('/api/v1/headshot'))
      .at(-1) as PerformanceResourceTiming & { responseStatus: number }
  ).responseStatus;

async function selfie(w = 640, h = 800): Promise<File> {
  return new File([await photo(w, h, 'image/jpeg')], 'selfie.jpg', { type: 'image/jpeg' });
}

async function mount(src = endpoint): Promise<HeadshotStudio> {
  const el = await fixture<HeadshotStudio>(html`<headshot-studio endpoint=${src}></headshot-studio>`);
  await el.updateComplete;
  return el;
}

async function ready(el: HeadshotStudio, file?: File): Promise<void> {
  el.selectFile(file ?? (await selfie()));
  await until(() => el.status === 'ready' || q(el, '[part~="error"]'), 10_000, 'the photo check');
  await el.updateComplete;
}

async function done(el: HeadshotStudio): Promise<void> {
  await el.updateComplete;
  await until(() => el.status !== 'sending' && el.status !== 'ready', 30_000, `the batch (now ${el.status})`);
  await el.updateComplete;
}

describe('<headshot-studio>: checks before spending', () => {
  it('refuses a file that is not an image, with what to do, sending nothing', async () => {
    const el = await mount();
    const before = requestsTo(`${endpoint}/api/v1/headshot`);
    el.selectFile(new File(['not a photo at all'], 'me.jpg', { type: 'image/jpeg' }));
    const panel = await until(() => q<HTMLElement>(el, '[part~="error"]'), 5_000, 'the error panel');
    expect(panel.dataset['reason']).to.equal('not_image');
    expect(panel.getAttribute('role')).to.equal('alert');
    expect(el.status).to.equal('idle');
    expect(requestsTo(`${endpoint}/api/v1/headshot`)).to.equal(before);
  });

  it('makes a photo over 12 MB fit before sending it, and says so', async () => {
    const el = await mount();
    const before = requestsTo(`${endpoint}/api/v1/headshot`);
    await ready(el, new File([await selfie(), new Uint8Array(12 * 1024 * 1024)], 'huge.jpg', { type: 'image/jpeg' }));
    expect(q(el, '[part~="error"]')).to.equal(undefined);
    expect(el.status).to.equal('ready');
    expect(q(el, '[part~="photo-fit"]')!.textContent).to.match(/^Made to fit, 12(\.\d)? MB to \d+(\.\d)? kB\.$/);
    expect(requestsTo(`${endpoint}/api/v1/headshot`)).to.equal(before);
  });

  it('gives advice on a dark, small photo but never blocks', async () => {
    const el = await mount();
    const canvas = new OffscreenCanvas(300, 360);
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#101010';
    ctx.fillRect(0, 0, 300, 360);
    ctx.fillStyle = '#302820';
    ctx.fillRect(100, 80, 100, 200);
    await ready(el, new File([await canvas.convertToBlob({ type: 'image/png' })], 'dark.png', { type: 'image/png' }));
    const advice = qa(el, '[part~="advice"] li').map((li) => li.dataset['advice']);
    expect(advice).to.include.members(['dark', 'small']);
    expect(q(el, '[part~="advice"]')!.textContent).to.contain('you can go on anyway');
    expect(q<HTMLButtonElement>(el, '[part~="primary-button"]')!.disabled).to.equal(false);
  });

  it('shows the four styles as the API describes them, and the cost of the chosen versions', async () => {
    const el = await mount();
    await ready(el);
    const styles = q(el, '[part~="styles"]')!.textContent!;
    for (const words of [
      'Charcoal suit, neutral grey studio backdrop',
      'Smart-casual outfit, bright office',
      'Formal German application photo',
      'Warm earth tones, relaxed editorial look',
    ])
      expect(styles).to.contain(words);
    expect(q(el, '[part~="cost"]')!.textContent).to.contain('Costs 10 credits');
    expect(q(el, '[part~="primary-button"]')!.textContent).to.contain('Make 4 headshots (10 credits)');
    const boxes = qa<HTMLInputElement>(el, '[part~="slots"] input[type="checkbox"]');
    boxes[1]!.click();
    boxes[3]!.click();
    await el.updateComplete;
    expect(el.variants).to.deep.equal([0, 2]);
    expect(q(el, '[part~="cost"]')!.textContent).to.contain('Costs 5 credits');
  });
});

describe('<headshot-studio>: batches, slots and charges', function () {
  this.timeout(60_000);

  it('makes a full batch: a 2x2 grid with each slot meaning, charged what the response says', async () => {
    const el = await mount();
    const before = await charged();
    const events: HeadshotsSucceeded[] = [];
    el.addEventListener('mk-succeeded', (e) => events.push(e as HeadshotsSucceeded));
    await ready(el);
    q(el, '[part~="primary-button"]')!.click();
    await until(() => el.status === 'sending', 2_000, 'sending');
    await el.updateComplete;
    expect(qa(el, '[part~="result"][part~="loading"]')).to.have.length(4);
    await done(el);
    expect(el.status).to.equal('succeeded');
    const slots = qa(el, '[part~="result"]');
    expect(slots.map((s) => s.querySelector('h4')!.textContent)).to.deep.equal([
      'Exact style template',
      'Warmer three-quarter angle',
      'Alternate outfit colour',
      'Tighter crop, neutral expression',
    ]);
    expect(getComputedStyle(q(el, '[part~="results"]')!).gridTemplateColumns.split(' ')).to.have.length(2);
    const imgs = qa<HTMLImageElement>(el, '[part~="result"] img');
    await until(() => imgs.every((i) => i.complete && i.naturalWidth > 0), 5_000, 'the images');
    expect(events).to.have.length(1);
    const after = await charged();
    expect(after.slice(before.length)).to.deep.equal([events[0]!.detail.charged]);
    expect(events[0]!.detail.charged).to.equal(10);
    expect(q(el, '[part~="charged"]')!.textContent)
      .to.contain('Charged 10 credits')
      .and.contain(`${events[0]!.detail.remaining.toLocaleString('en')} credits left`);
  });

  it('marks validate and process as mediakit:headshot-studio:* measures for the site, sending nothing anywhere', async () => {
    const watch = watchMeasures();
    try {
      const el = await mount();
      await ready(el);
      q(el, '[part~="primary-button"]')!.click();
      await until(() => el.status === 'sending', 2_000, 'sending');
      await done(el);
      expect(el.status).to.equal('succeeded');
      const mine = await watch.wait('headshot-studio', ['validate', 'process']);
      expect(Object.keys(mine).sort()).to.deep.equal(['process', 'validate']);
      for (const [phase, ms] of Object.entries(mine)) expect(ms, phase).to.be.greaterThan(0);
      expect(strayRequests(watch.since, endpoint)).to.deep.equal([]);
    } finally {
      watch.stop();
    }
  });

  it('shows one failed slot with its message, and retries just that slot at the charge of one', async () => {
    const el = await mount();
    const before = await charged();
    await fault('mk-headshot', 'variant_fail', { variants: [2] });
    await ready(el);
    void el.start();
    await done(el);
    expect(el.status).to.equal('partial');
    const failed = q(el, '[part~="result"][part~="failed"]')!;
    expect(failed.dataset['slot']).to.equal('2');
    // Our words, not the API's ("Retry just this slot with variants: [2]" is for developers: it is in `headshots`).
    expect(failed.textContent)
      .to.contain('not charged')
      .and.contain('charged only if it works')
      .and.not.contain('variants');
    expect(el.headshots.find((r) => r.slot === 2)?.error).to.match(/variants: \[2\]/);
    const retry = failed.querySelector<HTMLButtonElement>('[part~="retry-button"]')!;
    expect(retry.textContent).to.contain('Retry this one (2 credits)');
    expect((await charged()).slice(before.length)).to.deep.equal([7]);
    const sent: string[] = [];
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body) {
      if (body instanceof FormData) sent.push(String(body.get('variants')));
      return send.call(this, body);
    };
    try {
      retry.click();
      await done(el);
    } finally {
      XMLHttpRequest.prototype.send = send;
    }
    expect(sent).to.deep.equal(['2']);
    expect(el.status).to.equal('succeeded');
    expect((await charged()).slice(before.length)).to.deep.equal([7, 2]);
    expect(q(el, '[part~="charged"]')!.textContent).to.contain('Charged 2 credits').and.contain('so far: 9 credits');
  });

  it('says nothing was charged when every slot failed (a 500)', async () => {
    const el = await mount();
    const before = await charged();
    await fault('mk-headshot', 'all_variants_fail');
    await ready(el);
    void el.start();
    await done(el);
    expect(el.status).to.equal('failed');
    expect(lastStatus()).to.equal(500);
    const panel = q<HTMLElement>(el, '[part~="error"]')!;
    expect(panel.dataset['reason']).to.equal('provider');
    expect(panel.textContent).to.contain('Nothing was charged');
    expect(await charged()).to.deep.equal(before);
    await until(() => cut(el).activeElement === q(el, '[part~="error"] button'), 2_000, 'focus on the retry action');
  });

  it('charges once for a double click', async () => {
    const el = await mount();
    const before = await charged();
    await ready(el);
    const button = q(el, '[part~="primary-button"]')!;
    button.click();
    button.click();
    void el.start();
    await done(el);
    expect((await charged()).length).to.equal(before.length + 1);
  });

  it('refuses with 402 when the session has too few credits, and offers the top-up', async () => {
    const el = await fixture<HeadshotStudio>(
      html`<headshot-studio endpoint="/mk-poor" top-up-href="/buy"></headshot-studio>`,
    );
    const before = await charged('mk-poor');
    await ready(el);
    await until(() => q(el, '[part~="cost"]')?.textContent?.includes('left'), 5_000, 'the budget');
    expect(q(el, '[part~="cost"]')!.textContent).to.contain('Needs 10 credits').and.contain('5 credits left');
    expect(q<HTMLButtonElement>(el, '[part~="primary-button"]')!.disabled).to.equal(true);
    await el.start(); // a script calling it anyway
    const panel = await until(() => q<HTMLElement>(el, '[part~="error"]'), 5_000, 'the 402 panel');
    expect(panel.dataset['reason']).to.equal('insufficient_credits');
    expect(q<HTMLAnchorElement>(el, '[part~="error"] a[part~="top-up"]')!.getAttribute('href')).to.equal('/buy');
    expect(await charged('mk-poor')).to.deep.equal(before);
  });

  it('waits out a 429 with a countdown and goes on by itself, charged once', async () => {
    const el = await mount();
    const before = await charged();
    await fault('mk-headshot', 'rate_limit');
    await ready(el);
    void el.start();
    await until(() => q(el, '[part~="wait"]'), 10_000, 'the countdown');
    expect(q(el, '[part~="wait"]')!.textContent).to.match(/Trying again by itself in \d+ seconds?/);
    await done(el);
    expect(el.status).to.equal('succeeded');
    expect((await charged()).length).to.equal(before.length + 1);
  });
});

describe('<headshot-studio>: camera, downloads, choosing', function () {
  this.timeout(60_000);

  it('takes a photo with the (fake) camera through a framing guide', async () => {
    const el = await mount();
    const sources: string[] = [];
    el.addEventListener('mk-file-selected', (e: FileSelectedEvent) => sources.push(e.detail.source));
    q(el, '[part~="camera-button"]')!.click();
    await until(() => el.matches(':state(camera)'), 5_000, 'the camera state');
    const video = await until(() => q<HTMLVideoElement>(el, '[part~="camera"] video'), 5_000, 'the preview');
    expect(q(el, '[part~="camera"] svg.guide')).to.not.equal(undefined);
    await until(
      () => video.videoWidth > 0 && !q<HTMLButtonElement>(el, '[part~="capture-button"]')!.disabled,
      10_000,
      'frames from the camera',
    );
    // The camera's code brings its styles: a 3:4 portrait frame with the guide laid over the video.
    const frame = q(el, '[part~="camera"] .frame')!.getBoundingClientRect();
    expect(frame.height / frame.width, 'a 3:4 portrait frame').to.be.closeTo(4 / 3, 0.02);
    expect(getComputedStyle(q(el, '[part~="camera"] svg.guide')!).position).to.equal('absolute');
    expect(cut(el).activeElement).to.equal(q(el, '[part~="capture-button"]'));
    q(el, '[part~="capture-button"]')!.click();
    await until(() => el.status === 'ready', 10_000, 'the captured photo checked');
    expect(sources).to.deep.equal(['camera']);
    expect(el.matches(':state(camera)')).to.equal(false);
    expect(q<HTMLImageElement>(el, '[part~="photo"]')!.src).to.match(/^blob:/);
  });

  it("the live camera's snapshot goes the way of a chosen file: a veto refuses it, and nothing says it was taken", async () => {
    const el = await mount();
    const said: string[] = [];
    const region = () => q(el, '[part~="announcer"]')?.textContent ?? '';
    el.addEventListener('mk-file-selected', (e: FileSelectedEvent) => e.preventDefault(), { once: true });
    q(el, '[part~="camera-button"]')!.click();
    const video = await until(() => q<HTMLVideoElement>(el, '[part~="camera"] video'), 5_000, 'the preview');
    await until(() => video.videoWidth > 0, 10_000, 'frames from the camera');
    const watch = setInterval(() => said.push(region()), 10);
    await el.takePhoto();
    await new Promise((r) => setTimeout(r, 300));
    clearInterval(watch);
    expect(el.status, 'a vetoed snapshot').to.equal('idle');
    expect(said.join(' ')).to.not.contain('Photo taken');
  });

  it('where no live preview is possible, the camera button opens the phone camera through the intake (`capture`, else `user`)', async () => {
    const devices = Object.getOwnPropertyDescriptor(Navigator.prototype, 'mediaDevices')!;
    // A browser without getUserMedia (an insecure page, an old WebView).
    Object.defineProperty(Navigator.prototype, 'mediaDevices', { configurable: true, get: () => undefined });
    try {
      const el = await mount();
      const opened: string[] = [];
      const input = q<HTMLInputElement>(el, 'input[type="file"][data-intake-camera]')!;
      // The picker itself cannot open in a test: the click is what the button does.
      input.addEventListener('click', (e) => (opened.push(input.getAttribute('capture')!), e.preventDefault()));
      q(el, '[part~="camera-button"]')!.click();
      await el.updateComplete;
      el.capture = 'environment';
      await el.updateComplete;
      q(el, '[part~="camera-button"]')!.click();
      expect(opened).to.deep.equal(['user', 'environment']);
      expect(el.matches(':state(camera)')).to.equal(false);
    } finally {
      Object.defineProperty(Navigator.prototype, 'mediaDevices', devices);
    }
  });

  it('downloads all as one zip of valid PNGs, and one as a PNG', async () => {
    const el = await mount();
    await ready(el);
    void el.start();
    await done(el);
    const one = q<HTMLAnchorElement>(el, '[part~="download"]')!;
    expect(one.download).to.match(/\.png$/);
    expect((await (await fetch(one.href)).blob()).type).to.equal('image/png');
    const clicked: HTMLAnchorElement[] = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push(this);
    };
    try {
      q(el, '[part~="download-all"]')!.click();
      await until(() => clicked.length, 5_000, 'the zip download');
    } finally {
      HTMLAnchorElement.prototype.click = click;
    }
    expect(clicked[0]!.download).to.equal('headshots-corporate.zip');
    const files = unzipSync(new Uint8Array(await (await fetch(clicked[0]!.href)).arrayBuffer()));
    const names = Object.keys(files).sort();
    expect(names).to.deep.equal([
      'headshot-corporate-1.png',
      'headshot-corporate-2.png',
      'headshot-corporate-3.png',
      'headshot-corporate-4.png',
    ]);
    for (const name of names) {
      const bytes = files[name]!;
      expect([...bytes.slice(0, 8)]).to.deep.equal([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      expect(bitmap.width).to.be.greaterThan(0);
    }
  });

  it('submits the value and the chosen headshot as a File (`name-file`) in a form; required until one is chosen; reset clears it', async () => {
    const form = await fixture<HTMLFormElement>(
      html`<form><headshot-studio endpoint=${endpoint} name="portrait" required></headshot-studio></form>`,
    );
    const el = form.querySelector('headshot-studio')!;
    await el.updateComplete;
    expect(form.checkValidity()).to.equal(false);
    expect(el.validationMessage).to.equal('Make and choose a headshot first.');
    await ready(el);
    void el.start();
    await done(el);
    // The batch is in the form before a choice, but `required` asks for a chosen headshot.
    expect(new FormData(form).get('portrait')).to.equal(el.value);
    expect(new FormData(form).get('portrait-file')).to.equal(null);
    expect(form.checkValidity(), 'made but not chosen').to.equal(false);
    const chosen = new Promise<HeadshotChosenEvent>((r) =>
      el.addEventListener('mk-headshot-chosen', r, { once: true }),
    );
    qa(el, '[part~="choose-result"]')[1]!.click();
    const e = await chosen;
    expect(e.detail.slot).to.equal(1);
    expect(form.checkValidity()).to.equal(true);
    const data = new FormData(form);
    expect(data.get('portrait')).to.equal(el.value);
    expect(JSON.parse(data.get('portrait') as string)).to.include({ kind: 'headshot', chosen: 1 });
    const file = data.get('portrait-file') as File;
    expect(file).to.be.instanceOf(File);
    expect(file.type).to.equal('image/png');
    expect(file.name).to.equal('headshot-corporate-2.png');
    expect(file.size).to.equal(e.detail.file.size);
    expect(el.file!.size).to.equal(file.size);
    // A server without JavaScript gets both parts of a plain multipart submit.
    const echoed = (await (await fetch('/__test/echo-form', { method: 'POST', body: data })).json()) as {
      parts: { name: string; type?: string; size?: number }[];
    };
    expect(echoed.parts.map((p) => p.name)).to.deep.equal(['portrait', 'portrait-file']);
    expect(echoed.parts[1]).to.include({ type: 'image/png', size: file.size });
    await el.updateComplete;
    expect(qa(el, '[part~="choose-result"]')[1]!.getAttribute('aria-pressed')).to.equal('true');
    form.reset();
    // Cleared with the reset itself.
    expect(new FormData(form).get('portrait')).to.equal('');
    expect(new FormData(form).get('portrait-file')).to.equal(null);
    await el.updateComplete;
    expect(el.value).to.equal('');
    expect(el.file).to.equal(null);
    expect(el.status).to.equal('idle');
    expect(form.checkValidity()).to.equal(false);
  });
});

describe('<headshot-studio>: language, keyboard, accessibility', function () {
  this.timeout(60_000);

  it('speaks German under lang="de"', async () => {
    const wrap = await fixture(html`<div lang="de"><headshot-studio endpoint=${endpoint}></headshot-studio></div>`);
    const el = wrap.querySelector('headshot-studio')!;
    await until(() => cut(el).textContent?.includes('Foto auswählen'), 5_000, 'German strings');
    await ready(el);
    expect(q(el, '[part~="styles"]')!.textContent).to.contain('Förmliches deutsches Bewerbungsfoto');
    expect(q(el, '[part~="cost"]')!.textContent).to.contain('Kostet 10 Credits');
    expect(q(el, '[part~="primary-button"]')!.textContent).to.contain('4 Porträts erstellen');
  });

  it('has no serious or critical axe violations in any state', async () => {
    const el = await mount();
    const check = async () => {
      await el.updateComplete;
      await expect(el).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
    };
    await check(); // idle
    q(el, '[part~="camera-button"]')!.click();
    await until(() => el.matches(':state(camera)') && q(el, '[part~="camera"] video'), 5_000, 'the camera');
    await check(); // camera
    el.reset();
    await ready(el);
    await check(); // ready
    await fault('mk-headshot', 'variant_fail', { variants: [0, 3] });
    void el.start();
    await until(() => el.status === 'sending', 2_000, 'sending');
    await check(); // working
    await done(el);
    expect(el.status).to.equal('partial');
    await check(); // partial
    await fault('mk-headshot', 'all_variants_fail');
    el.reset();
    await ready(el);
    void el.start();
    await done(el);
    expect(el.status).to.equal('failed');
    await check(); // failed
  });
});

describe('<headshot-studio>: disabled, and focus that stays with the user', function () {
  this.timeout(60_000);

  it('is disabled by a fieldset in every state: with a photo and with results, no control can be used', async () => {
    const form = await fixture<HTMLFormElement>(
      html`<form><fieldset><headshot-studio endpoint=${endpoint}></headshot-studio></fieldset></form>`,
    );
    const fieldset = form.querySelector('fieldset')!;
    const el = form.querySelector('headshot-studio')!;
    const enabled = () =>
      qa<HTMLButtonElement | HTMLInputElement>(el, 'button, input:not([hidden])')
        .filter((c) => !c.disabled)
        .map((c) => c.outerHTML.slice(0, 80));
    const off = async (on: boolean) => {
      fieldset.disabled = on;
      await until(() => el.matches(':disabled') === on, 2_000, `:disabled ${on}`);
      await el.updateComplete;
    };
    await ready(el);
    expect(enabled().length, 'the choices are usable').to.be.greaterThan(4);
    await off(true);
    expect(enabled(), 'ready').to.deep.equal([]);
    await off(false);
    void el.start();
    await done(el);
    expect(enabled().length, 'the results are usable').to.be.greaterThan(4);
    await off(true);
    expect(enabled(), 'succeeded').to.deep.equal([]);
  });
});

/** An assetHandler that keeps each PNG in memory under a made-up URL (the value only names it), optionally held until `release()`. */
function memoryHandler(hold = false) {
  const calls: { blob: Blob; filename: string; type: string; kind: string }[] = [];
  let release!: () => void;
  const gate = hold ? new Promise<void>((r) => (release = r)) : Promise.resolve();
  const handler = async (blob: Blob, info: { filename: string; type: string; kind: string }) => {
    calls.push({ blob, ...info });
    const n = calls.length;
    await gate;
    return { url: `/kept/headshot-${n}.png`, id: `k${n}` };
  };
  return { calls, handler, release: () => release() };
}

/** Counts the `input` and `change` events that reach the page (they bubble out, composed). */
function events(el: Element) {
  const seen = { input: 0, change: 0 };
  el.addEventListener('input', () => seen.input++);
  el.addEventListener('change', () => seen.change++);
  return seen;
}

/** A value as the element writes it, with its variants kept under `/kept/` (the images are not fetched by these tests' checks). */
function savedValue(over: Record<string, unknown> = {}): Record<string, unknown> {
  const asset = (n: number) => ({ url: `/kept/headshot-${n}.png`, type: 'image/png', bytes: 1000 + n, id: `k${n}` });
  return {
    v: 1,
    kind: 'headshot',
    status: 'succeeded',
    asset: asset(1),
    created: '2025-01-02T03:04:05.000Z',
    style: 'creative',
    variants: [
      { slot: 0, style: 'creative', status: 'succeeded', asset: asset(0), width: 512, height: 640 },
      { slot: 1, style: 'creative', status: 'succeeded', asset: asset(1), width: 512, height: 640 },
      { slot: 2, style: 'creative', status: 'failed', asset: null },
    ],
    chosen: 1,
    charged: 5,
    ...over,
  };
}

const apiCalls = () => apiRequests(endpoint);

describe('<headshot-studio>: the value', function () {
  this.timeout(90_000);

  it('commits the batch as a versioned value, keeping each headshot once through the assetHandler; choosing commits again without keeping', async () => {
    const el = await mount();
    const keep = memoryHandler();
    el.assetHandler = keep.handler;
    const seen = events(el);
    await ready(el);
    void el.start();
    await done(el);
    await until(() => seen.change === 1, 10_000, 'the batch committed');
    expect(seen.input).to.be.greaterThan(0);
    const value = JSON.parse(el.value) as Record<string, any>;
    expect(el.result).to.deep.equal(value);
    expect(value).to.include({
      v: 1,
      kind: 'headshot',
      status: 'succeeded',
      style: 'corporate',
      chosen: null,
      asset: null,
    });
    expect(value['charged']).to.equal(10);
    expect(Number.isNaN(Date.parse(value['created']))).to.equal(false);
    expect(value).to.not.have.property('job');
    expect(el.value).to.not.match(/blob:|data:|\/files\//);
    expect(keep.calls.map((c) => [c.filename.replace(/-[0-9a-f]{10}\.png$/, '.png'), c.type, c.kind])).to.deep.equal(
      [1, 2, 3, 4].map((n) => [`headshot-corporate-${n}.png`, 'image/png', 'headshot']),
    );
    expect(value['variants']).to.have.length(4);
    value['variants'].forEach((v: Record<string, any>, i: number) => {
      expect(v).to.include({ slot: i, style: 'corporate', status: 'succeeded' });
      expect(v['asset']).to.deep.equal({
        url: `/kept/headshot-${i + 1}.png`,
        type: 'image/png',
        bytes: el.headshots[i]!.blob!.size,
        id: `k${i + 1}`,
      });
      expect(v['width']).to.equal(el.headshots[i]!.width);
    });
    expect(keep.calls.map((c) => c.blob)).to.deep.equal(el.headshots.map((h) => h.blob));
    expect(q(el, '[part~="keep"]')!.textContent).to.contain('Saved');

    el.choose(2);
    expect(seen.change, '`change` for the choice').to.equal(2);
    expect(keep.calls, 'nothing kept again').to.have.length(4);
    expect(el.result).to.include({ chosen: 2 });
    expect(el.result!.asset).to.deep.equal(el.result!.variants[2]!.asset);
    expect(el.file!.name).to.equal('headshot-corporate-3.png');
    el.choose(2);
    expect(seen.change, 'the same choice again commits nothing new').to.equal(3);
  });

  it('a choice made while the headshots are being kept lands with them: each is handed over once, then `change` for the batch and for the choice', async () => {
    const el = await mount();
    const keep = memoryHandler(true);
    el.assetHandler = keep.handler;
    const seen = events(el);
    await ready(el);
    void el.start();
    await done(el);
    await until(() => q(el, '[part~="keep"]'), 5_000, 'keeping under way');
    el.choose(1);
    expect(el.result).to.include({ chosen: 1, asset: null });
    expect(seen.change).to.equal(0);
    keep.release();
    await until(() => seen.change === 2, 10_000, 'both commits');
    await new Promise((r) => setTimeout(r, 200));
    expect(seen.change).to.equal(2);
    expect(keep.calls).to.have.length(4);
    expect(el.result!.chosen).to.equal(1);
    expect(el.result!.asset).to.deep.equal({
      url: '/kept/headshot-2.png',
      type: 'image/png',
      bytes: el.file!.size,
      id: 'k2',
    });
  });

  it('keep="none": the value names the headshots with null assets, nothing is sent to /results, and such a value cannot be re-opened', async () => {
    const el = await fixture<HeadshotStudio>(
      html`<headshot-studio endpoint=${endpoint} keep="none"></headshot-studio>`,
    );
    const before = requestsTo(`${endpoint}/results`);
    const seen = events(el);
    await ready(el);
    void el.start();
    await done(el);
    await until(() => seen.change === 1, 5_000, 'the batch committed');
    el.choose(0);
    expect(seen.change).to.equal(2);
    const value = el.result!;
    expect(value.asset).to.equal(null);
    expect(value.chosen).to.equal(0);
    expect(value.variants.map((v) => v.asset)).to.deep.equal([null, null, null, null]);
    expect(requestsTo(`${endpoint}/results`)).to.equal(before);
    expect(q(el, '[part~="keep"]')).to.equal(undefined);
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
    try {
      const again = await mount();
      again.value = el.value;
      // The checks load with the first value set: `updateComplete` waits for them.
      await again.updateComplete;
      expect(warnings.join('\n')).to.match(/no variant of it was kept/);
      expect(again.value).to.equal('');
    } finally {
      console.warn = warn;
    }
  });

  it('re-opens a kept value on a new element with no API call: the same headshots (bytes), the chosen one selected, and its file', async () => {
    const el = await mount();
    const seen = events(el);
    await fault('mk-headshot', 'variant_fail', { variants: [3] });
    await ready(el);
    void el.start();
    await done(el);
    await until(() => seen.change === 1, 30_000, 'the batch kept');
    el.choose(1);
    await until(() => seen.change === 2, 10_000, 'the choice committed');
    const value = el.result!;
    expect(value.asset, 'kept by the stack').to.not.equal(null);
    expect(value.asset!.url).to.match(new RegExp(`^${endpoint}/results/`));
    expect(el.value).to.not.match(/blob:|data:|\/files\//);
    const made = el.headshots.map((h) => h.blob);
    const chosenBytes = new Uint8Array(await el.file!.arrayBuffer());

    const before = apiCalls();
    const form = await fixture<HTMLFormElement>(
      html`<form><headshot-studio endpoint=${endpoint} name="portrait"></headshot-studio></form>`,
    );
    const again = form.querySelector('headshot-studio')!;
    const seenAgain = events(again);
    again.value = el.value;
    await until(() => again.matches(':state(partial)'), 10_000, 'the restored grid');
    expect(again.status).to.equal('partial');
    expect(again.value).to.equal(el.value);
    await again.updateComplete;
    const imgs = qa<HTMLImageElement>(again, '[part~="result"] img');
    expect(imgs.map((i) => i.getAttribute('src'))).to.deep.equal(value.variants.slice(0, 3).map((v) => v.asset!.url));
    for (const [i, img] of imgs.entries()) {
      const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
      expect(bytes, `slot ${i}`).to.deep.equal(new Uint8Array(await made[i]!.arrayBuffer()));
    }
    await until(() => imgs.every((i) => i.complete && i.naturalWidth > 0), 5_000, 'the images shown');
    expect(qa(again, '[part~="choose-result"]').map((b) => b.getAttribute('aria-pressed'))).to.deep.equal([
      'false',
      'true',
      'false',
    ]);
    // The failed one is shown as failed; retrying it needs the selfie, which a saved value has not.
    expect(q(again, '[part~="result"][part~="failed"]')!.dataset['slot']).to.equal('3');
    expect(q(again, '[part~="retry-button"]')).to.equal(undefined);
    expect(q(again, '[part~="download"]')!.getAttribute('href')).to.equal(value.variants[0]!.asset!.url);
    expect(q(again, '[part~="charged"]')!.textContent).to.contain('7 credits');
    const file = await until(() => again.file ?? undefined, 5_000, 'the chosen file fetched');
    expect(new Uint8Array(await file.arrayBuffer())).to.deep.equal(chosenBytes);
    expect(new FormData(form).get('portrait')).to.equal(el.value);
    expect((new FormData(form).get('portrait-file') as File).size).to.equal(chosenBytes.length);
    await expect(again).to.be.accessible({ ignoredRules: ['color-contrast'] as never });

    // Choosing another one of a saved value: a commit, with nothing kept again and still no API call.
    const results = requestsTo(`${endpoint}/results`);
    again.choose(0);
    expect(seenAgain.change).to.equal(1);
    expect(again.result!.asset).to.deep.equal(value.variants[0]!.asset);
    expect(requestsTo(`${endpoint}/results`)).to.equal(results);
    await new Promise((r) => setTimeout(r, 300));
    expect(apiCalls(), 'requests to the API').to.equal(before);
    expect(seenAgain.input, 'setting `value` fires nothing').to.equal(1);
  });

  it('refuses a value that is not a headshot batch, with a warning that names the problem, and stays as it was', async () => {
    const el = await mount();
    const good = JSON.stringify(savedValue());
    el.value = good;
    await until(() => el.status === 'partial', 5_000, 'the saved value shown');
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
    try {
      const base = savedValue();
      const variants = base['variants'] as Record<string, unknown>[];
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ style: 'punk' }, /"style"/],
        [{ variants: [] }, /"variants"/],
        [{ variants: [variants[0], variants[0]] }, /variants\[1\]\.slot/],
        [
          { variants: [{ ...variants[0], asset: { url: 'javascript:alert(1)', type: 'image/png', bytes: 1 } }] },
          /variants\[0\]\.asset\.url/,
        ],
        [
          { variants: [{ ...variants[0], asset: { url: `blob:${location.origin}/x`, type: 'image/png', bytes: 1 } }] },
          /variants\[0\]\.asset\.url/,
        ],
        [{ chosen: 2, asset: null }, /"chosen"/],
        [{ chosen: null }, /"asset" must be the chosen/],
        [{ asset: (variants[0] as { asset: unknown }).asset }, /"asset" must be the chosen/],
        [{ variants: [variants[2]], chosen: null, asset: null }, /no variant of it was kept/],
        [{ charged: -1 }, /"charged"/],
        [{ kind: 'background-removal' }, /"kind"/],
      ];
      for (const [over, problem] of cases) {
        warnings.length = 0;
        el.value = JSON.stringify({ ...base, ...over });
        await el.updateComplete;
        expect(warnings.join('\n'), JSON.stringify(over).slice(0, 80)).to.match(problem);
        expect(el.value).to.equal(good);
        expect(el.status).to.equal('partial');
      }
    } finally {
      console.warn = warn;
    }
    // A batch before the choice is a value too (`asset` waits for the choice).
    el.value = JSON.stringify(savedValue({ chosen: null, asset: null }));
    await el.updateComplete;
    expect(el.result!.chosen).to.equal(null);
    expect(qa(el, '[part~="choose-result"][aria-pressed="true"]')).to.have.length(0);
    expect(el.file).to.equal(null);
    el.value = '';
    await el.updateComplete;
    expect(el.status).to.equal('idle');
  });

  it('setting a value while a batch runs drops the batch, without events, and shows the value', async () => {
    const el = await mount();
    const seen = events(el);
    const ready_: HeadshotsSucceeded[] = [];
    el.addEventListener('mk-succeeded', (e) => ready_.push(e as HeadshotsSucceeded));
    await ready(el);
    void el.start();
    await until(() => el.status === 'sending', 2_000, 'sending');
    el.value = JSON.stringify(savedValue());
    await el.updateComplete;
    expect(el.status).to.equal('partial');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(el.status).to.equal('partial');
    expect(ready_).to.have.length(0);
    expect(seen).to.deep.equal({ input: 0, change: 0 });
    expect(el.result!.style).to.equal('creative');
    expect(q<HTMLImageElement>(el, '[data-slot="1"] img')!.getAttribute('src')).to.equal('/kept/headshot-1.png');
    // No photo with a saved value: the grid, not the intake.
    expect(q(el, '[part~="drop-zone"]')).to.equal(undefined);
  });

  it('the user starting over removes the value with `change`; reset() clears it without one', async () => {
    const el = await mount();
    const seen = events(el);
    el.value = JSON.stringify(savedValue());
    await el.updateComplete;
    q<HTMLButtonElement>(el, '.results-wrap > .actions button.link')!.click();
    expect(seen.change).to.equal(1);
    expect(el.value).to.equal('');
    await el.updateComplete;
    expect(el.status).to.equal('idle');
    el.value = JSON.stringify(savedValue());
    await el.updateComplete;
    // "Change style or versions": the results are gone too.
    q<HTMLButtonElement>(el, '.results-wrap > .actions button.secondary:not([part])')!.click();
    expect(seen.change).to.equal(2);
    expect(el.value).to.equal('');
    el.value = JSON.stringify(savedValue());
    el.reset();
    expect(el.value).to.equal('');
    expect(seen.change).to.equal(2);
    await el.updateComplete;
    expect(el.status).to.equal('idle');
  });
});

runProductElementTests({
  tag: 'headshot-studio',
  endpoint,
  idleState: 'idle',
  vocabulary: {
    file: () => selfie(),
    prepare: (el) => ready(el as HeadshotStudio),
    // The sandbox holds its answer back: seconds to see `sending` and to cancel.
    slowly: async (el) => (
      await ready(el as HeadshotStudio),
      await fault('mk-headshot', 'slow', { count: 1, ms: 1_500 })
    ),
    fail: () => fault('mk-headshot', 'all_variants_fail'),
  },
  commits: 2,
  // A batch, then a choice: two commits (two `change` events), the second with the chosen headshot as the value's `asset`.
  produce: async (el) => {
    const studio = el as HeadshotStudio;
    const batch = new Promise((r) => studio.addEventListener('change', r, { once: true }));
    await ready(studio);
    void studio.start();
    await done(studio);
    await batch;
    studio.choose(studio.headshots.find((h) => h.status === 'succeeded')!.slot);
  },
});

describe('<headshot-studio>: photos as phones make them (made to fit before anything is spent)', function () {
  this.timeout(120_000);

  /** Chooses a corpus photo, makes one headshot of it, and says what the facts line said and what was charged. */
  async function oneHeadshot(name: PhonePhoto) {
    const el = await mount();
    el.variants = [0];
    const before = (await charged()).length;
    const sent = requestsTo(`${endpoint}/api/v1/headshot`);
    el.selectFile(await phonePhoto(name));
    await until(() => el.status === 'ready' || q(el, '[part~="error"]'), 60_000, 'the photo check');
    await el.updateComplete;
    expect(q(el, '[part~="error"]'), 'no refusal').to.equal(undefined);
    expect(requestsTo(`${endpoint}/api/v1/headshot`), 'nothing sent while converting').to.equal(sent);
    const facts = q(el, '[part~="photo-fit"]')?.textContent ?? '';
    const dims = q(el, '.photo-facts .nums')!.textContent!;
    q(el, '[part~="primary-button"]')!.click();
    await done(el);
    expect(el.status).to.equal('succeeded');
    expect((await charged()).length - before, 'exactly one charge').to.equal(1);
    return { el, facts, dims };
  }

  it('an iPhone HEIC (12 MP): decoded by the WebAssembly decoder, loaded only then; 12 MP sent; one charge', async () => {
    const heic = () => performance.getEntriesByType('resource').some((e) => e.name.includes('heic-to'));
    expect(heic(), 'the HEIC decoder is not loaded with the page').to.equal(false);
    const { facts, dims } = await oneHeadshot('iphone-12mp.heic');
    expect(heic(), 'the HEIC decoder was loaded for the HEIC').to.equal(true);
    expect(facts).to.match(/^Converted from HEIC, 12\.2\sMP to 12\sMP, /);
    expect(dims).to.contain('4,000×3,000');
  });

  it('a 24 MP Android JPEG over 12 MB: 12 MP under 12 MB sent; one charge', async () => {
    const { facts } = await oneHeadshot('android-24mp.jpg');
    expect(facts).to.match(/^Made to fit, 24\sMP to 12\sMP, 14(\.\d)? MB to \d+(\.\d)? MB\.$/);
  });

  it('a JPEG with EXIF orientation 6: drawn upright (400×600) and sent; one charge', async () => {
    const { facts, dims } = await oneHeadshot('exif-6.jpg');
    expect(facts).to.match(/, turned upright\.$/);
    expect(dims).to.contain('400×600');
  });

  it('a 16-bit PNG and a CMYK JPEG: the API takes them as they are, so they are sent unchanged; one charge each', async () => {
    for (const name of ['deep-16bit.png', 'print-cmyk.jpg'] as const) {
      const { facts, dims } = await oneHeadshot(name);
      expect(facts, name).to.equal('');
      expect(dims, name).to.contain('800×600');
    }
  });

  it('a damaged HEIC is refused before any request, naming the problem and what to do', async () => {
    const el = await mount();
    const whole = await phonePhoto('iphone-12mp.heic');
    const sent = requestsTo(`${endpoint}/api/v1/headshot`);
    el.selectFile(new File([whole.slice(0, 4096)], 'IMG_0001.HEIC'));
    const panel = await until(() => q<HTMLElement>(el, '[part~="error"]'), 60_000, 'the error panel');
    expect(panel.dataset['reason']).to.equal('undecodable');
    expect(panel.textContent).to.contain('The image cannot be opened').and.contain('Save it again');
    expect(el.status).to.equal('idle');
    expect(requestsTo(`${endpoint}/api/v1/headshot`)).to.equal(sent);
  });
});

runImageElementTests({
  tag: 'headshot-studio',
  endpoint,
  image: () => selfie(),
  resultHeading: '.results-title',
  afterHeading: (active) => expect(active?.getAttribute('part')).to.equal('choose-result'),
  finish: async (el) => {
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    const studio = el as unknown as HeadshotStudio;
    expect(studio.file).to.be.instanceOf(File);
    expect(studio.result?.chosen).to.equal(0);
  },
});
