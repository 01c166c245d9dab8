/**
 * The new states of phone media made to fit (issue 32) have no serious or critical axe violation,
 * in English and Arabic (right to left), light and dark: the uploader's confirm panel for a 4K
 * clip, the trim range of a clip over 3 minutes, the `converting` phase, the HEVC facts line, the
 * refusal with the device advice, and the photo-fit facts line of <headshot-studio> and <bg-tool>.
 * Nothing here is sent: a conversion is cancelled before its upload.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/components/bg-tool/define.js';
import '../../src/components/headshot-studio/define.js';
import '../../src/components/video-to-3d-uploader/define.js';
import type { BgTool } from '../../src/components/bg-tool/bg-tool.js';
import type { HeadshotStudio } from '../../src/components/headshot-studio/headshot-studio.js';
import type { VideoTo3dUploader } from '../../src/components/video-to-3d-uploader/video-to-3d-uploader.js';
import { phoneClip, until } from '../fixtures/browser.js';
import { phonePhoto } from '../fixtures/phone-photo-files.js';

const q = <T extends Element = HTMLElement>(el: Element, sel: string): T | undefined =>
  el.shadowRoot!.querySelector<T>(sel) ?? undefined;
const text = (el: Element | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

const LOOKS = [
  { lang: 'en', theme: 'light' },
  { lang: 'en', theme: 'dark' },
  { lang: 'ar', theme: 'light' },
  { lang: 'ar', theme: 'dark' },
] as const;

/** The element in a page of its theme's colours (a dark page behind a dark card, as a site shows it). */
async function mount<T extends HTMLElement>(tag: string, endpoint: string, lang: string, theme: string): Promise<T> {
  const page = theme === 'dark' ? 'background:#0d1117;color:#e6edf3' : 'background:#fff;color:#1f2328';
  const wrap = await fixture<HTMLDivElement>(
    html`<div lang=${lang} dir=${lang === 'ar' ? 'rtl' : 'ltr'} style="${page};padding:16px;inline-size:720px"></div>`,
  );
  const el = document.createElement(tag) as T & { updateComplete: Promise<unknown> };
  el.setAttribute('endpoint', endpoint);
  el.setAttribute('theme', theme);
  wrap.append(el);
  await el.updateComplete;
  return el;
}

/**
 * The uploader with `clip` checked. `endpoint`: /mk-video, or /mk-poor (5 credits a session) where
 * a conversion starts: should it end before the test cancels it, its upload is refused with a 402,
 * so no job is ever created and no other file's charges move.
 */
async function uploader(lang: string, theme: string, clip: string, endpoint = '/mk-video'): Promise<VideoTo3dUploader> {
  const el = await mount<VideoTo3dUploader>('video-to-3d-uploader', endpoint, lang, theme);
  el.selectFile(await phoneClip(clip));
  await until(
    () => (el.status !== 'checking' && el.status !== 'idle') || q(el, '[part~="error"]'),
    30_000,
    `the check of ${clip}`,
  );
  await el.updateComplete;
  return el;
}

describe('phone media made to fit: axe in English and Arabic, light and dark', function () {
  this.timeout(240_000);

  for (const { lang, theme } of LOOKS) {
    const look = `${lang}, ${theme}`;

    it(`the confirm panel of a 4K clip (${look})`, async () => {
      const el = await uploader(lang, theme, '4k60.mp4');
      expect(el.status).to.equal('ready');
      expect(q(el, '[part~="fit"] [data-fit="resolution"]'), 'says what it will do').not.to.equal(undefined);
      if (lang === 'en') expect(text(q(el, '[part~="primary-button"]'))).to.equal('Convert and upload (20 credits)');
      await expect(el).to.be.accessible();
    });

    it(`the trim range of a clip over 3 minutes (${look})`, async () => {
      const el = await uploader(lang, theme, 'long-1080p.mp4');
      await until(() => el.shadowRoot!.querySelectorAll('[part~="filmstrip"] img').length > 0, 30_000, 'the filmstrip');
      expect(q(el, '[part~="trim"] input[name="trim-start"]')).not.to.equal(undefined);
      await expect(el).to.be.accessible();
    });

    it(`the converting phase (${look})`, async () => {
      const el = await uploader(lang, theme, '4k60.mp4', '/mk-poor');
      void el.start();
      await until(
        () => el.status === 'converting' && /\d/.test(text(q(el, '[part~="converting"] .nums'))),
        30_000,
        'converting',
      );
      await el.updateComplete;
      expect(q(el, '[part~="converting"] [part~="cancel-button"]')).not.to.equal(undefined);
      await expect(el).to.be.accessible();
      el.cancel();
      await until(() => el.status !== 'converting', 10_000, 'the conversion stopped');
    });
  }

  for (const { lang, theme } of [LOOKS[0], LOOKS[3]]) {
    const look = `${lang}, ${theme}`;

    it(`the HEVC facts line: the checks were skipped (${look})`, async () => {
      const el = await uploader(lang, theme, 'hevc.mov');
      await until(() => q(el, '[data-skipped]'), 20_000, 'the skipped-checks note');
      await expect(el).to.be.accessible();
    });

    it(`the refusal of a 4K HEVC clip with the device advice (${look})`, async () => {
      const el = await uploader(lang, theme, 'hevc-4k.mov');
      const panel = await until(() => q(el, '[part~="error"]'), 20_000, 'the refusal');
      if (lang === 'en') expect(text(panel)).to.contain('Most Compatible');
      await expect(el).to.be.accessible();
    });

    it(`the photo-fit facts line in <headshot-studio> and <bg-tool> (${look})`, async () => {
      const studio = await mount<HeadshotStudio>('headshot-studio', '/mk-headshot', lang, theme);
      studio.selectFile(await phonePhoto('iphone-12mp.heic'));
      await until(() => q(studio, '[part~="photo-fit"]'), 60_000, 'the facts line in headshot-studio');
      await expect(studio).to.be.accessible();
      const bg = await mount<BgTool>('bg-tool', '/mk-bg', lang, theme);
      bg.selectFile(await phonePhoto('iphone-12mp.heic'));
      await until(() => q(bg, '[part~="photo-fit"]'), 60_000, 'the facts line in bg-tool');
      await expect(bg).to.be.accessible();
    });
  }
});
