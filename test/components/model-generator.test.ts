import { expect, fixture, html } from '@open-wc/testing';
import { removeFile, sendKeys, sendMouse, writeFile } from '@web/test-runner-commands';
import '../../src/components/model-generator/define.js';
import type { ModelGenerator } from '../../src/components/model-generator/model-generator.js';
import type { ModelJob } from '../../src/api/index.js';
import { MediaClient } from '../../src/client/media-client.js';
import { JobPoller } from '../../src/jobs/job-poller.js';
import type { JobEvent } from '../../src/events/job-events.js';
import type { ModelValue } from '../../src/components/model-generator/value.js';
import type { AssetInfo } from '../../src/components/shared/result-value.js';
import { advance, fault, ledger, photo, requestsTo, until } from '../fixtures/browser.js';
import { coverage } from '../fixtures/pixels.js';
import { phonePhoto } from '../fixtures/phone-photo-files.js';
import { strayRequests, watchMeasures } from '../fixtures/timings.js';
import { runJobElementTests } from './shared/job-element-contract.js';
import { runProductElementTests } from './shared/product-element-contract.js';

const endpoint = '/mk-model';
const cut = (el: Element) => el.shadowRoot!;
const q = <T extends Element = HTMLElement>(el: Element, sel: string): T | undefined =>
  cut(el).querySelector<T>(sel) ?? undefined;
const qa = <T extends Element = HTMLElement>(el: Element, sel: string): T[] => [...cut(el).querySelectorAll<T>(sel)];
const charges = async (stack: 'mk-model' | 'mk-poor' = 'mk-model') =>
  (await ledger(stack)).filter((e) => e.type === 'charge' && e.endpoint === 'createModelJob').length;
const refunds = async () =>
  (await ledger('mk-model')).filter((e) => e.type === 'refund' && e.endpoint === 'createModelJob').length;
/** Creating calls sent (POST through XHR; polls are fetch GETs of /jobs/{id}). */
const creates = (base = endpoint) =>
  performance
    .getEntriesByType('resource')
    .filter(
      (e) =>
        e.name.endsWith(`${base}/api/v1/3d/jobs`) &&
        (e as PerformanceResourceTiming).initiatorType === 'xmlhttprequest',
    ).length;
const file = async (w = 640, h = 640, name = 'mug.png', type: 'image/png' | 'image/jpeg' = 'image/png') =>
  new File([await photo(w, h, type)], name, { type });
const sha = async (b: ArrayBuffer) =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', b))].map((x) => x.toString(16).padStart(2, '0')).join('');

/** The element's own `input` and `change` events (not a control's inside it), with the value at each. */
function events(el: ModelGenerator): { type: string; value: string }[] {
  const log: { type: string; value: string }[] = [];
  for (const type of ['input', 'change'])
    el.addEventListener(type, (e) => e.composedPath()[0] === el && log.push({ type, value: el.value }));
  return log;
}

/** Files written by `siteStorage`, removed after the tests. */
const written: string[] = [];
after(async () => {
  for (const path of written.splice(0)) await removeFile({ path }).catch(() => undefined);
});

/**
 * A site's own storage, as a CMS media library is: an `assetHandler` that stores each file it is
 * handed on the test server (under the repository's ignored tmp/, which the server serves) and
 * answers its lasting URL.
 */
function siteStorage() {
  const calls: { blob: Blob; info: AssetInfo }[] = [];
  const handler = async (blob: Blob, info: AssetInfo) => {
    calls.push({ blob, info });
    const name = `mg-kept-${crypto.randomUUID()}-${info.filename}`;
    const base64 = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result).split(',')[1] ?? '');
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(blob);
    });
    // Relative to this test file: the repository's tmp/.
    await writeFile({ path: `../../tmp/${name}`, content: base64, encoding: 'base64' });
    written.push(`../../tmp/${name}`);
    return { url: `/tmp/${name}`, id: `media-${calls.length}` };
  };
  return { calls, handler };
}

/** Requests to the API (`{endpoint}/api/...`) while `during` runs, seen by a PerformanceObserver. */
async function apiCalls(during: () => Promise<unknown>, base = endpoint): Promise<string[]> {
  const seen: string[] = [];
  const observer = new PerformanceObserver((list) =>
    seen.push(
      ...list
        .getEntries()
        .map((e) => e.name)
        .filter((n) => new URL(n).pathname.startsWith(`${base}/api/`)),
    ),
  );
  observer.observe({ type: 'resource' });
  try {
    await during();
    // Observer callbacks come a task later.
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    observer.disconnect();
  }
  return seen;
}

/** A kept model a site saved (a value made by hand): the shared Duck, a small video, no poster. */
const duck = (extra: Partial<ModelValue> = {}): ModelValue => ({
  v: 1,
  kind: 'model',
  status: 'succeeded',
  asset: { url: '/__assets/Duck.glb', type: 'model/gltf-binary', bytes: 144032, id: 'duck' },
  turntable: { url: '/__fixtures/video?seconds=1', type: 'video/mp4', bytes: 1000 },
  poster: null,
  created: '2026-01-02T03:04:05.000Z',
  mode: 'prompt',
  prompt: 'a yellow duck',
  seed: 77,
  quality: 'fast',
  removeBackground: false,
  stats: {
    triangles: 4212,
    vertices: 2399,
    meshes: 1,
    materials: 1,
    textures: 1,
    maxTextureSize: 512,
    bytes: 144032,
    animations: 0,
  },
  ...extra,
});

async function mount(
  template = html`<model-generator endpoint=${endpoint} quality="fast"></model-generator>`,
): Promise<ModelGenerator> {
  const el = await fixture<ModelGenerator>(template);
  await el.updateComplete;
  return el;
}

/** Until the element reaches `status`, moving the sandbox clock so jobs finish quickly. */
async function reach(
  el: ModelGenerator,
  status: string,
  ms = 40_000,
  stack: 'mk-model' | 'mk-poor' = 'mk-model',
): Promise<void> {
  await until(
    async () => {
      if (el.status === status) return true;
      if (el.status === 'queued' || el.status === 'processing') await advance(stack, 30_000);
      return false;
    },
    ms,
    `status ${status} (now ${el.status})`,
  );
  await el.updateComplete;
}

/** Until every photo is checked. */
async function checked(el: ModelGenerator): Promise<void> {
  await el.updateComplete;
  await until(
    () => {
      const photos = qa(el, '[part~="photo"]');
      return (
        photos.length > 0 &&
        photos.every((p) => p.dataset['state'] !== 'checking' && p.dataset['state'] !== 'downscaling')
      );
    },
    15_000,
    'the photo checks',
  );
  await el.updateComplete;
}

async function prompted(el: ModelGenerator, prompt: string): Promise<void> {
  el.mode = 'prompt';
  el.prompt = prompt;
  await el.updateComplete;
}

/** The GLB behind the download link, as a hash. */
async function glbHash(el: ModelGenerator): Promise<string> {
  const href = q<HTMLAnchorElement>(el, '[part~="download"]')!.href;
  const r = await fetch(href);
  expect(r.headers.get('content-disposition') ?? '').to.contain('attachment');
  return sha(await r.arrayBuffer());
}

/** A JPEG whose EXIF says "rotate 90° clockwise to show" (orientation 6), followed by `pad` bytes. */
async function rotatedJpeg(w: number, h: number, pad: number): Promise<File> {
  const jpeg = new Uint8Array(await (await photo(w, h, 'image/jpeg')).arrayBuffer());
  const exif = [
    0xff,
    0xe1,
    0x00,
    0x22,
    ...'Exif'.split('').map((c) => c.charCodeAt(0)),
    0,
    0,
    0x4d,
    0x4d,
    0x00,
    0x2a,
    0,
    0,
    0,
    8,
    0,
    1,
    0x01,
    0x12,
    0,
    3,
    0,
    0,
    0,
    1,
    0,
    6,
    0,
    0,
    0,
    0,
    0,
    0,
  ];
  return new File([jpeg.slice(0, 2), new Uint8Array(exif), jpeg.slice(2), new Uint8Array(pad)], 'huge.jpg', {
    type: 'image/jpeg',
  });
}

beforeEach(async () => {
  // Each test starts with no jobs of this user at these endpoints.
  for (const ep of [endpoint, '/mk-poor']) {
    const poller = JobPoller.for(MediaClient.for(ep));
    for (const r of await poller.list()) await poller.forget(r.id);
  }
});

describe('<model-generator>: refusals before anything is spent', function () {
  this.timeout(30_000);
  for (const [name, prompt] of [
    ['2', 'ab'],
    ['301', 'x'.repeat(301)],
  ] as const) {
    it(`refuses a ${name}-character description, sending nothing`, async () => {
      const el = await mount();
      await prompted(el, prompt);
      expect(el.status).to.equal('idle');
      expect(q<HTMLButtonElement>(el, '[part~="primary-button"]')!.disabled).to.equal(true);
      expect(q(el, '[part~="counter"]')!.textContent).to.contain(`${prompt.length} / 300`);
      const before = creates();
      await el.start(); // a script calling start() anyway
      const panel = await until(() => q<HTMLElement>(el, '[part~="error"]'), 5_000, 'the error panel');
      expect(panel.dataset['reason']).to.equal('prompt_length');
      expect(panel.getAttribute('role')).to.equal('alert');
      expect(panel.textContent).to.contain('3 to 300 characters');
      expect(creates()).to.equal(before);
    });
  }

  it('announces the counter politely near the limit', async () => {
    const el = await mount();
    await prompted(el, 'y'.repeat(285));
    await until(
      () => q(el, '[part~="announcer"]')!.textContent?.includes('15 characters left'),
      2_000,
      'the announcement',
    );
    expect(q(el, '[part~="announcer"]')!.getAttribute('aria-live')).to.equal('polite');
    await prompted(el, 'y'.repeat(302));
    await until(
      () => q(el, '[part~="announcer"]')!.textContent?.includes('2 characters too many'),
      2_000,
      'the announcement',
    );
    expect(q(el, '[part~="counter"]')!.classList.contains('over')).to.equal(true);
  });

  it('refuses 7 photos, keeping none of them', async () => {
    const el = await mount();
    const seven = await Promise.all(Array.from({ length: 7 }, (_, i) => file(200, 200, `p${i}.png`)));
    el.images = seven;
    await el.updateComplete;
    const panel = await until(() => q<HTMLElement>(el, '[part~="error"]'), 5_000, 'the error panel');
    expect(panel.dataset['reason']).to.equal('image_count');
    expect(panel.textContent).to.contain('7 photos').and.contain('1 to 6');
    expect(qa(el, '[part~="photo"]')).to.have.length(0);
    expect(el.status).to.equal('idle');
  });

  it('refuses a file that is not an image, judged by its contents', async () => {
    const el = await mount();
    el.images = [new File(['not a photo at all'], 'mug.png', { type: 'image/png' })];
    const panel = await until(() => q<HTMLElement>(el, '[part~="error"]'), 5_000, 'the error panel');
    expect(panel.dataset['reason']).to.equal('not_image');
    expect(q(el, '[part~="error"] button')!.textContent).to.contain('Choose another file');
    expect(qa(el, '[part~="photo"]')).to.have.length(0);
  });

  it('makes a 13 MB photo smaller by itself, keeping its orientation, sending nothing while it works', async () => {
    const el = await mount();
    const huge = await rotatedJpeg(600, 400, 13 * 1024 * 1024);
    expect(huge.size).to.be.greaterThan(13 * 1024 * 1024);
    const before = creates();
    el.images = [huge];
    await checked(el);
    const item = q<HTMLElement>(el, '[part~="photo"]')!;
    expect(item.dataset['state']).to.equal('ok');
    expect(item.textContent).to.contain('400×600');
    expect(q(el, '[part~="photo-fit"]')!.textContent).to.match(
      /^Made to fit, 13(\.\d)? MB to \d+(\.\d)? kB, turned upright\.$/,
    );
    expect(creates()).to.equal(before);
    const smaller = el.images[0] as File;
    expect(smaller.size).to.be.lessThan(12 * 1024 * 1024);
    expect(smaller.type).to.equal('image/jpeg');
    // The EXIF turn is drawn into the pixels: upright without any EXIF reading.
    const raw = await createImageBitmap(smaller, { imageOrientation: 'none' });
    expect([raw.width, raw.height]).to.deep.equal([400, 600]);
    expect(el.status).to.equal('ready');
  });

  it('lets a host veto a photo through mk-file-selected', async () => {
    const el = await mount();
    el.addEventListener('mk-file-selected', (e) => e.preventDefault(), { once: true });
    const data = new DataTransfer();
    data.items.add(await file());
    q(el, '[part~="choose-button"]')!.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, composed: true }),
    );
    await el.updateComplete;
    expect(qa(el, '[part~="photo"]')).to.have.length(0);
  });
});

describe('<model-generator>: making a model', function () {
  this.timeout(120_000);
  it('makes a model from two photos: the model is drawn, its stats are the API’s, the turntable plays, charged once', async () => {
    const el = await mount();
    const events: string[] = [];
    for (const type of ['mk-job-created', 'mk-job-progressed', 'mk-succeeded'] as const)
      el.addEventListener(type, () => events.push(type));
    const succeeded = new Promise<JobEvent>((r) =>
      el.addEventListener('mk-succeeded', r as EventListener, { once: true }),
    );
    const before = await charges();
    el.images = [await file(640, 640, 'front.png'), await file(640, 640, 'side.png')];
    await checked(el);
    expect(el.status).to.equal('ready');
    expect(q(el, '[part~="cost"]')!.textContent).to.contain('Costs 2 credits');
    q(el, '[part~="primary-button"]')!.click();
    await reach(el, 'succeeded');
    expect(events).to.include.members(['mk-job-created', 'mk-succeeded']);
    const viewer = await until(
      () => q<HTMLElement & { screenshot(): Promise<Blob>; stats?: Record<string, number> }>(el, 'glb-viewer'),
      30_000,
      'the viewer',
    );
    await until(() => viewer.matches(':state(loaded)'), 60_000, 'the model to show');
    const c = await coverage(await viewer.screenshot());
    expect(c.filled, 'the model is drawn').to.be.greaterThan(0.05);
    // The table shows what the API says of this job (polled again here), and what the file holds.
    const api = (await MediaClient.for(endpoint).getModelJob(el.job!.handle!)).output!.stats;
    const shown = Object.fromEntries(
      qa(el, '[part~="stats"] td').map((td) => [td.dataset['stat'], Number(td.dataset['value'])]),
    );
    expect(shown).to.deep.equal({ ...api });
    expect(viewer.stats!['triangles']).to.equal(api.triangles);
    expect(q(el, '[part~="stats"]')!.textContent).to.contain(new Intl.NumberFormat('en').format(api.triangles));
    const e = await succeeded;
    expect(e.detail.model!.url).to.equal(new URL((el.job!.job as ModelJob).output!.model_url, location.href).href);
    expect(e.detail.model!.stats).to.deep.equal(api);
    expect(e.detail.model!.seed).to.equal((el.job!.job as ModelJob).seed);
    // The turntable: muted, looping, inline, with a poster, and playing while on screen.
    const video = q<HTMLVideoElement>(el, '[part~="turntable"]')!;
    expect(video.muted && video.loop && video.playsInline).to.equal(true);
    expect(video.poster).to.match(/^blob:/);
    video.scrollIntoView();
    await until(() => !video.paused && video.currentTime > 0, 20_000, 'the turntable to play');
    expect(q(el, '[part~="seed"]')!.textContent).to.contain(String(e.detail.model!.seed));
    expect(await charges()).to.equal(before + 1);
  });

  it('marks its phases as mediakit:model-generator:* measures for the site, sending nothing anywhere', async () => {
    const watch = watchMeasures();
    try {
      const el = await mount();
      el.images = [await file(640, 640, 'front.png')];
      await checked(el);
      q(el, '[part~="primary-button"]')!.click();
      await reach(el, 'succeeded');
      const viewer = await until(() => q(el, 'glb-viewer'), 30_000, 'the viewer');
      await until(() => viewer.matches(':state(loaded)'), 60_000, 'the model to show');
      const mine = await watch.wait('model-generator', ['validate', 'upload', 'first-frame']);
      expect('queue' in mine || 'process' in mine, 'queue or process measured').to.equal(true);
      for (const [phase, ms] of Object.entries(mine)) expect(ms, phase).to.be.greaterThan(0);
      // The viewer inside measures its own first frame, from the start of its load.
      const own = await watch.wait('glb-viewer', ['first-frame']);
      expect(own['first-frame']).to.be.greaterThan(0).and.at.most(mine['first-frame']!);
      expect(strayRequests(watch.since, endpoint)).to.deep.equal([]);
    } finally {
      watch.stop();
    }
  });

  it('shows the reference image in prompt mode before the model is done', async () => {
    const el = await mount();
    await prompted(el, 'a small red teapot');
    void el.start();
    await until(() => el.status === 'queued' || el.status === 'processing', 20_000, 'the job');
    await el.updateComplete;
    const img = await until(() => q<HTMLImageElement>(el, '[part~="reference"] img'), 5_000, 'the reference image');
    await until(() => img.complete && img.naturalWidth > 0, 10_000, 'the reference image to load');
    expect(img.naturalWidth).to.equal(img.naturalHeight);
    expect(q(el, '[part~="progress"]')).to.not.equal(undefined);
    expect(cut(el).textContent).to.match(/\d:\d\d elapsed/);
    await reach(el, 'succeeded');
  });

  it('makes the same model again from the same seed, and a variation with a new one', async () => {
    const el = await mount(
      html`<model-generator endpoint=${endpoint} quality="fast" mode="prompt" seed="424242"></model-generator>`,
    );
    el.prompt = 'a wooden chair';
    await el.updateComplete;
    await el.start();
    await reach(el, 'succeeded');
    expect((el.job!.job as ModelJob).seed).to.equal(424242);
    const first = await glbHash(el);
    const firstId = el.job!.id;
    q(el, '[part~="again-button"]')!.click();
    await until(() => el.job && el.job.id !== firstId, 20_000, 'the second job');
    await reach(el, 'succeeded');
    expect((el.job!.job as ModelJob).seed).to.equal(424242);
    expect(await glbHash(el), 'same seed, same bytes').to.equal(first);
    const secondId = el.job!.id;
    q(el, '[part~="variation-button"]')!.click();
    await until(() => el.job && el.job.id !== secondId, 20_000, 'the variation');
    await reach(el, 'succeeded');
    expect((el.job!.job as ModelJob).seed).to.not.equal(424242);
    expect(q(el, '[part~="seed"]')!.textContent).to.contain(String((el.job!.job as ModelJob).seed));
  });

  it('says the job failed and that the 2 credits were refunded', async () => {
    const el = await mount();
    const failed = new Promise<JobEvent>((r) => el.addEventListener('mk-failed', r as EventListener, { once: true }));
    await fault('mk-model', 'job_fail', { count: 1 });
    const refundsBefore = await refunds();
    await prompted(el, 'a glass vase');
    void el.start();
    await reach(el, 'failed');
    expect((await failed).detail.refunded).to.equal(true);
    expect(q(el, '[part~="refund"]')!.textContent).to.contain('2 credits refunded');
    await until(async () => (await refunds()) === refundsBefore + 1, 5_000, 'the refund in the ledger');
    await until(() => cut(el).activeElement?.closest('[part~="error"]'), 2_000, 'focus on the retry action');
  });

  it('refuses with 402 when the session has too few credits left, before sending', async () => {
    // /mk-poor gives each browser 5 credits: two jobs leave 1, too few for a third.
    const poor = MediaClient.for('/mk-poor');
    await poor.createModelJob({ mode: 'text', prompt: 'a cup', quality: 'fast' });
    await poor.createModelJob({ mode: 'text', prompt: 'a cup', quality: 'fast' });
    const el = await mount(
      html`<model-generator endpoint="/mk-poor" mode="prompt" top-up-href="/buy"></model-generator>`,
    );
    el.prompt = 'a third cup';
    await until(() => q(el, '[part~="cost"]')?.textContent?.includes('left'), 5_000, 'the budget');
    expect(q(el, '[part~="cost"]')!.textContent).to.contain('Needs 2 credits').and.contain('1 credit left');
    expect(q<HTMLAnchorElement>(el, '[part~="top-up"]')!.getAttribute('href')).to.equal('/buy');
    expect(q<HTMLButtonElement>(el, '[part~="primary-button"]')!.disabled).to.equal(true);
    const chargesBefore = await charges('mk-poor');
    await el.start(); // a script calling start() anyway: the proxy refuses it
    const panel = await until(() => q<HTMLElement>(el, '[part~="error"]'), 5_000, 'the 402 panel');
    expect(panel.dataset['reason']).to.equal('insufficient_credits');
    expect(panel.textContent).to.contain('Nothing was charged');
    expect(await charges('mk-poor')).to.equal(chargesBefore);
  });

  it('shows a countdown on 429 and goes on by itself, charged once', async () => {
    const el = await mount();
    const before = await charges();
    await fault('mk-model', 'rate_limit', { count: 1 });
    await prompted(el, 'a brass key');
    void el.start();
    await until(() => q(el, '[part~="wait"]'), 10_000, 'the countdown');
    expect(q(el, '[part~="wait"]')!.textContent).to.match(/Trying again by itself in \d+ seconds?/);
    await until(() => el.job?.handle, 30_000, 'the job after the wait');
    expect(await charges()).to.equal(before + 1);
  });

  it('charges once for a double click', async () => {
    const el = await mount();
    const before = await charges();
    await prompted(el, 'a paper lantern');
    const button = q(el, '[part~="primary-button"]')!;
    button.click();
    button.click();
    void el.start();
    await until(() => el.job?.handle, 20_000, 'the job');
    await new Promise((r) => setTimeout(r, 300));
    expect(await charges()).to.equal(before + 1);
  });

  it('submits its JSON value with a form, never a download link; a form reset clears it without an event', async () => {
    const form = await fixture<HTMLFormElement>(
      html`<form><model-generator name="model" endpoint=${endpoint} quality="fast" mode="prompt" keep="none"></model-generator></form>`,
    );
    const el = form.querySelector('model-generator')!;
    el.prompt = 'a tin robot';
    const log = events(el);
    await el.start();
    await until(() => new FormData(form).get('model'), 20_000, 'the running value in the form');
    expect(JSON.parse(String(new FormData(form).get('model')))).to.include({ status: 'running', job: el.job!.handle });
    await reach(el, 'succeeded');
    await until(() => log.some((e) => e.type === 'change'), 20_000, '`change`');
    const value = new FormData(form).get('model');
    expect(value).to.equal(el.value);
    expect(JSON.parse(String(value))).to.include({ kind: 'model', status: 'succeeded', asset: null });
    expect(String(value)).to.not.contain((el.job!.job as ModelJob).output!.model_url);
    const before = log.length;
    form.reset();
    await el.updateComplete;
    expect(el.value).to.equal('');
    expect(new FormData(form).get('model')).to.equal('');
    expect(el.status).to.equal('idle');
    expect(log.length, 'no event for a reset').to.equal(before);
  });
});

describe('<model-generator>: reloads and history', function () {
  this.timeout(90_000);
  it('lists recent models as cards without a viewer each, and shows one on request', async () => {
    const el = await mount();
    await prompted(el, 'a green bottle');
    await el.start();
    await reach(el, 'succeeded');
    const firstId = el.job!.id;
    q<HTMLButtonElement>(el, '.result .link')!.click(); // back to the form
    el.mode = 'photos';
    el.images = [await file(640, 640, 'shoe.png')];
    await checked(el);
    await el.start();
    await reach(el, 'succeeded');
    await until(() => qa(el, '[part~="history-card"]').length === 1, 5_000, 'the history');
    const card = q(el, '[part~="history-card"]')!;
    expect(card.textContent).to.contain('a green bottle').and.contain('Fast').and.contain('ready');
    expect(card.querySelector('glb-viewer, canvas')).to.equal(null);
    card.querySelector('button')!.click();
    await until(() => el.job?.id === firstId && el.status === 'succeeded', 10_000, 'the chosen model');
    await until(() => q(el, 'glb-viewer'), 10_000, 'its viewer');
    expect(cut(el).textContent).to.contain('Shown from this device');
    await until(() => qa(el, '[part~="history-card"] img').length === 1, 5_000, 'the photo job’s card thumbnail');
  });

  it('opening a recent job clears the value with one `change`, then that job is the value once it has succeeded (as in the uploader)', async () => {
    const el = await mount(html`<model-generator endpoint=${endpoint} quality="fast" keep="none"></model-generator>`);
    const log = events(el);
    const changed = () =>
      log.filter((e) => e.type === 'change').map((e) => (e.value ? (JSON.parse(e.value) as { job: string }).job : ''));
    await prompted(el, 'a tin robot');
    await el.start();
    await reach(el, 'succeeded');
    const first = el.job!;
    await until(() => changed().includes(first.handle!), 30_000, 'the first model committed');
    q<HTMLButtonElement>(el, '.result .link')!.click(); // back to the form
    await prompted(el, 'a tin boat');
    await el.start();
    await reach(el, 'succeeded');
    const second = el.job!;
    await until(() => changed().includes(second.handle!), 30_000, 'the second model committed');
    log.splice(0);
    await until(() => qa(el, '[part~="history-card"]').length >= 1, 5_000, 'the history');
    const card = qa(el, '[part~="history-card"]').find((c) => c.textContent!.includes('a tin robot'))!;
    card.querySelector('button')!.click();
    await until(() => el.job?.id === first.id && el.status === 'succeeded', 10_000, 'the chosen model');
    await until(() => changed().includes(first.handle!), 30_000, 'the opened model committed');
    await new Promise((r) => setTimeout(r, 300));
    expect(changed()).to.deep.equal(['', first.handle]);
  });
});

describe('<model-generator>: reordering photos by dragging', function () {
  this.timeout(60_000);
  const names = (el: ModelGenerator) => el.images.map((f) => (f as File).name);
  const thumb = (el: ModelGenerator, name: string) =>
    qa(el, '[part~="photo"]')
      .find((li) => li.textContent!.includes(name))!
      .querySelector('img')!;
  const centre = (e: Element) => {
    const r = e.getBoundingClientRect();
    return { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2), top: Math.round(r.top) };
  };
  async function three(el: ModelGenerator): Promise<void> {
    el.images = [await file(640, 640, 'a.png'), await file(640, 640, 'b.png'), await file(640, 640, 'c.png')];
    await checked(el);
  }

  it('drags photo 2 above photo 1 with the mouse: a drop line shows where, the order changes, it is announced and focus stays with it', async () => {
    const el = await mount();
    await three(el);
    qa(el, '[part~="photo"]')[1]!.scrollIntoView({ block: 'center' });
    const from = centre(thumb(el, 'b.png'));
    const target = centre(q(el, '[part~="photo"]')!);
    await sendMouse({ type: 'move', position: [from.x, from.y] });
    await sendMouse({ type: 'down' });
    await sendMouse({ type: 'move', position: [from.x, from.y - 20] });
    await sendMouse({ type: 'move', position: [from.x, target.top + 8] });
    await el.updateComplete;
    const first = qa(el, '[part~="photo"]')[0]!;
    expect(first.classList.contains('drop-before'), 'a drop line before photo 1').to.equal(true);
    const line = getComputedStyle(first, '::before');
    expect(line.content).to.not.equal('none');
    expect(parseFloat(line.height)).to.be.greaterThan(2);
    expect(names(el), 'nothing moves before the drop').to.deep.equal(['a.png', 'b.png', 'c.png']);
    await sendMouse({ type: 'up' });
    await el.updateComplete;
    expect(names(el)).to.deep.equal(['b.png', 'a.png', 'c.png']);
    expect(qa<HTMLImageElement>(el, '[part~="photo"] img').map((i) => i.alt)).to.deep.equal([
      'Photo 1: b.png',
      'Photo 2: a.png',
      'Photo 3: c.png',
    ]);
    expect(qa(el, '.drop-before, .drop-after, .dragged')).to.have.length(0);
    await until(
      () => q(el, '[part~="announcer"]')!.textContent?.includes('Photo 2 is now photo 1.'),
      2_000,
      'the announcement',
    );
    await until(
      () => cut(el).activeElement?.closest('[part~="photo"]')?.textContent?.includes('b.png'),
      2_000,
      'focus on the moved photo',
    );
    expect(cut(el).activeElement!.matches('[part~="move-later"]'), 'the button that still works at the top').to.equal(
      true,
    );
  });

  it('drags by touch too (German), and a cancelled drag changes nothing', async () => {
    const wrap = await fixture(
      html`<div lang="de"><model-generator endpoint=${endpoint} quality="fast"></model-generator></div>`,
    );
    const el = wrap.querySelector('model-generator')!;
    await three(el);
    const touch = (target: Element, type: string, y: number, pointerId = 7) =>
      target.dispatchEvent(
        new PointerEvent(type, {
          pointerId,
          pointerType: 'touch',
          isPrimary: true,
          clientX: centre(target).x,
          clientY: y,
          bubbles: true,
          composed: true,
          cancelable: true,
        }),
      );
    // Photo 3 onto the lower half of photo 1: it lands second.
    let c = thumb(el, 'c.png');
    touch(c, 'pointerdown', centre(c).y);
    touch(c, 'pointermove', centre(c).y - 10);
    touch(c, 'pointermove', centre(qa(el, '[part~="photo"]')[0]!).y + 10);
    await el.updateComplete;
    expect(qa(el, '[part~="photo"]')[1]!.classList.contains('drop-before'), 'the line between photos 1 and 2').to.equal(
      true,
    );
    touch(c, 'pointerup', centre(qa(el, '[part~="photo"]')[0]!).y + 10);
    await el.updateComplete;
    expect(names(el)).to.deep.equal(['a.png', 'c.png', 'b.png']);
    await until(
      () => q(el, '[part~="announcer"]')!.textContent?.includes('Foto 3 ist jetzt Foto 2.'),
      5_000,
      'the German announcement',
    );
    // A drag the browser takes back (a scroll, a second finger) leaves the order alone.
    c = thumb(el, 'b.png');
    touch(c, 'pointerdown', centre(c).y, 8);
    touch(c, 'pointermove', centre(qa(el, '[part~="photo"]')[0]!).y, 8);
    touch(c, 'pointercancel', centre(qa(el, '[part~="photo"]')[0]!).y, 8);
    await el.updateComplete;
    expect(names(el)).to.deep.equal(['a.png', 'c.png', 'b.png']);
    expect(qa(el, '.drop-before, .drop-after, .dragged')).to.have.length(0);
    expect(q(el, '.photo.dragged')).to.equal(undefined);
  });
});

describe('<model-generator>: language, keyboard, accessibility', function () {
  this.timeout(120_000);
  it('speaks German under lang="de" (the closest [lang])', async () => {
    const wrap = await fixture(html`<div lang="de-AT"><model-generator endpoint=${endpoint}></model-generator></div>`);
    const el = wrap.querySelector('model-generator')!;
    await until(() => cut(el).textContent?.includes('Fotos hinzufügen'), 5_000, 'German strings');
    expect(q(el, '[part~="cost"]')!.textContent).to.contain('Kostet 2 Credits');
    expect(cut(el).textContent)
      .to.match(/Texturen 1.024\spx/)
      .and.contain('Qualität');
    el.images = [new File(['nope'], 'x.png')];
    await until(() => q(el, '[part~="error"]'), 5_000, 'the panel');
    expect(q(el, '[part~="error"]')!.textContent).to.contain('kein JPG');
    el.mode = 'prompt';
    el.prompt = 'ab';
    await el.updateComplete;
    expect(cut(el).textContent).to.contain('Beschreiben Sie das Objekt');
  });

  it('goes from pasted photos through reordering to a model by keyboard alone', async () => {
    const el = await mount();
    const data = new DataTransfer();
    data.items.add(await file(640, 640, 'first.png'));
    data.items.add(await file(640, 640, 'second.png'));
    q(el, '[part~="choose-button"]')!.focus();
    q(el, '[part~="choose-button"]')!.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, composed: true }),
    );
    await checked(el);
    expect(el.images.map((f) => (f as File).name)).to.deep.equal(['first.png', 'second.png']);
    const tabTo = async (match: (a: Element) => boolean, what: string) => {
      for (let i = 0; i < 40 && !(cut(el).activeElement && match(cut(el).activeElement!)); i++)
        await sendKeys({ press: 'Tab' });
      expect(cut(el).activeElement && match(cut(el).activeElement!), `focus on ${what}`).to.equal(true);
    };
    await tabTo(
      (a) => a.matches('[part~="move-later"]') && a.closest('[part~="photo"]')!.textContent!.includes('first.png'),
      'move first.png later',
    );
    await sendKeys({ press: 'Enter' });
    await until(() => (el.images[0] as File).name === 'second.png', 2_000, 'the new order');
    await el.updateComplete;
    expect(
      cut(el).activeElement!.closest('[part~="photo"]')!.textContent,
      'focus stays with the moved photo',
    ).to.contain('first.png');
    await tabTo((a) => a.matches('[part~="primary-button"]'), 'the generate button');
    await sendKeys({ press: 'Enter' });
    await until(() => el.job?.handle, 20_000, 'the job');
    await reach(el, 'succeeded');
    await until(() => cut(el).activeElement?.classList.contains('result-title'), 5_000, 'focus on the result');
  });

  it('switches modes with the arrow keys (ARIA tabs)', async () => {
    const el = await mount();
    q(el, '#tab-photos')!.focus();
    await sendKeys({ press: 'ArrowRight' });
    await el.updateComplete;
    expect(el.mode).to.equal('prompt');
    expect(q(el, '#tab-prompt')!.getAttribute('aria-selected')).to.equal('true');
    expect(q(el, '[role="tabpanel"]')!.getAttribute('aria-labelledby')).to.equal('tab-prompt');
    await until(() => cut(el).activeElement?.id === 'tab-prompt', 2_000, 'focus on the prompt tab');
  });

  it('has no serious or critical axe violations in any phase', async () => {
    const el = await mount();
    const check = async (phase: string) => {
      await el.updateComplete;
      try {
        await expect(el).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
      } catch (err) {
        throw new Error(`${phase}: ${(err as Error).message}`, { cause: err });
      }
    };
    await check('idle');
    el.images = [await file(640, 640, 'a.png'), await rotatedJpeg(300, 200, 13 * 1024 * 1024)];
    await checked(el);
    await check('photos with an oversized one');
    el.images = [await file(640, 640, 'a.png')];
    await checked(el);
    await check('ready (photos)');
    await prompted(el, 'x');
    await el.start();
    await check('refused (prompt)');
    el.prompt = 'a blue kettle';
    await el.updateComplete;
    await check('ready (prompt)');
    void el.start();
    await until(() => el.status === 'queued' || el.status === 'processing', 20_000, 'the job');
    await check('queued / processing');
    await reach(el, 'succeeded');
    await until(() => q(el, 'glb-viewer')?.matches(':state(loaded)'), 60_000, 'the model');
    await check('succeeded');
    await fault('mk-model', 'job_fail', { count: 1 });
    await el.again({ variation: true });
    await reach(el, 'failed');
    await check('failed (with history)');
  });
});

describe('<model-generator>: a disabled element, and a failed job’s reason', function () {
  this.timeout(60_000);
  const enabled = (el: Element) =>
    qa<HTMLButtonElement | HTMLInputElement>(el, 'button, input:not([hidden]), select, textarea')
      .filter((c) => !c.disabled)
      .map((c) => c.outerHTML.slice(0, 80));

  it('turns off every control under a disabled fieldset: the photo list’s and the description’s too', async () => {
    const form = await fixture<HTMLFormElement>(
      html`<form><fieldset><model-generator endpoint=${endpoint} quality="fast"></model-generator></fieldset></form>`,
    );
    const el = form.querySelector('model-generator')!;
    const fieldset = form.querySelector('fieldset')!;
    el.images = [await file(640, 640, 'a.png'), await file(640, 640, 'b.png')];
    await checked(el);
    expect(qa(el, '[part~="view-select"], [part~="remove-photo"]').length).to.equal(4);
    fieldset.disabled = true;
    await until(() => el.matches(':disabled'), 2_000, ':disabled');
    await el.updateComplete;
    expect(enabled(el)).to.deep.equal([]);
    el.mode = 'prompt';
    await el.updateComplete;
    expect(q(el, '[part~="prompt"]')).to.not.equal(undefined);
    expect(enabled(el)).to.deep.equal([]);
    fieldset.disabled = false;
    await el.updateComplete;
    expect(q<HTMLTextAreaElement>(el, '[part~="prompt"]')!.disabled).to.equal(false);
    expect(qa<HTMLInputElement>(el, '[part~="quality"] input').every((r) => !r.disabled)).to.equal(true);
  });

  it('says why a job failed in the page’s language, never in the API’s own words', async () => {
    const el = await mount();
    await fault('mk-model', 'job_fail', { count: 1 });
    await prompted(el, 'a clay pot');
    void el.start();
    await reach(el, 'failed');
    const message = el.job!.error?.message ?? '';
    expect(message.length, 'the API said something').to.be.greaterThan(10);
    const panel = q(el, '.failed [part~="error"]')!;
    expect(panel.textContent).to.contain('The service could not finish this job.');
    expect(panel.textContent).to.not.contain(message);
  });
});

describe('<model-generator>: a value that lasts (README "Saving results")', function () {
  this.timeout(180_000);
  const sha256 = async (blob: Blob) => sha(await blob.arrayBuffer());
  const viewerOf = (el: ModelGenerator) =>
    q<HTMLElement & { screenshot(): Promise<Blob>; stats?: Record<string, number> }>(el, 'glb-viewer');
  const loaded = async (el: ModelGenerator) => {
    const viewer = await until(() => viewerOf(el), 30_000, 'the viewer');
    await until(() => viewer.matches(':state(loaded)'), 60_000, 'the model to show');
    return viewer;
  };
  const table = (el: ModelGenerator) =>
    Object.fromEntries(qa(el, '[part~="stats"] td').map((td) => [td.dataset['stat'], Number(td.dataset['value'])]));

  it('is a running value once the job exists, then the succeeded one, its GLB, turntable and reference image handed to the assetHandler once each; `change` fires once', async () => {
    const site = siteStorage();
    const el = await mount(
      html`<model-generator endpoint=${endpoint} quality="fast" mode="prompt" .assetHandler=${site.handler}></model-generator>`,
    );
    const log = events(el);
    el.prompt = 'a copper kettle';
    await el.updateComplete;
    void el.start();
    const first = await until(() => log.find((e) => e.type === 'input'), 20_000, 'the first `input`');
    const running = JSON.parse(first.value) as ModelValue;
    expect(running).to.include({ v: 1, kind: 'model', status: 'running', asset: null, mode: 'prompt' });
    expect(running).to.include({ prompt: 'a copper kettle', quality: 'fast', removeBackground: false });
    expect(running.job).to.equal(el.job!.handle);
    expect(running.seed).to.equal((el.job!.job as ModelJob).seed);
    expect(Date.parse(running.created)).to.be.closeTo(el.job!.createdAt, 1000);
    await reach(el, 'succeeded');
    await until(() => log.some((e) => e.type === 'change'), 60_000, '`change` once the files are kept');
    await new Promise((r) => setTimeout(r, 500));
    expect(log.filter((e) => e.type === 'change')).to.have.length(1);
    expect(log.at(-1)!.value, '`change` carries the kept value').to.equal(el.value);

    // Unique, descriptive names: what the file is and the job's id, the same for its three files.
    const id = /^model-([0-9a-f]{10})\.glb$/.exec(site.calls[0]!.info.filename)?.[1];
    expect(site.calls.map((c) => [c.info.filename, c.info.type, c.info.kind])).to.deep.equal([
      [`model-${id}.glb`, 'model/gltf-binary', 'model'],
      [`turntable-${id}.mp4`, 'video/mp4', 'model'],
      [`reference-${id}.png`, 'image/png', 'model'],
    ]);
    // The GLB handed over is the one the proxy serves for this job.
    expect(await sha256(site.calls[0]!.blob)).to.equal(await glbHash(el));
    expect(site.calls[1]!.blob.size).to.be.greaterThan(0);
    expect(site.calls[2]!.blob.size).to.be.greaterThan(0);

    const value = JSON.parse(el.value) as ModelValue;
    expect(el.result).to.deep.equal(value);
    expect(value).to.include({ v: 1, kind: 'model', status: 'succeeded', mode: 'prompt', quality: 'fast' });
    expect(value.asset).to.include({ type: 'model/gltf-binary', bytes: site.calls[0]!.blob.size, id: 'media-1' });
    expect(value.asset!.url).to.match(/^\/tmp\/mg-kept-.*-model-[0-9a-f]{10}\.glb$/);
    expect(value.turntable).to.include({ type: 'video/mp4', bytes: site.calls[1]!.blob.size, id: 'media-2' });
    expect(value.poster).to.include({ type: 'image/png', bytes: site.calls[2]!.blob.size, id: 'media-3' });
    expect(value.stats).to.deep.equal(table(el));
    expect(value.seed).to.equal((el.job!.job as ModelJob).seed);
    expect('job' in value, 'no handle once the files are kept').to.equal(false);
    expect(el.value).to.not.match(/blob:|data:|\/files\/|\/api\//);
    expect(q(el, '[part~="keep"]')!.textContent).to.contain('Saved.');
    // What the site stored serves the same bytes.
    expect(await sha256(await (await fetch(value.asset!.url)).blob())).to.equal(await glbHash(el));
  });

  it('says when the site could not keep the model and keeps it on retry; `change` fires once, then', async () => {
    const site = siteStorage();
    let offline = true;
    const handler = async (blob: Blob, info: AssetInfo) => {
      if (offline) {
        offline = false;
        throw new Error('the media library is offline');
      }
      return site.handler(blob, info);
    };
    const el = await mount(
      html`<model-generator endpoint=${endpoint} quality="fast" mode="prompt" .assetHandler=${handler}></model-generator>`,
    );
    const log = events(el);
    el.prompt = 'a cork stool';
    await el.updateComplete;
    void el.start();
    await reach(el, 'succeeded');
    const line = await until(() => q(el, '[part~="keep"].failed'), 60_000, 'the failure line');
    expect(line.getAttribute('role')).to.equal('alert');
    expect(
      log.filter((e) => e.type === 'change'),
      'nothing committed yet',
    ).to.deep.equal([]);
    expect(JSON.parse(el.value)).to.include({ status: 'succeeded', asset: null, job: el.job!.handle });
    await expect(el).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
    q(el, '[part~="keep-retry"]')!.click();
    await until(() => log.some((e) => e.type === 'change'), 60_000, '`change` once kept');
    await new Promise((r) => setTimeout(r, 400));
    expect(log.filter((e) => e.type === 'change')).to.have.length(1);
    expect(JSON.parse(el.value).asset.url).to.match(/^\/tmp\/mg-kept-.*-model-[0-9a-f]{10}\.glb$/);
    expect(site.calls.map((c) => c.info.filename.replace(/-[0-9a-f]{10}\./, '.'))).to.deep.equal([
      'model.glb',
      'turntable.mp4',
      'reference.png',
    ]);
    expect(q(el, '[part~="keep"]')!.textContent).to.contain('Saved.');
  });

  it('shows a kept value on a new element with no request to the API: the same model drawn, its stats, seed, turntable and the kept download link', async () => {
    const site = siteStorage();
    const el = await mount(
      html`<model-generator endpoint=${endpoint} quality="fast" mode="prompt" .assetHandler=${site.handler}></model-generator>`,
    );
    const log = events(el);
    el.prompt = 'a marble bust';
    await el.updateComplete;
    void el.start();
    await reach(el, 'succeeded');
    await until(() => log.some((e) => e.type === 'change'), 60_000, 'the kept value');
    const made = await (await loaded(el)).screenshot();
    const value = el.value;
    const kept = JSON.parse(value) as ModelValue;

    const before = await charges();
    let again!: ModelGenerator;
    let seen!: { type: string; value: string }[];
    const calls = await apiCalls(async () => {
      again = await mount(html`<model-generator endpoint=${endpoint}></model-generator>`);
      seen = events(again);
      again.value = value;
      await until(() => again.matches(':state(succeeded)'), 10_000, ':state(succeeded)');
      await loaded(again);
      const video = q<HTMLVideoElement>(again, '[part~="turntable"]')!;
      video.scrollIntoView();
      await until(() => !video.paused && video.currentTime > 0, 20_000, 'the kept turntable to play');
    });
    expect(calls, 'requests to the API while restoring').to.deep.equal([]);
    expect(again.status).to.equal('succeeded');
    expect(again.value).to.equal(value);
    expect(again.result).to.deep.equal(kept);
    expect(seen, 'setting a value fires nothing').to.deep.equal([]);
    // The same model: the kept bytes, drawn alike, with the statistics and seed of the value.
    const viewer = viewerOf(again)!;
    expect(viewer.getAttribute('src')).to.equal(kept.asset!.url);
    expect(viewer.stats!['triangles']).to.equal(kept.stats!.triangles);
    const [a, b] = [await coverage(made), await coverage(await viewer.screenshot())];
    expect(b.filled, 'the model is drawn').to.be.greaterThan(0.05);
    expect(b.filled).to.be.closeTo(a.filled, a.filled * 0.35);
    expect(table(again)).to.deep.equal(kept.stats);
    expect(q(again, '[part~="seed"]')!.textContent).to.contain(String(kept.seed));
    const link = q<HTMLAnchorElement>(again, '[part~="download"]')!;
    expect(link.href).to.equal(new URL(kept.asset!.url, location.href).href);
    expect(await sha256(await (await fetch(link.href)).blob())).to.equal(await sha256(site.calls[0]!.blob));
    const video = q<HTMLVideoElement>(again, '[part~="turntable"]')!;
    expect(video.src).to.equal(new URL(kept.turntable!.url, location.href).href);
    expect(video.poster).to.equal(new URL(kept.poster!.url, location.href).href);
    expect(q<HTMLImageElement>(again, '[part~="reference"]')).to.equal(undefined);
    // Prompt mode: it can be made again from the value (nothing is spent until asked).
    expect(q(again, '[part~="again-button"]')).to.not.equal(undefined);
    expect(await charges()).to.equal(before);
    await expect(again).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
  });

  it('makes the same model again from a restored value, with its seed', async () => {
    const el = await mount(html`<model-generator endpoint=${endpoint} keep="none"></model-generator>`);
    el.value = JSON.stringify(duck({ seed: 31337 }));
    await until(() => el.matches(':state(succeeded)'), 10_000, 'the restored model');
    const log = events(el);
    q(el, '[part~="again-button"]')!.click();
    await until(() => el.job?.handle, 20_000, 'the new job');
    await until(() => log.some((e) => e.type === 'input'), 5_000, 'the running value');
    expect(JSON.parse(el.value)).to.include({ status: 'running', prompt: 'a yellow duck', quality: 'fast' });
    await reach(el, 'succeeded');
    expect((el.job!.job as ModelJob).seed).to.equal(31337);
  });

  it('keep="none": the value names the job (asset null), nothing is kept, and a new element follows the job to show it, spending nothing', async () => {
    const el = await mount(html`<model-generator endpoint=${endpoint} quality="fast" keep="none"></model-generator>`);
    const log = events(el);
    const kept = requestsTo(`${endpoint}/results`);
    await prompted(el, 'a straw hat');
    void el.start();
    await reach(el, 'succeeded');
    await until(() => log.some((e) => e.type === 'change'), 20_000, '`change`');
    const value = JSON.parse(el.value) as ModelValue;
    expect(value).to.include({ status: 'succeeded', asset: null, turntable: null, poster: null, job: el.job!.handle });
    expect(value.stats).to.deep.equal(table(el));
    expect(requestsTo(`${endpoint}/results`)).to.equal(kept);
    expect(q(el, '[part~="keep"]')).to.equal(undefined);

    const charged = await charges();
    const created = creates();
    // Another device: this one forgets the job, so only the handle in the value leads to it.
    await JobPoller.for(MediaClient.for(endpoint)).forget(el.job!.id);
    const again = await mount(html`<model-generator endpoint=${endpoint} keep="none"></model-generator>`);
    const seen = events(again);
    again.value = el.value;
    await reach(again, 'succeeded');
    await loaded(again);
    expect(again.job!.handle).to.equal(value.job);
    expect(table(again)).to.deep.equal(value.stats);
    expect(creates(), 'no new job').to.equal(created);
    expect(await charges(), 'no credit').to.equal(charged);
    expect(seen, 'a value set from outside is not committed again').to.deep.equal([]);
    expect(again.value).to.equal(el.value);
  });

  it('follows a running value on a new element to its end, which commits the model there (charged once)', async () => {
    const el = await mount(html`<model-generator endpoint=${endpoint} quality="fast" mode="prompt"></model-generator>`);
    const log = events(el);
    const charged = await charges();
    el.prompt = 'a felt mouse';
    await el.updateComplete;
    void el.start();
    const running = (await until(() => log.find((e) => e.type === 'input'), 20_000, 'the running value')).value;
    const id = el.job!.id;
    el.remove(); // the editor closes the page mid-job
    await JobPoller.for(MediaClient.for(endpoint)).forget(id);
    const site = siteStorage();
    const again = await mount(
      html`<model-generator endpoint=${endpoint} .assetHandler=${site.handler}></model-generator>`,
    );
    const seen = events(again);
    const created = creates();
    again.value = running;
    expect(again.value).to.equal(running);
    await until(() => again.status === 'queued' || again.status === 'processing', 10_000, 'the job followed');
    await reach(again, 'succeeded');
    await until(() => seen.some((e) => e.type === 'change'), 60_000, '`change` for the model made');
    await new Promise((r) => setTimeout(r, 400));
    expect(seen.filter((e) => e.type === 'change')).to.have.length(1);
    const value = JSON.parse(again.value) as ModelValue;
    expect(value).to.include({ status: 'succeeded', prompt: 'a felt mouse', created: JSON.parse(running).created });
    expect(value.asset!.url).to.match(/^\/tmp\/mg-kept-/);
    expect(site.calls).to.have.length(3);
    expect(creates()).to.equal(created);
    expect(await charges()).to.equal(charged + 1);
  });

  it('refuses a value that is not a model value, naming what is wrong, and keeps showing what it showed', async () => {
    const el = await mount();
    const good = JSON.stringify(duck());
    el.value = good;
    await until(() => el.matches(':state(succeeded)'), 10_000, 'the kept model');
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
    try {
      const cases: [Partial<Record<keyof ModelValue, unknown>>, RegExp][] = [
        [{ mode: 'video' }, /"mode"/],
        [{ quality: 'ultra' }, /"quality"/],
        [{ seed: -1 }, /"seed"/],
        [{ images: 9 }, /"images"/],
        [{ removeBackground: 'yes' }, /"removeBackground"/],
        [{ turntable: { url: 'javascript:alert(1)', type: 'video/mp4', bytes: 1 } }, /"turntable\.url"/],
        [{ poster: { url: 'data:image/png;base64,AAAA', type: 'image/png', bytes: 3 } }, /"poster\.url"/],
        [{ asset: { url: '/x.glb', type: 'model/gltf-binary', bytes: -1 } }, /"asset\.bytes"/],
        [{ stats: { triangles: 'many' } }, /"stats"/],
        [{ kind: 'scene' }, /"kind"/],
      ];
      for (const [patch, problem] of cases) {
        warnings.length = 0;
        el.value = JSON.stringify({ ...duck(), ...patch });
        await el.updateComplete;
        expect(warnings.join('\n'), JSON.stringify(patch))
          .to.match(problem)
          .and.match(/<model-generator> value refused/);
        expect(el.value).to.equal(good);
        expect(el.status).to.equal('succeeded');
      }
    } finally {
      console.warn = warn;
    }
    // The result view loads on idle: under load the state can come a frame before the viewer.
    await until(() => viewerOf(el), 10_000, 'the viewer');
    expect(viewerOf(el)!.getAttribute('src')).to.equal('/__assets/Duck.glb');
    el.value = '';
    await el.updateComplete;
    expect(el.status).to.equal('idle');
    expect(el.result).to.equal(null);
  });

  it('stops the job it was following when a value is set, and shows the value; "Change the input" then fires `change` with an empty value', async () => {
    const el = await mount(html`<model-generator endpoint=${endpoint} quality="fast" keep="none"></model-generator>`);
    const log = events(el);
    await prompted(el, 'a tin drum');
    void el.start();
    await until(() => el.status === 'queued' || el.status === 'processing', 20_000, 'the job');
    const value = JSON.stringify(duck());
    el.value = value;
    await el.updateComplete;
    expect(el.status).to.equal('succeeded');
    expect(el.job).to.equal(undefined);
    expect(el.prompt).to.equal('');
    await advance('mk-model', 120_000);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(el.value, 'the job left behind changes nothing').to.equal(value);
    expect(log.filter((e) => e.type === 'change')).to.deep.equal([]);
    await loaded(el);
    q<HTMLButtonElement>(el, '.result .link')!.click();
    await el.updateComplete;
    expect(el.value).to.equal('');
    expect(log.filter((e) => e.type === 'change')).to.deep.equal([{ type: 'change', value: '' }]);
    expect(el.status).to.be.oneOf(['idle', 'ready']);
  });

  it('restores its value from the form state (back/forward), and `job-id` still shows a job by its id', async () => {
    const el = await mount();
    el.formStateRestoreCallback(JSON.stringify(duck()));
    await until(() => el.matches(':state(succeeded)'), 10_000, 'the restored model');
    await loaded(el);
    const other = await mount(
      html`<model-generator endpoint=${endpoint} quality="fast" keep="none"></model-generator>`,
    );
    await prompted(other, 'a bone china cup');
    await other.start();
    await reach(other, 'succeeded');
    const viewer = await mount(
      html`<model-generator endpoint=${endpoint} keep="none" job-id=${other.job!.id}></model-generator>`,
    );
    await until(() => viewer.job?.id === other.job!.id && viewer.status === 'succeeded', 20_000, 'the job by its id');
    expect(JSON.parse(viewer.value)).to.include({ status: 'succeeded', job: other.job!.handle });
  });
});

runProductElementTests({
  tag: 'model-generator',
  endpoint,
  idleState: 'idle',
  vocabulary: {
    file: () => file(640, 640, 'front.png'),
    prepare: (el) => (((el as ModelGenerator).quality = 'fast'), prompted(el as ModelGenerator, 'a small ceramic mug')),
    // A 429 the client sits out: seconds of `sending` to see and to cancel.
    slowly: async (el) => {
      (el as ModelGenerator).quality = 'fast';
      await prompted(el as ModelGenerator, 'a small ceramic bowl');
      await fault('mk-model', 'rate_limit', { count: 1 });
    },
    fail: () => fault('mk-model', 'job_fail', { count: 1 }),
    reach: (el, status) => reach(el as ModelGenerator, status, 120_000),
  },
  produce: async (el) => {
    const generator = el as ModelGenerator;
    generator.quality = 'fast';
    await prompted(generator, 'a small ceramic mug');
    void generator.start();
    await reach(generator, 'succeeded');
  },
});

runJobElementTests('model-generator', {
  page: { endpoint, mode: 'prompt', quality: 'high' },
  start: async ({ page }) => {
    const el = page.el as unknown as ModelGenerator;
    el.prompt = 'a stone lion';
    await el.start();
  },
  advance: (ms) => advance('mk-model', ms),
  charges: () => charges(),
  started: ({ frame, page }) => {
    expect(page.el.status).to.equal('queued');
    const loaded = (frame.contentWindow as Window).performance.getEntriesByType('resource').map((e) => e.name);
    expect(
      loaded.filter((n) => /three|glb-renderer|glb-viewer/.test(n)),
      'no viewer code before a model',
    ).to.deep.equal([]);
  },
  ended: async ({ page }) => {
    await until(() => q(page.el, 'glb-viewer'), 20_000, 'the model after the reload');
  },
});

describe('<model-generator>: photos as phones make them (made to fit before anything is spent)', function () {
  this.timeout(180_000);

  it('the whole corpus in one job (HEIC, 24 MP over 12 MB, EXIF 6, 16-bit PNG, CMYK): each made to fit or sent as it is, one charge, a model', async () => {
    const el = await mount();
    const before = await charges();
    const sent = creates();
    const names = ['iphone-12mp.heic', 'android-24mp.jpg', 'exif-6.jpg', 'deep-16bit.png', 'print-cmyk.jpg'] as const;
    el.images = await Promise.all(names.map((n) => phonePhoto(n)));
    await until(
      () => qa(el, '[part~="photo"]').filter((p) => p.dataset['state'] === 'ok').length === names.length,
      90_000,
      'the five photos made to fit',
    );
    await el.updateComplete;
    expect(q(el, '[part~="error"]'), 'no refusal').to.equal(undefined);
    expect(creates(), 'nothing sent while converting').to.equal(sent);
    const facts = qa(el, '[part~="photo"]').map((p) => p.querySelector('[part~="photo-fit"]')?.textContent ?? '');
    // At most 4096 px on the longer side (a 3D texture is at most 2048).
    expect(facts[0]).to.match(/^Converted from HEIC, \d+(\.\d)? MB to \d+(\.\d)? MB\.$/);
    expect(facts[1]).to.match(/^Made to fit, 24\sMP to 11(\.\d)?\sMP, 14(\.\d)? MB to \d+(\.\d)? MB\.$/);
    expect(facts[2]).to.match(/, turned upright\.$/);
    expect(facts.slice(3)).to.deep.equal(['', '']);
    const files = el.images as File[];
    expect(files.every((f) => f.size <= 12 * 1024 * 1024)).to.equal(true);
    for (const f of files) {
      const b = await createImageBitmap(f);
      expect(Math.max(b.width, b.height), f.name).to.be.at.most(4096);
      b.close();
    }
    await el.start();
    await reach(el, 'succeeded', 120_000);
    expect((await charges()) - before, 'exactly one charge').to.equal(1);
  });
});
