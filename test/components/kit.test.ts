import { expect, fixture, html } from '@open-wc/testing';
import '../../src/components/video-to-3d-uploader/define.js';
import type { VideoTo3dUploader } from '../../src/components/video-to-3d-uploader/video-to-3d-uploader.js';
import { frameStats, inspectFrames, judge } from '../../src/components/video-to-3d-uploader/frame-checks.js';
import { registerTranslation } from '../../src/internal/localize.js';
import { phoneClip, until, video } from '../fixtures/browser.js';

const endpoint = '/mk-kit'; // this file's own stack (the uploader's tests count charges on /mk-video)
const q = (el: Element, sel: string) => el.shadowRoot!.querySelector<HTMLElement>(sel) ?? undefined;

/** A 96x54 frame drawn by `paint`, as the checks see it. */
function frame(paint: (ctx: OffscreenCanvasRenderingContext2D) => void) {
  const c = new OffscreenCanvas(96, 54);
  const ctx = c.getContext('2d', { willReadFrequently: true })!;
  paint(ctx);
  return frameStats(ctx.getImageData(0, 0, 96, 54).data, 96, 54);
}
const stripes = (ctx: OffscreenCanvasRenderingContext2D, light = '#ddd', dark = '#333') => {
  for (let x = 0; x < 96; x += 8) {
    ctx.fillStyle = x % 16 ? light : dark;
    ctx.fillRect(x, 0, 8, 54);
  }
};

describe('the kit: advisory frame checks', () => {
  it('judge the frames read when a later seek is slow (a busy phone), instead of reporting none', async function () {
    this.timeout(60_000);
    // Lit until 1:40, black after. Judged as 400 s long, the samples fall at 0:40, 2:00, 3:20 (the end)...
    const clip = await phoneClip('long-dark-tail.mp4');
    // ...and from the third seek on, 'seeked' never comes in time: 0:40 (lit) and 2:00 (black) are read.
    const add = HTMLMediaElement.prototype.addEventListener;
    let seeks = 0;
    HTMLMediaElement.prototype.addEventListener = function (this: HTMLMediaElement, ...args: Parameters<typeof add>) {
      if (args[0] === 'seeked' && ++seeks > 2) return;
      return add.apply(this, args);
    } as typeof add;
    try {
      const slow = await inspectFrames(clip, 400, new AbortController().signal, 5, 300);
      expect(seeks, 'it seeked a third time').to.equal(3);
      expect(slow.thumbnail, 'the thumbnail of the first frame').to.be.instanceOf(Blob);
      expect(slow.advice, 'half of the frames read are black').to.include('dark');
    } finally {
      HTMLMediaElement.prototype.addEventListener = add;
    }
  });
  it('say nothing of sharp, even, continuous frames', () => {
    const a = frame((c) => stripes(c));
    expect(judge([a, a, a, a, a])).to.deep.equal([]);
  });
  it('call dark frames dark and white ones blown out', () => {
    const dark = frame((c) => stripes(c, '#141414', '#050505'));
    expect(judge([dark, dark, dark])).to.include('dark');
    const white = frame((c) => ((c.fillStyle = '#fff'), c.fillRect(0, 0, 96, 54)));
    expect(judge([white])).to.include('bright');
  });
  it('call soft frames blurry (variance of the Laplacian)', () => {
    const soft = frame((c) => {
      const g = c.createLinearGradient(0, 0, 96, 0);
      g.addColorStop(0, '#555');
      g.addColorStop(1, '#aaa');
      c.fillStyle = g;
      c.fillRect(0, 0, 96, 54);
    });
    expect(judge([soft, soft, soft])).to.include('blurry');
  });
  it('notice a hard cut between samples', () => {
    const a = frame((c) => stripes(c, '#eee', '#ccc'));
    const b = frame((c) => stripes(c, '#222', '#444'));
    expect(judge([a, a, b, b])).to.include('cut');
  });
});

describe('the kit: intake, words, form value, announcements', function () {
  this.timeout(60_000);
  it('takes a dropped file and announces the stage politely', async () => {
    const el = await fixture<VideoTo3dUploader>(
      html`<video-to-3d-uploader endpoint=${endpoint}></video-to-3d-uploader>`,
    );
    const data = new DataTransfer();
    data.items.add(await video());
    el.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
    await el.updateComplete;
    expect(q(el, '[part~="drop-zone"]')!.classList.contains('dragging')).to.equal(true);
    el.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    await until(() => el.status === 'ready', 15_000, 'ready');
    const region = q(el, '[aria-live="polite"]')!;
    await until(() => region.textContent!.includes('Ready to upload'), 2_000, 'the announcement');
    expect(el.shadowRoot!.querySelectorAll('[aria-live="polite"]').length, 'one polite region').to.equal(1);
  });

  it('takes single words from `strings` and whole languages from registerTranslation', async () => {
    // A language we do not ship (Latin), so no built-in dictionary arriving late can fill the gaps.
    registerTranslation('la', { vtChoose: 'Elige pelliculam' });
    const wrap = await fixture(
      html`<div lang="la-VA"><video-to-3d-uploader endpoint=${endpoint}></video-to-3d-uploader></div>`,
    );
    const el = wrap.querySelector('video-to-3d-uploader')!;
    await until(
      () => q(el, '[part~="choose-button"]')?.textContent?.includes('Elige pelliculam'),
      5_000,
      'Latin (la-VA -> la)',
    );
    expect(q(el, '[part~="cost"]')!.textContent, 'what Latin lacks falls back to English').to.contain(
      'Costs 20 credits',
    );
    el.strings = { vtChoose: 'Scan your room' };
    await el.updateComplete;
    expect(q(el, '[part~="choose-button"]')!.textContent).to.contain('Scan your room');
  });

  it('puts its running value (with the job handle) into its form once the job exists, and a form reset clears it', async () => {
    const form = await fixture<HTMLFormElement>(
      html`<form><video-to-3d-uploader endpoint=${endpoint} name="scene" required></video-to-3d-uploader></form>`,
    );
    const el = form.querySelector('video-to-3d-uploader')!;
    await el.updateComplete;
    expect(form.checkValidity(), 'required and empty').to.equal(false);
    el.selectFile(await video());
    await until(() => el.status === 'ready', 15_000, 'ready');
    await el.start();
    const value = new FormData(form).get('scene');
    expect(value).to.be.a('string').and.equal(el.value);
    expect(JSON.parse(value as string)).to.include({ kind: 'scene', status: 'running', job: el.job!.handle });
    expect(form.checkValidity()).to.equal(true);
    form.reset();
    await el.updateComplete;
    expect(new FormData(form).get('scene')).to.equal('');
    expect(el.status).to.equal('idle');
  });

  it('keeps the running job when the host sets the value it set before (a framework re-rendering before its state caught up)', async () => {
    const el = await fixture<VideoTo3dUploader>(
      html`<video-to-3d-uploader endpoint=${endpoint}></video-to-3d-uploader>`,
    );
    el.value = ''; // what a controlled React wrapper sets on its first render
    el.selectFile(await video());
    await until(() => el.status === 'ready', 15_000, 'ready');
    await el.start();
    const running = el.value;
    expect(JSON.parse(running)).to.include({ status: 'running' });
    el.value = ''; // the same render again: the host's state has not seen an input or change yet
    await el.updateComplete;
    expect(el.value, 'the job is still the value').to.equal(running);
    expect(el.status).to.not.equal('idle');
    el.value = running; // the host catches up
    el.value = ''; // and now clears it on purpose
    await el.updateComplete;
    expect(el.value).to.equal('');
    expect(el.status).to.equal('idle');
  });

  it('field mode: a job started in the dialog goes on after Done; the field says so, and a second field given the running value follows it to the kept scene', async () => {
    const el = await fixture<VideoTo3dUploader>(
      html`<video-to-3d-uploader endpoint=${endpoint} appearance="field"></video-to-3d-uploader>`,
    );
    await until(() => q(el, '[part~="field"]'), 5_000, 'the field');
    // (Create, or Open where the element took up a job an earlier test left running on this endpoint.)
    expect(el.expand('create')).to.equal(true);
    el.selectFile(await video());
    await until(() => el.status === 'ready', 15_000, 'ready');
    await el.start();
    q(el, '[part~="dialog-close"]')!.click();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('dialog')!.open).to.equal(false);
    expect(JSON.parse(el.value)).to.include({ status: 'running' });
    expect(q(el, '[part~="field-status"]')!.textContent).to.contain('In progress');
    expect(q(el, '[part~="field-open"]'), 'Open follows the job').to.not.equal(undefined);

    // The form is saved and opened again (another tab, the next day): the running value resumes.
    const again = await fixture<VideoTo3dUploader>(
      html`<video-to-3d-uploader endpoint=${endpoint} appearance="field"></video-to-3d-uploader>`,
    );
    await until(() => q(again, '[part~="field"]'), 5_000, 'the second field');
    again.value = el.value;
    const changed = new Promise((r) => again.addEventListener('change', r, { once: true }));
    await until(
      async () => {
        await fetch('/sandbox-kit/__sandbox/clock', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"advance_ms":60000}',
        });
        return again.status === 'succeeded' && el.status === 'succeeded';
      },
      40_000,
      'both fields to see the job end',
    );
    await changed;
    await again.updateComplete;
    expect(JSON.parse(again.value).asset.url).to.match(/^\/mk-kit\/results\//);
    expect(q(again, '[part~="field-status"]')!.textContent).to.contain('Saved.');
    expect(q(again, '[part~="field-detail"]')!.textContent).to.contain('.mp4');
  });

  it('never takes the focus from the page when a job ends in the background', async () => {
    const wrap = await fixture(
      html`<div><input aria-label="Notes" /><video-to-3d-uploader endpoint=${endpoint}></video-to-3d-uploader></div>`,
    );
    const el = wrap.querySelector('video-to-3d-uploader')!;
    const input = wrap.querySelector('input')!;
    el.selectFile(await video());
    await until(() => el.status === 'ready', 15_000, 'ready');
    void el.start();
    input.focus(); // the user goes on with the page's own form
    await until(
      async () => {
        // The control plane answers this page because the test server gave it the dev token cookie.
        const moved = await fetch('/sandbox-kit/__sandbox/clock', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"advance_ms":60000}',
        });
        if (!moved.ok) throw new Error(`the sandbox clock: ${moved.status} ${await moved.text()}`);
        return el.status === 'succeeded';
      },
      40_000,
      'the job to end',
    );
    await el.updateComplete;
    await new Promise((r) => setTimeout(r, 100));
    expect(document.activeElement).to.equal(input);
  });
});
