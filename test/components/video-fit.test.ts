/**
 * Phone media as it comes (issue 32, video): each clip of the corpus (test/fixtures/phone-media.ts)
 * either reaches a succeeded job through the proxy and the sandbox with exactly one charge, or is
 * refused before any request with a message that names the problem. The sandbox refuses what breaks
 * a limit, as the API does, so a converted clip's succeeded job proves the converted file fit.
 * Its own stack (/mk-fit), so the charges counted are this file's.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { ALL_FORMATS, BlobSource, Input } from 'mediabunny';
import '../../src/components/video-to-3d-uploader/define.js';
import type { VideoTo3dUploader } from '../../src/components/video-to-3d-uploader/video-to-3d-uploader.js';
import { MediaClient } from '../../src/client/media-client.js';
import { JobPoller } from '../../src/jobs/job-poller.js';
import { advance, ledger, padded, phoneClip, until, video } from '../fixtures/browser.js';

const endpoint = '/mk-fit';
const q = <T extends Element = HTMLElement>(el: Element, sel: string): T | undefined =>
  el.shadowRoot!.querySelector<T>(sel) ?? undefined;
const charges = async () =>
  (await ledger('mk-fit')).filter((e) => e.type === 'charge' && e.endpoint === 'createVideoJob').length;
// The requests that send a video (a session or balance request of the page is no upload).
const requests = () =>
  performance
    .getEntriesByType('resource')
    .filter(
      (e) =>
        e.name.includes(`${endpoint}/api/v1/video-to-3d/jobs`) &&
        (e as PerformanceResourceTiming).initiatorType === 'xmlhttprequest',
    ).length;

async function mount(lang = 'en'): Promise<VideoTo3dUploader> {
  const el = await fixture<VideoTo3dUploader>(
    html`<video-to-3d-uploader endpoint=${endpoint} lang=${lang}></video-to-3d-uploader>`,
  );
  await el.updateComplete;
  return el;
}

async function choose(el: VideoTo3dUploader, file: File): Promise<void> {
  el.selectFile(file);
  await until(
    () => (el.status !== 'checking' && el.status !== 'idle') || q(el, '[part~="error"]'),
    30_000,
    'the check',
  );
  await el.updateComplete;
}

/** Until the job succeeds, moving the sandbox clock; records the phases seen. */
async function succeed(el: VideoTo3dUploader, seen: Set<string>, ms = 110_000): Promise<void> {
  await until(
    async () => {
      seen.add(el.status);
      if (el.status === 'failed' || q(el, '[part~="error"]')) throw new Error(`failed: ${el.shadowRoot!.textContent}`);
      if (el.status === 'queued' || el.status === 'processing') await advance('mk-fit', 30_000);
      return el.status === 'succeeded';
    },
    ms,
    `succeeded (now ${el.status})`,
  );
}

/** The frame size (rotation applied), length and codec of a video, read with mediabunny. */
async function probe(file: Blob) {
  const input = new Input({ source: new BlobSource(file), formats: ALL_FORMATS });
  const track = (await input.getPrimaryVideoTrack())!;
  const out = {
    width: await track.getDisplayWidth(),
    height: await track.getDisplayHeight(),
    seconds: await input.computeDuration(),
    codec: track.codec,
    audio: (await input.getAudioTracks()).length,
  };
  input.dispose();
  return out;
}

/** The converted videos in the origin's private file system (where the conversion streams to). */
async function convertedOnDisk(): Promise<File[]> {
  const root = await navigator.storage.getDirectory();
  const dir = await root.getDirectoryHandle('mediakit-converted', { create: true });
  const files: File[] = [];
  for await (const handle of (dir as unknown as { values(): AsyncIterable<FileSystemFileHandle> }).values())
    // Not the copy of a chosen video kept while it converts (for a reload to start again from).
    if (handle.kind === 'file' && !handle.name.startsWith('chosen-')) files.push(await handle.getFile());
  return files;
}

beforeEach(async () => {
  const poller = JobPoller.for(MediaClient.for(endpoint));
  for (const r of await poller.list()) await poller.forget(r.id);
});

describe('<video-to-3d-uploader>: phone videos made to fit', function () {
  this.timeout(180_000);

  it('4K 60 fps H.264 MP4: says what it will do, converts to 1920x1080 on confirm, then one job, charged once', async () => {
    const el = await mount();
    const before = await charges();
    const original = await phoneClip('4k60.mp4');
    await choose(el, original);
    expect(el.status).to.equal('ready');
    const fit = q(el, '[part~="fit"]')!;
    expect(fit.querySelector('[data-fit="resolution"]')!.textContent)
      .to.contain('3,840×2,160')
      .and.contain('1,920×1,080');
    expect(fit.querySelector('[data-fit="audio"]')!.textContent).to.contain('sound is removed');
    const confirm = q<HTMLButtonElement>(el, '[part~="primary-button"]')!;
    expect(confirm.textContent!.trim()).to.equal('Convert and upload (20 credits)');
    const sent: number[] = [];
    el.addEventListener('mk-upload-progressed', (e) => sent.push(e.detail.total));
    const seen = new Set<string>();
    confirm.click();
    await until(() => el.status === 'converting', 10_000, 'converting');
    expect(el.matches(':state(converting)'), 'the custom state').to.equal(true);
    const bar = await until(() => q(el, '[part~="converting"] [role="progressbar"]'), 5_000, 'the bar');
    await until(() => Number(bar.getAttribute('aria-valuenow')) > 0, 60_000, 'progress');
    expect(bar.getAttribute('aria-valuetext')).to.match(/Converting: \d+%, frame \d+ of 120/);
    await succeed(el, seen);
    expect([...seen]).to.include('uploading');
    expect(await charges()).to.equal(before + 1);
    // What went up is the converted video, from disk: H.264 at 1920x1080 with no sound.
    const [onDisk] = await convertedOnDisk();
    expect(sent.at(-1)! - onDisk!.size, 'the converted file was sent (with its multipart framing)').to.be.within(
      0,
      4096,
    );
    expect(onDisk!.size).to.be.lessThan(original.size);
    expect(await probe(onDisk!)).to.include({ width: 1920, height: 1080, codec: 'avc', audio: 0 });
  });

  it('a portrait 4K MOV with 90° rotation metadata stays portrait: 1080x1920, charged once', async () => {
    const el = await mount();
    const before = await charges();
    await choose(el, await phoneClip('portrait-4k-rotated.mov'));
    expect(el.status).to.equal('ready');
    expect(q(el, '[data-fit="resolution"]')!.textContent).to.contain('2,160×3,840').and.contain('1,080×1,920');
    void el.start();
    await succeed(el, new Set());
    expect(await charges()).to.equal(before + 1);
    const [onDisk] = await convertedOnDisk();
    expect(await probe(onDisk!)).to.include({ width: 1080, height: 1920 });
  });

  it('1080p, 3 min 20 s: a trim range on a filmstrip (the first 3:00 by default), set by keyboard and from code, then one job', async () => {
    const el = await mount();
    const before = await charges();
    await choose(el, await phoneClip('long-1080p.mp4'));
    expect(el.status).to.equal('ready');
    expect(q(el, '[data-fit="too_long"]')!.textContent).to.contain('3:20');
    expect(q(el, '[data-fit="resolution"]'), 'no scaling at 1080p').to.equal(undefined);
    expect(el.trim).to.deep.equal({ start: 0, end: 180 });
    const start = q<HTMLInputElement>(el, '[part~="trim"] input[name="trim-start"]')!;
    const end = q<HTMLInputElement>(el, '[part~="trim"] input[name="trim-end"]')!;
    // Named by their labels, with their times in m:ss for a screen reader.
    expect(start.closest('label')!.textContent).to.contain('Start');
    expect(end.closest('label')!.textContent).to.contain('End');
    expect(start.getAttribute('aria-valuetext')).to.equal('0:00');
    expect(end.getAttribute('aria-valuetext')).to.equal('3:00');
    await until(() => q(el, '[part~="filmstrip"] img'), 20_000, 'the filmstrip');
    // By keyboard: the end moves on by 10 s; the start follows, so at most 3 minutes go.
    end.focus();
    for (let i = 0; i < 10; i++) await sendKeys({ press: 'ArrowRight' });
    await until(() => el.trim?.end === 190, 15_000, `end at 3:10 (now ${JSON.stringify(el.trim)})`);
    expect(el.trim).to.deep.equal({ start: 10, end: 190 });
    await el.updateComplete;
    expect(start.getAttribute('aria-valuetext')).to.equal('0:10');
    expect(end.getAttribute('aria-valuetext')).to.equal('3:10');
    // From code: clamped into the video and to 3 minutes.
    el.trim = { start: 30, end: 500 };
    expect(el.trim).to.deep.equal({ start: 30, end: 200 });
    await el.updateComplete;
    expect(q(el, '[part~="trim"] p')!.textContent).to.contain('From 0:30 to 3:20 (2:50)');
    void el.start();
    await succeed(el, new Set());
    expect(await charges()).to.equal(before + 1);
    const [onDisk] = await convertedOnDisk();
    const sent = await probe(onDisk!);
    expect(sent.seconds).to.be.within(165, 180);
    expect(sent).to.include({ width: 1920, height: 1080, codec: 'avc' });
  });

  it('a video over 500 MB is re-encoded at a bitrate that fits, then one job, charged once', async () => {
    const el = await mount();
    const before = await charges();
    // A valid MP4 made big by a free box (the corpus's real 560 MB clip runs in the bench only).
    const big = padded(await video({ seconds: 2, width: 320, height: 240, fps: 10 }), 501 * 1024 * 1024);
    await choose(el, big);
    expect(el.status).to.equal('ready');
    expect(q(el, '[data-fit="too_large"]')!.textContent).to.contain('Re-encoded to stay under 500');
    void el.start();
    await succeed(el, new Set());
    expect(await charges()).to.equal(before + 1);
    const [onDisk] = await convertedOnDisk();
    expect(onDisk!.size).to.be.lessThan(10 * 1024 * 1024);
    expect(await probe(onDisk!)).to.include({ width: 320, height: 240, codec: 'avc' });
  });

  const asIs: [string, string][] = [
    ['portrait-rotated.mov', 'a portrait MOV with 90° rotation metadata (720p)'],
    ['vfr.mp4', 'a variable frame rate clip'],
  ];
  for (const [name, what] of asIs)
    it(`${what} fits as it is: uploaded unchanged, charged once`, async () => {
      const el = await mount();
      const before = await charges();
      const file = await phoneClip(name);
      await choose(el, file);
      expect(el.status).to.equal('ready');
      expect(q(el, '[part~="fit"]'), 'nothing to convert').to.equal(undefined);
      expect(q(el, '[part~="primary-button"]')!.textContent!.trim()).to.equal('Upload and start (20 credits)');
      const totals: number[] = [];
      el.addEventListener('mk-upload-progressed', (e) => totals.push(e.detail.total));
      void el.start();
      await succeed(el, new Set());
      expect(await charges()).to.equal(before + 1);
      expect(totals.at(-1)! - file.size).to.be.within(0, 4096);
    });

  it('an HEVC MOV within the limits uploads as it is; the facts say the checks were skipped', async () => {
    const el = await mount();
    const before = await charges();
    await choose(el, await phoneClip('hevc.mov'));
    expect(el.status).to.equal('ready');
    const note = await until(() => q(el, '[data-skipped]'), 20_000, 'the skipped-checks note');
    expect(note.textContent).to.equal('This browser cannot preview HEVC: the checks were skipped.');
    void el.start();
    await succeed(el, new Set());
    expect(await charges()).to.equal(before + 1);
  });

  it('where this browser cannot encode H.264 (VideoEncoder.isConfigSupported says no), a 1440p video stays refused with the device advice', async () => {
    const el = await mount();
    const before = requests();
    const supported = VideoEncoder.isConfigSupported;
    VideoEncoder.isConfigSupported = async (config) => ({ supported: false, config });
    try {
      // Its own frame rate (2 fps): mediabunny remembers each answer by the configuration asked about.
      await choose(el, await video({ seconds: 1, width: 2560, height: 1440, fps: 2 }, 'clip.mp4'));
    } finally {
      VideoEncoder.isConfigSupported = supported;
    }
    const panel = await until(() => q<HTMLElement>(el, '[part~="error"]'), 10_000, 'the refusal');
    expect(panel.dataset['reason']).to.equal('resolution');
    const text = panel.textContent!.replace(/\s+/g, ' ');
    expect(text).to.contain('This browser cannot encode H.264').and.contain('Record at 1080p');
    expect(text, 'no iPhone advice for an H.264 MP4').not.to.contain('Most Compatible');
    expect(requests(), 'nothing sent').to.equal(before);
  });

  const refused: [string, string, string, RegExp][] = [
    [
      'hevc-4k.mov',
      'an HEVC 4K MOV (not decodable here)',
      'resolution',
      /cannot read HEVC video.*Settings > Camera > Formats > Most Compatible/,
    ],
    ['truncated.mp4', 'a truncated MP4', 'unreadable', /could not be read|damaged/i],
  ];
  for (const [name, what, reason, text] of refused)
    it(`refuses ${what} before any request, naming the problem`, async () => {
      const el = await mount();
      const before = requests();
      await choose(el, await phoneClip(name));
      const panel = await until(() => q<HTMLElement>(el, '[part~="error"]'), 10_000, 'the refusal');
      expect(panel.dataset['reason']).to.equal(reason);
      expect(panel.textContent!.replace(/\s+/g, ' ')).to.match(text);
      expect(el.status).to.equal('idle');
      expect(requests(), 'nothing sent').to.equal(before);
    });

  it('cancels a conversion at no cost: no upload, no charge, the video stays chosen', async () => {
    const el = await mount();
    const before = await charges();
    await choose(el, await phoneClip('4k60.mp4'));
    const sentBefore = requests();
    void el.start();
    await until(() => el.status === 'converting', 10_000, 'converting');
    q<HTMLButtonElement>(el, '[part~="converting"] [part~="cancel-button"]')!.click();
    await until(() => el.status === 'ready', 10_000, 'back to ready');
    expect(q(el, '.notice[role="status"]')!.textContent).to.equal('Conversion cancelled. Nothing was charged.');
    expect(requests() - sentBefore, 'no upload').to.equal(0);
    expect(await charges()).to.equal(before);
  });

  it('a reload during the conversion says so: the next page of the tab names the video to choose again', async () => {
    const el = await mount();
    await choose(el, await phoneClip('4k60.mp4'));
    void el.start();
    await until(() => el.status === 'converting', 10_000, 'converting');
    // What a reload leaves behind is the tab's session storage as it is now, mid-conversion.
    const left = { ...sessionStorage };
    expect(Object.values(left)).to.include('4k60.mp4');
    el.cancel();
    await until(() => el.status === 'ready', 10_000, 'stopped');
    for (const [k, v] of Object.entries(left)) sessionStorage.setItem(k, v);
    const next = await mount();
    const note = await until(() => q(next, '[data-interrupted]'), 10_000, 'the note');
    expect(note.textContent)
      .to.contain('reloaded while 4k60.mp4 was being converted')
      .and.contain('Choose the video again');
    expect(next.status).to.equal('idle');
  });

  it('a reload during the conversion starts it again from the copy kept on this device: says so, converts, one job, charged once', async () => {
    const el = await mount();
    const before = await charges();
    await choose(el, await phoneClip('4k60.mp4'));
    void el.start();
    await until(() => el.status === 'converting', 10_000, 'converting');
    // The chosen video is kept on this device while it converts (its copy named in the tab's session storage).
    const kept = await until(() => sessionStorage.getItem('mediakit-converting-kept'), 30_000, 'the kept copy');
    const { stored } = JSON.parse(kept!) as { stored: string };
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('mediakit-converted');
    const copy = await (await dir.getFileHandle(stored)).getFile();
    expect(copy.size, 'the whole video is kept').to.equal((await phoneClip('4k60.mp4')).size);
    // What a reload leaves behind: the tab's session storage and the copy, as they are mid-conversion.
    const left = { ...sessionStorage };
    const bytes = await copy.arrayBuffer();
    el.cancel();
    await until(() => el.status === 'ready', 10_000, 'stopped');
    // The copy is deleted as the cancelled conversion winds down (the file system is asynchronous).
    await until(
      () =>
        dir.getFileHandle(stored).then(
          () => false,
          () => true,
        ),
      10_000,
      'a cancelled conversion deletes the copy',
    );
    const writable = await (await dir.getFileHandle(stored, { create: true })).createWritable();
    await writable.write(bytes);
    await writable.close();
    for (const [k, v] of Object.entries(left)) sessionStorage.setItem(k, v);
    el.remove();

    const next = await mount();
    const note = await until(() => q(next, '[part~="converting"] [data-restarted]'), 30_000, 'the restart note');
    expect(note.textContent)
      .to.contain('reloaded while 4k60.mp4 was being converted')
      .and.contain('converting it again');
    expect(q(next, '[data-interrupted]'), 'not asked to choose it again').to.equal(undefined);
    await succeed(next, new Set());
    expect(await charges(), 'one charge').to.equal(before + 1);
    const [onDisk] = await convertedOnDisk();
    expect(await probe(onDisk!)).to.include({ width: 1920, height: 1080, codec: 'avc' });
    const left2: string[] = [];
    for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) left2.push(name);
    expect(
      left2.filter((n) => n.startsWith('chosen-')),
      'the copy is deleted once converted',
    ).to.deep.equal([]);
  });

  it('the quality checks run on the converted frames: the range sent is judged, not the chosen video', async () => {
    const el = await mount();
    const before = await charges();
    // Black from 1:40: the first 3:00 (the default range) are mostly lit; 0:20 to 3:20 are mostly black.
    await choose(el, await phoneClip('long-dark-tail.mp4'));
    await until(() => q(el, 'img[part~="thumbnail"]'), 30_000, 'the checks of the chosen video');
    expect(q(el, '[data-advice="dark"]'), 'the first 3:00 are not dark').to.equal(undefined);
    el.trim = { start: 20, end: 200 };
    // The upload never leaves (held back here, and its abort answered), so a cancel brings the element back to ready with nothing sent.
    const { send, abort } = XMLHttpRequest.prototype;
    const held = new Set<XMLHttpRequest>();
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body) {
      if (body instanceof FormData) return void held.add(this);
      return send.call(this, body);
    };
    XMLHttpRequest.prototype.abort = function (this: XMLHttpRequest) {
      if (!held.delete(this)) return abort.call(this);
      this.onabort?.(new ProgressEvent('abort'));
    };
    try {
      void el.start();
      await until(() => held.size === 1, 60_000, 'converted, then the upload');
      el.cancel();
      await until(() => el.status === 'ready', 10_000, 'back to ready');
      const dark = await until(
        () => q(el, '[part~="advice"] [data-advice="dark"]'),
        30_000,
        'the advice of the frames sent',
      );
      expect(dark.textContent).to.not.equal('');
    } finally {
      XMLHttpRequest.prototype.send = send;
      XMLHttpRequest.prototype.abort = abort;
    }
    const [onDisk] = await convertedOnDisk();
    expect((await probe(onDisk!)).seconds, 'the converted video is the range sent').to.be.within(175, 181);
    expect(await charges()).to.equal(before);
  });

  it('speaks Arabic: the plan, the trim range and the confirm button, with no serious or critical axe violations', async () => {
    const el = await mount('ar');
    await choose(el, await phoneClip('long-1080p.mp4'));
    await until(() => q(el, '[part~="primary-button"]')?.textContent?.includes('التحويل'), 10_000, 'Arabic');
    expect(q(el, '[part~="trim"] legend')!.textContent).to.equal('الجزء المُرسَل');
    expect(q(el, '[data-fit="audio"]')!.textContent).to.equal('يُزال الصوت: المشهد ثلاثي الأبعاد لا يستخدمه.');
    await until(() => q(el, '[part~="filmstrip"] img'), 20_000, 'the filmstrip');
    await expect(el).to.be.accessible();
  });

  it('has no serious or critical axe violations with the trim range and while converting', async () => {
    const el = await mount();
    await choose(el, await phoneClip('long-1080p.mp4'));
    await until(() => q(el, '[part~="filmstrip"] img'), 20_000, 'the filmstrip');
    await expect(el).to.be.accessible();
    el.reset();
    await choose(el, await phoneClip('4k60.mp4'));
    void el.start();
    await until(() => el.status === 'converting' && q(el, '[part~="converting"]'), 10_000, 'converting');
    await el.updateComplete;
    await expect(el).to.be.accessible();
    el.cancel();
  });

  it('keeps the converted video for a resend: a lost answer is sent again with the same key and file, not converted again, charged once', async () => {
    const el = await mount();
    const before = await charges();
    const poller = JobPoller.for(MediaClient.for(endpoint));
    const sends: { size: number; key: string | undefined }[] = [];
    let stored: Promise<Blob | undefined> | undefined;
    const send = XMLHttpRequest.prototype.send;
    const setHeader = XMLHttpRequest.prototype.setRequestHeader;
    const keys = new WeakMap<XMLHttpRequest, string>();
    XMLHttpRequest.prototype.setRequestHeader = function (this: XMLHttpRequest, name: string, value: string) {
      if (name.toLowerCase() === 'idempotency-key') keys.set(this, value);
      return setHeader.call(this, name, value);
    };
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body) {
      if (body instanceof FormData) {
        sends.push({ size: (body.get('video_file') as Blob).size, key: keys.get(this) });
        if (sends.length === 1) {
          // What this device keeps for a resend after a reload, read while the first upload is out.
          stored = poller.list().then((rs) => rs.find((r) => r.request instanceof Blob)?.request as Blob | undefined);
          // The request reaches the API (and is charged); its answer never arrives.
          this.onload = () => this.onerror?.(new ProgressEvent('error'));
        }
      }
      return send.call(this, body);
    };
    const phases: string[] = [];
    const seen = setInterval(() => phases.at(-1) !== el.status && phases.push(el.status), 5);
    try {
      await choose(el, await phoneClip('portrait-4k-rotated.mov'));
      void el.start();
      await succeed(el, new Set());
    } finally {
      clearInterval(seen);
      XMLHttpRequest.prototype.send = send;
      XMLHttpRequest.prototype.setRequestHeader = setHeader;
    }
    const [onDisk] = await convertedOnDisk();
    expect(sends.length, 'sent twice').to.equal(2);
    expect(sends[0]!.size).to.equal(onDisk!.size);
    expect(sends[1]).to.deep.equal(sends[0]);
    expect(phases.filter((p) => p === 'converting').length, 'converted once').to.equal(1);
    const kept = (await stored)!;
    expect(kept.size, 'the stored copy is the converted one').to.equal(onDisk!.size);
    expect(await probe(kept)).to.include({ width: 1080, height: 1920, codec: 'avc' });
    expect(await charges()).to.equal(before + 1);
  });
});
