import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/video-to-3d-uploader/define.js';
import type { SceneValue, VideoTo3dUploader } from '../../src/components/video-to-3d-uploader/video-to-3d-uploader.js';
import type { VideoJob } from '../../src/api/index.js';
import type { SplatViewer } from '../../src/viewers/splat-viewer/splat-viewer.js';
import { MediaClient } from '../../src/client/media-client.js';
import { JobPoller } from '../../src/jobs/job-poller.js';
import type { JobEvent } from '../../src/events/job-events.js';
import { advance, fault, ledger, padded, requestsTo, until, video } from '../fixtures/browser.js';
import { assetLibrary, apiRequests } from '../fixtures/asset-library.js';
import { coverage } from '../fixtures/pixels.js';
import { fileIn, openJobPage, runJobElementTests } from './shared/job-element-contract.js';
import { runProductElementTests } from './shared/product-element-contract.js';

const endpoint = '/mk-video';
const cut = (el: Element) => el.shadowRoot!;
const q = <T extends Element = HTMLElement>(el: Element, sel: string): T | undefined =>
  cut(el).querySelector<T>(sel) ?? undefined;
const charges = async () =>
  (await ledger('mk-video')).filter((e) => e.type === 'charge' && e.endpoint === 'createVideoJob').length;
const refunds = async () => (await ledger('mk-video')).filter((e) => e.type === 'refund').length;
const uploads = () =>
  performance
    .getEntriesByType('resource')
    .filter(
      (e) =>
        e.name.includes(`${endpoint}/api/v1/video-to-3d/jobs`) &&
        (e as PerformanceResourceTiming).initiatorType === 'xmlhttprequest',
    ).length;

async function mount(attrs = ''): Promise<VideoTo3dUploader> {
  const el = await fixture<VideoTo3dUploader>(html`<video-to-3d-uploader endpoint=${endpoint}></video-to-3d-uploader>`);
  if (attrs) el.setAttribute('lang', attrs);
  await el.updateComplete;
  return el;
}

/** Until the element reaches `status`, moving the sandbox clock so jobs finish quickly. */
async function reach(el: VideoTo3dUploader, status: string, ms = 40_000): Promise<void> {
  await until(
    async () => {
      if (el.status === status) return true;
      if (el.status === 'queued' || el.status === 'processing') await advance('mk-video', 30_000);
      return false;
    },
    ms,
    `status ${status} (now ${el.status})`,
  );
}

async function choose(el: VideoTo3dUploader, file: File): Promise<void> {
  el.selectFile(file);
  await until(
    () => (el.status !== 'checking' && el.status !== 'idle') || q(el, '[part~="error"]'),
    15_000,
    'the check',
  );
  await el.updateComplete;
}

beforeEach(async () => {
  // Each test starts with no jobs of this user at this endpoint.
  const poller = JobPoller.for(MediaClient.for(endpoint));
  for (const r of await poller.list()) await poller.forget(r.id);
});

describe('<video-to-3d-uploader>: refusals before any byte is sent', () => {
  // A video over 3 minutes, over 1080p or over 500 MB is made to fit where this browser can convert
  // it, and refused with advice for the device where it cannot: test/components/video-fit.test.ts.
  const cases: [string, () => Promise<File>, string][] = [
    ['a text file', async () => new File(['hello, not a video'], 'notes.mp4', { type: 'video/mp4' }), 'not_video'],
  ];
  for (const [name, make, reason] of cases) {
    it(`refuses ${name} with what to do, sending nothing`, async () => {
      const el = await mount();
      const before = uploads();
      await choose(el, await make());
      const panel = await until(() => q<HTMLElement>(el, '[part~="error"]'), 5_000, 'the error panel');
      expect(panel.dataset['reason']).to.equal(reason);
      expect(panel.getAttribute('role')).to.equal('alert');
      expect(panel.textContent).to.match(/\S{3,}/);
      expect(q(el, '[part~="error"] button')!.textContent).to.contain('Choose another file');
      expect(el.status).to.equal('idle');
      expect(uploads()).to.equal(before);
    });
  }
  it('lets a host veto a file through mk-file-selected', async () => {
    const el = await mount();
    el.addEventListener('mk-file-selected', (e) => e.preventDefault(), { once: true });
    el.selectFile(await video());
    await el.updateComplete;
    expect(el.status).to.equal('idle');
  });
});

describe('<video-to-3d-uploader>: the journey', function () {
  this.timeout(90_000);
  it('checks, uploads, follows the job and shows the scene (pixels), charged once', async () => {
    const el = await mount();
    const events: string[] = [];
    for (const t of ['mk-upload-progressed', 'mk-job-created', 'mk-succeeded'] as const)
      el.addEventListener(t, () => events.push(t));
    const before = await charges();
    await choose(el, await video({ seconds: 3, width: 160, height: 120 }));
    expect(el.status).to.equal('ready');
    expect(q(el, 'dl.facts')!.textContent).to.contain('160×120').and.contain('0:03');
    expect(q(el, '[part~="cost"]')!.textContent).to.contain('20 credits');
    q(el, '[part~="primary-button"]')!.click();
    await reach(el, 'succeeded');
    expect(events).to.include.members(['mk-upload-progressed', 'mk-job-created', 'mk-succeeded']);
    const viewer = await until(
      () => q<HTMLElement & { screenshot(): Promise<Blob> }>(el, 'splat-viewer'),
      30_000,
      'the viewer',
    );
    await until(() => viewer.matches(':state(loaded)'), 60_000, 'the scene to show');
    const c = await coverage(await viewer.screenshot());
    expect(c.filled, 'the scene is drawn').to.be.greaterThan(0.1);
    // The job's link, or the kept PLY once the proxy's store has it (its own test: "its value").
    expect(q<HTMLAnchorElement>(el, '[part~="download-ply"]')!.href).to.match(
      new RegExp(`${endpoint}/(files|results)/`),
    );
    expect(q<HTMLAnchorElement>(el, '[part~="download-zip"]')!.hasAttribute('download')).to.equal(true);
    expect(await charges()).to.equal(before + 1);
    // Phase timings for the site's own monitoring (User Timing), nothing sent anywhere.
    const measures = performance.getEntriesByType('measure').map((e) => e.name);
    for (const phase of ['validate', 'upload', 'first-frame'])
      expect(measures).to.include(`mediakit:video-to-3d-uploader:${phase}`);
    expect(
      measures.some((m) => /^mediakit:video-to-3d-uploader:(queue|process)$/.test(m)),
      'queue or process measured',
    ).to.equal(true);
  });

  it('charges once for a double click on confirm', async () => {
    const el = await mount();
    const before = await charges();
    await choose(el, await video());
    const confirm = q(el, '[part~="primary-button"]')!;
    confirm.click();
    confirm.click();
    void el.start();
    await until(() => el.job?.handle, 20_000, 'the job');
    await new Promise((r) => setTimeout(r, 300));
    expect(await charges()).to.equal(before + 1);
  });

  it('cancels an upload at no cost and keeps the file', async () => {
    const el = await mount();
    const before = await charges();
    performance.clearMeasures('mediakit:video-to-3d-uploader:upload');
    await choose(el, padded(await video(), 300 * 1024 * 1024));
    void el.start();
    await until(() => el.status === 'uploading' && el.job === undefined, 5_000, 'the upload');
    await until(() => q(el, '[part~="cancel-button"]'), 5_000, 'the cancel button');
    q(el, '[part~="cancel-button"]')!.click();
    await until(() => el.status === 'ready', 10_000, 'back to ready');
    await el.updateComplete;
    expect(cut(el).textContent).to.contain('Nothing was charged');
    expect(await charges()).to.equal(before);
    expect(
      performance.getEntriesByName('mediakit:video-to-3d-uploader:upload'),
      'a cancelled upload is not measured',
    ).to.have.length(0);
  });

  it('says the job failed and that the 20 credits were refunded', async () => {
    const el = await mount();
    const failed = new Promise<JobEvent>((r) => el.addEventListener('mk-failed', r as EventListener, { once: true }));
    await fault('mk-video', 'job_fail', { count: 1 });
    const refundsBefore = await refunds();
    await choose(el, await video());
    void el.start();
    await reach(el, 'failed');
    const e = await failed;
    expect(e.detail.refunded).to.equal(true);
    await el.updateComplete;
    expect(q(el, '[part~="refund"]')!.textContent).to.contain('20 credits refunded');
    expect(await refunds()).to.equal(refundsBefore + 1);
    await expect(el).to.be.accessible();
  });

  it('says an expired result must be made again', async () => {
    const el = await mount();
    await choose(el, await video());
    void el.start();
    await reach(el, 'succeeded');
    const id = el.job!.id;
    await fault('mk-video', 'expire'); // the provider purges the results
    el.reset();
    el.jobId = id; // coming back to it later
    await reach(el, 'expired');
    await el.updateComplete;
    expect(cut(el).textContent).to.contain('Start a new job');
    await expect(el).to.be.accessible();
  });

  it('refuses with 402 before uploading when the session has too few credits', async () => {
    const el = await fixture<VideoTo3dUploader>(
      html`<video-to-3d-uploader endpoint="/mk-poor" top-up-href="/buy"></video-to-3d-uploader>`,
    );
    await until(() => q(el, '[part~="cost"]')?.textContent?.includes('left'), 5_000, 'the budget');
    // /mk-poor gives each browser 5 credits a day (other files may spend some of them).
    expect(q(el, '[part~="cost"]')!.textContent)
      .to.contain('Needs 20 credits')
      .and.match(/[0-5] credits? left/);
    expect(q<HTMLAnchorElement>(el, '[part~="top-up"]')!.getAttribute('href')).to.equal('/buy');
    await choose(el, await video());
    expect(q<HTMLButtonElement>(el, '[part~="primary-button"]')!.disabled).to.equal(true);
    const sent = requestsTo('/mk-poor/api/v1/video-to-3d/jobs');
    await el.start(); // a script calling start() anyway
    const panel = await until(() => q<HTMLElement>(el, '[part~="error"]'), 5_000, 'the 402 panel');
    expect(panel.dataset['reason']).to.equal('insufficient_credits');
    expect(requestsTo('/mk-poor/api/v1/video-to-3d/jobs') - sent).to.be.at.most(1);
    await expect(el).to.be.accessible();
  });

  it('shares one poller between several uploaders on a page', async () => {
    const wrap = await fixture(
      html`<div><video-to-3d-uploader endpoint=${endpoint}></video-to-3d-uploader><video-to-3d-uploader endpoint=${endpoint}></video-to-3d-uploader></div>`,
    );
    const [a, b] = [...wrap.querySelectorAll('video-to-3d-uploader')] as VideoTo3dUploader[];
    await choose(a!, await video());
    await a!.start();
    b!.jobId = a!.job!.id; // the second shows the same job
    await until(() => b!.job?.handle, 5_000, 'the second adopts it');
    const polls = () =>
      performance.getEntriesByType('resource').filter((e) => e.name.includes(`/video-to-3d/jobs/${a!.job!.handle}`))
        .length;
    const start = polls();
    await new Promise((r) => setTimeout(r, 7_000));
    // One poller: about two polls in 7 s (3 s, then 4.5 s), not four.
    expect(polls() - start).to.be.within(1, 3);
    await reach(a!, 'succeeded');
    await until(() => b!.status === 'succeeded', 10_000, 'the second hears the end');
  });

  it('shows a countdown on 429 and goes on by itself, charged once', async () => {
    const el = await mount();
    const before = await charges();
    await fault('mk-video', 'rate_limit', { count: 1 });
    await choose(el, await video());
    void el.start();
    await until(() => q(el, '[part~="wait"]'), 10_000, 'the countdown');
    expect(q(el, '[part~="wait"]')!.textContent).to.match(/Trying again by itself in \d+ seconds?/);
    await until(() => el.job?.handle, 30_000, 'the job after the wait');
    expect(await charges()).to.equal(before + 1);
  });

  it('recovers a lost 202 with the same key: one charge', async () => {
    const el = await mount();
    const before = await charges();
    const send = XMLHttpRequest.prototype.send;
    let lost = 0;
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body) {
      if (lost === 0 && body instanceof FormData) {
        lost++;
        // The request reaches the API (and is charged); its answer never arrives.
        const onload = this.onload;
        this.onload = () => this.onerror?.(new ProgressEvent('error'));
        void onload;
      }
      return send.call(this, body);
    };
    try {
      await choose(el, await video());
      void el.start();
      await until(() => el.job?.handle, 30_000, 'the job');
    } finally {
      XMLHttpRequest.prototype.send = send;
    }
    expect(lost).to.equal(1);
    await reach(el, 'succeeded');
    expect(await charges()).to.equal(before + 1);
  });
});

describe('<video-to-3d-uploader>: reloads and tabs', function () {
  this.timeout(120_000);
  const open = () => openJobPage<VideoTo3dUploader>('video-to-3d-uploader', { endpoint }, 600);

  it('resumes an upload cut by a reload, without re-picking the file, showing its bytes as it goes, charged once', async () => {
    const before = await charges();
    const first = await open();
    first.page.el.selectFile(fileIn(first.frame, padded(await video(), 200 * 1024 * 1024)));
    await until(() => first.page.el.status === 'ready', 15_000, 'ready');
    void first.page.el.start();
    await until(() => first.page.el.status === 'uploading', 5_000, 'uploading');
    // The video is written to IndexedDB beside the upload; once it is in, a reload can resend it.
    await until(async () => (await first.page.list()).some((r) => r.request !== undefined), 20_000, 'the video kept');
    expect(first.page.el.job?.handle, 'still uploading').to.equal(undefined);
    first.frame.remove(); // the page goes away mid-upload
    const second = await open();
    await until(() => second.page.statuses.includes('resending') || second.page.el.job?.handle, 20_000, 'the resend');
    expect(second.page.statuses).to.include('resending');
    await until(() => second.page.el.job?.handle, 60_000, 'the resent job');
    // While resending, before the job exists, the bar is determinate and grows, and the bytes line
    // changes, as in the first upload; there is no cancel (see the element's #renderUploading).
    const bars = second.page.resend.filter((b) => b.valuenow !== null);
    expect(
      bars.length,
      `a determinate bar while resending (saw ${JSON.stringify(second.page.resend.slice(0, 3))})`,
    ).to.be.greaterThan(1);
    expect(
      bars.every((b) => b.handle === null),
      'all before the job was created',
    ).to.equal(true);
    for (let i = 1; i < bars.length; i++) expect(bars[i]!.valuenow!).to.be.at.least(bars[i - 1]!.valuenow!);
    expect(bars.at(-1)!.valuenow!).to.be.greaterThan(bars[0]!.valuenow!);
    expect(new Set(bars.map((b) => b.text)).size, 'the bytes line changes').to.be.greaterThan(1);
    expect(bars.at(-1)!.text, 'bytes sent of the total').to.match(/\d.* of \d/);
    await until(
      async () => {
        await advance('mk-video', 30_000);
        return second.page.el.status === 'succeeded';
      },
      60_000,
      'the job to finish',
    );
    expect(await charges()).to.equal(before + 1);
    second.frame.remove();
  });

  it('resumes a job after a reload; two pages poll it once; an end while away says so', async () => {
    const first = await open();
    first.page.el.selectFile(fileIn(first.frame, await video()));
    await until(() => first.page.el.status === 'ready', 15_000, 'ready');
    await first.page.el.start();
    await until(() => first.page.polls > 0, 10_000, 'the first page polls');
    const second = await open(); // another tab shows the same job
    await until(() => second.page.el.job?.handle, 10_000, 'the second tab adopts the job');
    const pollsBefore = second.page.polls;
    await new Promise((r) => setTimeout(r, 3_500));
    expect(second.page.polls - pollsBefore, 'the second tab listens, it does not poll').to.equal(0);
    second.frame.remove();
    first.frame.remove(); // every page closes; the job finishes meanwhile
    await advance('mk-video', 30 * 60_000);
    const third = await open();
    const ended = new Promise<JobEvent>((r) =>
      third.page.el.addEventListener('mk-succeeded', r as EventListener, { once: true }),
    );
    await until(
      async () => {
        await advance('mk-video', 30_000);
        return third.page.el.status === 'succeeded';
      },
      30_000,
      'the job to show as finished',
    ).catch(async (err: Error) => {
      throw new Error(
        `${err.message}; the page went ${third.page.statuses.join(' > ')}; ${JSON.stringify((await third.page.list()).map((r) => [r.status, r.id]))}`,
      );
    });
    expect((await ended).detail.whileAway).to.equal(true);
    third.frame.remove();
  });
});

describe('<video-to-3d-uploader>: language, keyboard, accessibility', function () {
  this.timeout(90_000);
  it('speaks German under lang="de" (the closest [lang])', async () => {
    const wrap = await fixture(
      html`<div lang="de-AT"><video-to-3d-uploader endpoint=${endpoint}></video-to-3d-uploader></div>`,
    );
    const el = wrap.querySelector('video-to-3d-uploader')!;
    await until(() => cut(el).textContent?.includes('Video auswählen'), 5_000, 'German strings');
    expect(q(el, '[part~="cost"]')!.textContent).to.contain('Kostet 20 Credits');
    el.selectFile(new File(['nope'], 'x.mp4'));
    await until(() => q(el, '[part~="error"]'), 5_000, 'the panel');
    expect(q(el, '[part~="error"]')!.textContent).to.contain('kein MP4');
  });

  it('goes from a pasted file to a running job by keyboard alone', async () => {
    const el = await mount();
    const file = await video();
    q(el, '[part~="choose-button"]')!.focus();
    const data = new DataTransfer();
    data.items.add(file);
    q(el, '[part~="choose-button"]')!.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, composed: true }),
    );
    await until(() => el.status === 'ready', 15_000, 'ready');
    await el.updateComplete;
    await until(() => cut(el).activeElement === q(el, '[part~="primary-button"]'), 2_000, 'focus on confirm');
    await sendKeys({ press: 'Enter' });
    await until(() => el.job?.handle, 20_000, 'the job');
    await reach(el, 'succeeded');
    await until(() => cut(el).activeElement?.classList.contains('result-title'), 5_000, 'focus on the result');
    await sendKeys({ press: 'Tab' });
    expect(cut(el).activeElement?.closest('splat-viewer, a, button')).to.not.equal(null);
  });

  it('has no serious or critical axe violations in any phase', async () => {
    const el = await mount();
    const check = async () => {
      await el.updateComplete;
      await expect(el).to.be.accessible();
    };
    await check(); // idle
    await choose(el, await video());
    await check(); // ready
    void el.start();
    await until(() => el.status === 'queued' || el.status === 'processing', 20_000, 'the job');
    await check(); // queued / processing
    await reach(el, 'succeeded');
    await check(); // succeeded
    el.reset();
    el.selectFile(new File(['x'], 'x.mp4'));
    await until(() => q(el, '[part~="error"]'), 5_000, 'the error');
    await check(); // refused
  });
});

describe('<video-to-3d-uploader>: results kept on this device, and the end of a job while away', function () {
  this.timeout(120_000);
  const loaded = async (el: VideoTo3dUploader) => {
    const viewer = await until(() => q(el, 'splat-viewer'), 30_000, 'the viewer');
    await until(() => viewer.matches(':state(loaded)'), 60_000, 'the scene to show');
  };

  it('shows a finished scene again after a reload with no download', async () => {
    const el = await mount();
    await choose(el, await video());
    void el.start();
    await reach(el, 'succeeded');
    await loaded(el);
    const id = el.job!.id;
    // This device keeps the scene as the viewer read it (a .ksplat), not the trainer's PLY.
    const ply = await jobPly(el);
    const cache = await caches.open('mediakit-results');
    const key = await until(
      async () => (await cache.keys()).find((k) => k.url.endsWith(`/${encodeURIComponent(id)}`)),
      20_000,
      'the scene kept on this device',
    );
    const kept = await (await cache.match(key))!.arrayBuffer();
    expect(new TextDecoder().decode(kept.slice(0, 3)), 'not the PLY').to.not.equal('ply');
    expect(kept.byteLength / ply.size, 'share of the PLY stored').to.be.lessThan(0.3);
    el.remove();
    const downloads = requestsTo(`${endpoint}/files/`);
    const again = await mount(); // the page comes back
    again.jobId = id;
    await reach(again, 'succeeded');
    await loaded(again);
    expect(requestsTo(`${endpoint}/files/`), 'no download of the scene').to.equal(downloads);
    expect(cut(again).textContent).to.contain('Shown from this device');
    const splats = await until(() => q<SplatViewer>(again, 'splat-viewer')?.splats, 20_000, 'the splat count');
    expect(splats, 'the same scene').to.equal(Number(/element vertex (\d+)/.exec(await ply.slice(0, 4096).text())![1]));
  });

  it('marks the tab title while the page is hidden when a job ends, and restores it on return', async () => {
    let visibility: DocumentVisibilityState = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
    const setVisibility = (v: DocumentVisibilityState) => {
      visibility = v;
      document.dispatchEvent(new Event('visibilitychange'));
    };
    const before = document.title;
    const title = (document.title = 'My uploads');
    try {
      const el = await mount();
      el.notify = true;
      await choose(el, await video());
      await el.start();
      setVisibility('hidden'); // the user switches to another tab
      await reach(el, 'succeeded', 90_000);
      expect(document.title).to.equal(`● ${title}`);
      setVisibility('visible');
      expect(document.title).to.equal(title);
    } finally {
      delete (document as { visibilityState?: unknown }).visibilityState;
      document.title = before;
    }
  });
});

/**
 * The site's own media library, as a CMS gives it to `assetHandler`: it keeps each blob under a
 * path of this page and answers that path itself (a stand-in for the CMS's file server, so the
 * kept URL is an ordinary same-origin URL that the viewer fetches).
 */
const apiCalls = () => apiRequests(endpoint);

/** The value events `el` fires from now on (heard on `on`, an ancestor or itself), in order, with its value then. */
function record(el: VideoTo3dUploader, on: Element = el): { type: string; value: string; composed: boolean }[] {
  const seen: { type: string; value: string; composed: boolean }[] = [];
  for (const type of ['input', 'change'])
    on.addEventListener(type, (e) => seen.push({ type, value: el.value, composed: e.composed }));
  return seen;
}

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

/** The PLY of the job `el` shows, downloaded from the job's own link. */
const jobPly = (el: VideoTo3dUploader) => MediaClient.for(endpoint).download((el.job!.job as VideoJob).output!.ply_url);

/** A scene made through the stack by a new element; resolves once its result was committed (`change`). */
async function made(setup: (el: VideoTo3dUploader) => void = () => undefined): Promise<VideoTo3dUploader> {
  const el = await mount();
  setup(el);
  const changed = new Promise((r) => el.addEventListener('change', r, { once: true }));
  await choose(el, await video({ seconds: 3, width: 160, height: 120 }, 'living-room.mp4'));
  void el.start();
  await reach(el, 'succeeded');
  await changed;
  return el;
}

/** Until `el` draws its scene: the viewer's loaded state, and pixels. */
async function drawn(el: VideoTo3dUploader): Promise<HTMLElement & { src: string }> {
  const viewer = await until(
    () => q<HTMLElement & { src: string; screenshot(): Promise<Blob> }>(el, 'splat-viewer'),
    30_000,
    'the viewer',
  );
  await until(() => viewer.matches(':state(loaded)'), 60_000, 'the scene to show');
  expect((await coverage(await viewer.screenshot())).filled, 'the scene is drawn').to.be.greaterThan(0.1);
  return viewer;
}

describe('<video-to-3d-uploader>: its value', function () {
  this.timeout(150_000);
  let lib: ReturnType<typeof assetLibrary>;
  beforeEach(() => (lib = assetLibrary()));
  afterEach(() => lib.close());

  it('is a running value from the job (`input`), then the scene with its PLY kept by the assetHandler (`change` once); a form submits it', async () => {
    const wrap = await fixture<HTMLFormElement>(
      html`<form><video-to-3d-uploader endpoint=${endpoint} name="scene"></video-to-3d-uploader></form>`,
    );
    const el = wrap.querySelector('video-to-3d-uploader')!;
    el.assetHandler = lib.handler;
    const seen = record(el, wrap);
    await choose(el, await video({ seconds: 3, width: 160, height: 120 }, 'living-room.mp4'));
    expect(el.value, 'a video alone is no value').to.equal('');
    void el.start();
    await until(() => seen.length, 30_000, 'the running value');
    const running = JSON.parse(seen[0]!.value) as SceneValue;
    expect(running).to.deep.equal({
      v: 1,
      kind: 'scene',
      status: 'running',
      asset: null,
      job: el.job!.handle,
      created: new Date(el.job!.createdAt).toISOString(),
      name: 'living-room.mp4',
    });
    await reach(el, 'succeeded');
    await until(() => seen.some((e) => e.type === 'change'), 30_000, '`change`');
    await new Promise((r) => setTimeout(r, 400));
    expect(seen.map((e) => e.type)).to.deep.equal(['input', 'input', 'change']);
    expect(seen.every((e) => e.composed)).to.equal(true);
    expect(lib.calls.length, 'the handler is called once').to.equal(1);
    const [{ blob, info }] = lib.calls as [(typeof lib.calls)[0]];
    expect(info).to.deep.include({ type: 'application/octet-stream', kind: 'scene' });
    expect(info.filename, "the video's name and the job's id").to.match(/^living-room-[0-9a-f]{10}\.ply$/);
    expect(await bytesOf(blob), "the job's PLY").to.deep.equal(await bytesOf(await jobPly(el)));
    const value = JSON.parse(el.value) as SceneValue;
    expect(value, 'kept: no job handle any more').to.deep.equal({
      v: 1,
      kind: 'scene',
      status: 'succeeded',
      asset: { url: `/__library/1/${info.filename}`, type: 'application/octet-stream', bytes: blob.size, id: '1' },
      created: running.created,
      name: 'living-room.mp4',
    });
    expect(el.result).to.deep.equal(value);
    expect(el.value).to.not.match(/blob:|data:|\/files\//);
    expect(new FormData(wrap).get('scene')).to.equal(el.value);
    await el.updateComplete;
    expect(q(el, '[part~="keep"]')!.textContent!.trim()).to.equal('Saved.');
    expect(q<HTMLAnchorElement>(el, '[part~="download-ply"]')!.getAttribute('href')).to.equal(value.asset!.url);
    expect(q(el, '[part~="download-zip"]'), "the job's zip while its links last").to.not.equal(undefined);

    // On a new element: the same scene, from the kept file, with no API call and no event.
    const before = apiCalls();
    const again = await mount();
    const heard = record(again);
    again.value = el.value;
    await until(() => again.matches(':state(succeeded)'), 10_000, 'the restored scene');
    const viewer = await drawn(again);
    expect(viewer.src).to.equal(value.asset!.url);
    expect(await bytesOf(await (await fetch(viewer.src)).blob())).to.deep.equal(await bytesOf(blob));
    expect(q<HTMLAnchorElement>(again, '[part~="download-ply"]')!.getAttribute('href')).to.equal(value.asset!.url);
    expect(q(again, '[part~="download-zip"]'), 'only the PLY is kept').to.equal(undefined);
    expect(q(again, '[part~="keep"]'), 'nothing is being kept').to.equal(undefined);
    expect(q(again, 'splat-viewer')!.getAttribute('alt')).to.contain('living-room.mp4');
    await new Promise((r) => setTimeout(r, 300));
    expect(apiCalls(), 'requests to the API').to.equal(before);
    expect(heard, 'setting a value fires nothing').to.deep.equal([]);
    expect(again.value).to.equal(el.value);
    expect(again.job, 'no job').to.equal(undefined);
    await expect(again).to.be.accessible();
  });

  it('after the sandbox expired the scene upstream, the kept PLY (the proxy store) still serves the same bytes and shows', async () => {
    const el = await made();
    const value = JSON.parse(el.value) as SceneValue;
    expect(value.asset, 'kept by the proxy').to.not.equal(null);
    expect(value.asset!.url).to.match(new RegExp(`^${endpoint}/results/`));
    expect(value).to.not.have.property('job');
    const bytes = await bytesOf(await (await fetch(value.asset!.url)).blob());
    expect(bytes).to.deep.equal(await bytesOf(await jobPly(el)));
    expect(value.asset!.bytes).to.equal(bytes.length);
    const id = el.job!.id;
    await fault('mk-video', 'expire');
    el.reset();
    el.jobId = id;
    await reach(el, 'expired'); // the job's scene is gone upstream

    const before = apiCalls();
    const again = await mount();
    again.value = JSON.stringify(value);
    await until(() => again.matches(':state(succeeded)'), 10_000, 'the kept scene');
    await drawn(again);
    expect(apiCalls(), 'requests to the API').to.equal(before);
    expect(await bytesOf(await (await fetch(value.asset!.url)).blob())).to.deep.equal(bytes);
  });

  it('keep="none": the value names the job (asset null, nothing kept), and a new element shows the scene from it with no event', async () => {
    const stored = requestsTo(`${endpoint}/results`);
    const el = await made((el) => {
      el.keep = 'none';
      el.assetHandler = lib.handler;
    });
    const value = JSON.parse(el.value) as SceneValue;
    expect(value).to.include({ status: 'succeeded', asset: null, job: el.job!.handle, name: 'living-room.mp4' });
    expect(lib.calls).to.deep.equal([]);
    expect(requestsTo(`${endpoint}/results`)).to.equal(stored);
    expect(q(el, '[part~="keep"]')).to.equal(undefined);

    const again = await mount();
    const heard = record(again);
    again.value = el.value;
    await reach(again, 'succeeded');
    await drawn(again);
    await new Promise((r) => setTimeout(r, 400));
    expect(again.job!.handle).to.equal(value.job);
    expect(heard, 'its end is the value it was given, not a new result').to.deep.equal([]);
    expect(again.value).to.equal(el.value);
  });

  it('a running value follows its job on a new element, also one this browser never saw, and commits it when it ends', async () => {
    const el = await mount();
    el.keep = 'none';
    await choose(el, await video({}, 'hall.mp4'));
    void el.start();
    await until(() => el.value, 30_000, 'the running value');
    const value = el.value;
    const { id, handle } = el.job!;
    el.remove();
    // Another device's or another editor's job: not in this browser's list.
    await JobPoller.for(MediaClient.for(endpoint)).forget(id);

    const again = await mount();
    again.keep = 'none';
    const heard = record(again);
    again.value = value;
    await until(() => again.job?.handle === handle, 10_000, 'the job followed');
    expect(['queued', 'processing', 'succeeded']).to.include(again.status);
    expect(heard, 'the value it was given').to.deep.equal([]);
    await reach(again, 'succeeded');
    await until(() => heard.length, 10_000, '`change`');
    await drawn(again);
    expect(heard.map((e) => e.type)).to.deep.equal(['input', 'change']);
    expect(JSON.parse(again.value)).to.deep.equal({ ...JSON.parse(value), status: 'succeeded' });
  });

  it('a value set while a video waits stops that with no event; the user removes it (`change`); reset() and a form reset fire nothing', async () => {
    const value = (await made((el) => (el.assetHandler = lib.handler))).value;
    const wrap = await fixture<HTMLFormElement>(
      html`<form><video-to-3d-uploader endpoint=${endpoint} name="scene"></video-to-3d-uploader></form>`,
    );
    const el = wrap.querySelector('video-to-3d-uploader')!;
    const seen = record(el);
    await choose(el, await video());
    expect(el.status).to.equal('ready');
    el.value = value;
    await until(() => el.status === 'succeeded', 10_000, 'the value shown');
    await el.updateComplete;
    expect(q(el, '[part~="primary-button"]'), 'the video is gone').to.equal(undefined);
    expect(seen).to.deep.equal([]);

    [...cut(el).querySelectorAll('button')].find((b) => b.textContent!.trim() === 'Start another')!.click();
    await el.updateComplete;
    expect(seen.map((e) => [e.type, e.value])).to.deep.equal([['change', '']]);
    expect([el.value, el.result, el.status]).to.deep.equal(['', null, 'idle']);

    el.value = value; // shown again, then a new video chosen over it: removed
    await until(() => el.status === 'succeeded', 10_000, 'the value shown');
    el.selectFile(await video());
    await until(() => el.status === 'ready', 15_000, 'the new video checked');
    expect(seen.map((e) => e.type)).to.deep.equal(['change', 'change']);
    expect([el.value, el.status]).to.deep.equal(['', 'ready']);

    el.value = value;
    await until(() => el.status === 'succeeded', 10_000, 'the value shown');
    el.reset();
    await el.updateComplete;
    expect([el.value, el.status]).to.deep.equal(['', 'idle']);
    el.value = value;
    await until(() => el.status === 'succeeded', 10_000, 'the value shown');
    wrap.reset();
    await el.updateComplete;
    expect([el.value, el.status]).to.deep.equal(['', 'idle']);
    expect(new FormData(wrap).get('scene')).to.equal('');
    el.value = value;
    el.value = '';
    await el.updateComplete;
    expect(el.status).to.equal('idle');
    expect(seen.length, 'no event for a script or a form reset').to.equal(2);
  });

  it('comes back with the form on a back/forward navigation, showing its scene', async () => {
    type FormPage = { el: VideoTo3dUploader; note: HTMLInputElement; form: HTMLFormElement };
    const frame = document.createElement('iframe');
    frame.style.cssText = 'width:800px;height:600px';
    frame.src = '/test/components/uploader-page.form.html';
    document.body.append(frame);
    const pageOf = (search: string, not?: FormPage) =>
      until(
        () => {
          const w = frame.contentWindow as unknown as { page?: FormPage; location: Location };
          return w.location.search === search && w.page !== not && w.page;
        },
        15_000,
        `the page ${search || 'back'}`,
      );
    try {
      const first = await pageOf('');
      // A real PLY that lasts (the test server's shared assets), as a kept scene's URL would.
      const value = JSON.stringify({
        v: 1,
        kind: 'scene',
        status: 'succeeded',
        asset: { url: '/__assets/pc-test.ply', type: 'application/octet-stream', bytes: 5752 },
        created: new Date().toISOString(),
        name: 'pc-test.mp4',
      });
      first.el.value = value;
      first.note.value = 'a note';
      await until(() => first.el.matches(':state(succeeded)'), 10_000, 'the scene');
      frame.contentWindow!.location.href = '/test/components/uploader-page.form.html?next';
      const next = await pageOf('?next');
      expect(next.el.value, 'another page').to.equal('');
      frame.contentWindow!.history.back();
      const back = await pageOf('', first);
      await until(() => back.note.value, 10_000, 'the form restored');
      expect(back.note.value).to.equal('a note');
      await until(() => back.el.matches(':state(succeeded)'), 10_000, 'the scene again');
      expect(back.el.value).to.equal(value);
      expect(new FormData(back.form).get('scene')).to.equal(value);
      await drawn(back.el);
    } finally {
      frame.remove();
    }
  });

  it("refuses a value without its video's name, with a warning naming it", async () => {
    const el = await mount();
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
    try {
      el.value = JSON.stringify({
        v: 1,
        kind: 'scene',
        status: 'succeeded',
        asset: { url: '/kept/scene.ply', type: 'application/octet-stream', bytes: 3 },
        created: new Date().toISOString(),
      });
      // The checks load with the first value set: `updateComplete` waits for them.
      await el.updateComplete;
    } finally {
      console.warn = warn;
    }
    expect(warnings.join('\n')).to.match(/"name"/);
    expect([el.value, el.status]).to.deep.equal(['', 'idle']);
  });

  it('a job that fails takes its running value with it (`input`), and no `change`', async () => {
    const el = await mount();
    const seen = record(el);
    await fault('mk-video', 'job_fail', { count: 1 });
    await choose(el, await video());
    void el.start();
    await reach(el, 'failed');
    await el.updateComplete;
    expect(seen.map((e) => [e.type, e.value === ''])).to.deep.equal([
      ['input', false],
      ['input', true],
    ]);
    expect(el.value).to.equal('');
  });
});

runProductElementTests({
  tag: 'video-to-3d-uploader',
  endpoint,
  idleState: 'idle',
  vocabulary: {
    file: () => video({ seconds: 3, width: 160, height: 120 }),
    prepare: async (el) => choose(el as VideoTo3dUploader, await video({ seconds: 3, width: 160, height: 120 })),
    // 80 MB to upload: seconds of `uploading` to see and to cancel.
    slowly: async (el) => choose(el as VideoTo3dUploader, padded(await video(), 80 * 1024 * 1024)),
    fail: () => fault('mk-video', 'job_fail', { count: 1 }),
    reach: (el, status) => reach(el as VideoTo3dUploader, status, 120_000),
  },
  produce: async (el) => {
    const uploader = el as VideoTo3dUploader;
    await choose(uploader, await video({ seconds: 3, width: 160, height: 120 }));
    void uploader.start();
    await reach(uploader, 'succeeded');
  },
});

runJobElementTests('video-to-3d-uploader', {
  page: { endpoint },
  start: async ({ frame, page }) => {
    const el = page.el as unknown as VideoTo3dUploader;
    el.selectFile(fileIn(frame, await video()));
    await until(() => el.status === 'ready', 15_000, 'ready');
    await el.start();
  },
  advance: (ms) => advance('mk-video', ms),
  charges,
  finishMs: 60_000,
});
