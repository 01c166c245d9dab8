/**
 * A saved value whose kept file is gone says so, in every element: "This saved result's file is no
 * longer available", beside what the element can still show, with "Start over", which removes the
 * value (`change`) and leaves the element ready for a new one. Real HTTP: each value's kept file is
 * a path the test server answers 404.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/components/bg-tool/define.js';
import '../../src/components/headshot-studio/define.js';
import '../../src/components/model-generator/define.js';
import '../../src/components/video-to-3d-uploader/define.js';
import type { ProductElement } from '../../src/components/shared/product-element.js';
import { until } from '../fixtures/browser.js';

const endpoint = '/mediakit';
const GONE_TITLE = "This saved result's file is no longer available";
const created = '2026-01-02T03:04:05.000Z';
const cut = (el: Element) => el.shadowRoot!;
const q = <T extends Element = HTMLElement>(el: Element, sel: string): T | undefined =>
  cut(el).querySelector<T>(sel) ?? undefined;
/** A kept file that is gone: a path the test server answers 404. */
const gone = (name: string) => `/__saved-gone/${crypto.randomUUID()}/${name}`;

type Element_ = ProductElement<never> & HTMLElement & { value: string; status: string };

async function mount(tag: string, value: object, lang = 'en'): Promise<Element_> {
  const el = document.createElement(tag) as Element_;
  el.setAttribute('endpoint', endpoint);
  el.setAttribute('keep', 'none');
  el.setAttribute('lang', lang);
  await fixture(html`<div></div>`).then((div) => div.append(el));
  el.value = JSON.stringify(value);
  return el;
}

/** The panel that says the saved file is gone, once it is shown. */
async function gonePanel(el: Element): Promise<HTMLElement> {
  return until(
    () => {
      const panel = q<HTMLElement>(el, '[part~="error"]');
      return panel?.querySelector('.error-title')?.textContent?.trim() ? panel : undefined;
    },
    20_000,
    'the panel that says the saved file is gone',
  );
}

/** "Start over" in the panel removes the value with `change`. */
async function startOver(el: Element_, panel: HTMLElement): Promise<void> {
  let changes = 0;
  el.addEventListener('change', () => changes++);
  const button = [...panel.querySelectorAll('button')].find((b) => b.textContent!.trim() === 'Start over');
  expect(button, 'a way to start again').to.not.equal(undefined);
  button!.click();
  await el.updateComplete;
  expect(changes, '`change` once').to.equal(1);
  expect(el.value).to.equal('');
}

/** What the card shows (not the live region), in one line, without the isolates around numbers. */
const text = (el: Element) =>
  [...cut(el).querySelectorAll('[part~="base"] > :not([part~="announcer"])')]
    .map((n) => n.textContent)
    .join(' ')
    .replace(/[\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ');

describe('a saved value whose kept file is gone says so', function () {
  this.timeout(60_000);

  it('<bg-tool>: says so with the value\'s facts (not "this job is no longer known"), and starts over', async () => {
    const el = await mount('bg-tool', {
      v: 1,
      kind: 'background-removal',
      status: 'succeeded',
      asset: { url: gone('cutout.png'), type: 'image/png', bytes: 5000 },
      created,
      width: 320,
      height: 400,
      format: 'png',
      options: { size: 'auto', format: 'png', bgColor: 'none', crop: false },
      charged: 1,
    });
    const panel = await gonePanel(el);
    expect(panel.querySelector('.error-title')!.textContent!.trim()).to.equal(GONE_TITLE);
    expect(panel.querySelector('.error-hint')!.textContent).to.contain('still shown');
    expect(
      panel.querySelector('.error-detail')!.textContent!.replace(/[\u2066-\u2069]/g, ''),
      'what the value still says',
    ).to.equal('320×400 PNG · 1 credit');
    expect(text(el)).to.not.contain('no longer known');
    expect(el.status).to.equal('failed');
    await expect(el).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
    await startOver(el, panel);
    expect(el.status).to.equal('idle');
    expect(q(el, '[part~="drop-zone"]'), 'ready for a new image').to.not.equal(undefined);
  });

  it('<bg-tool> says so in every shipped language (German here, from the same shared string)', async () => {
    const el = await mount(
      'bg-tool',
      {
        v: 1,
        kind: 'background-removal',
        status: 'succeeded',
        asset: { url: gone('cutout.png'), type: 'image/png', bytes: 5000 },
        created,
        width: 320,
        height: 400,
        format: 'png',
        options: { size: 'auto', format: 'png', bgColor: 'none', crop: false },
        charged: 1,
      },
      'de',
    );
    const panel = await until(
      () => {
        const p = q<HTMLElement>(el, '[part~="error"]');
        return p?.textContent?.includes('nicht mehr verfügbar') ? p : undefined;
      },
      20_000,
      'the German panel',
    );
    expect(panel.querySelector('.error-title')!.textContent!.trim()).to.equal(
      'Die Datei dieses gespeicherten Ergebnisses ist nicht mehr verfügbar',
    );
    expect([...panel.querySelectorAll('button')].map((b) => b.textContent!.trim())).to.include('Neu beginnen');
  });

  it('<headshot-studio>: says so above the grid, still shows the headshots that are there, and starts over', async () => {
    const lost = gone('headshot-1.png');
    const here = { url: '/admin/honest.png', type: 'image/png', bytes: 70 };
    const el = await mount('headshot-studio', {
      v: 1,
      kind: 'headshot',
      status: 'succeeded',
      asset: { url: lost, type: 'image/png', bytes: 1000 },
      created,
      style: 'corporate',
      variants: [
        { slot: 0, style: 'corporate', status: 'succeeded', asset: here, width: 1, height: 1 },
        { slot: 1, style: 'corporate', status: 'succeeded', asset: { url: lost, type: 'image/png', bytes: 1000 } },
      ],
      chosen: 1,
      charged: 5,
    });
    const panel = await gonePanel(el);
    expect(panel.querySelector('.error-title')!.textContent!.trim()).to.equal(GONE_TITLE);
    // What it can still show: the headshot whose file is there, its picture loaded.
    const shown = q<HTMLImageElement>(el, '[data-slot="0"] img')!;
    await until(() => shown.complete && shown.naturalWidth > 0, 5_000, 'the headshot that is there');
    expect(shown.hidden).to.equal(false);
    expect(q<HTMLImageElement>(el, '[data-slot="1"] img')!.hidden, 'no broken picture for the one gone').to.equal(true);
    expect(q(el, '[data-slot="1"] [part~="download"]'), 'no download of a file that is gone').to.equal(undefined);
    expect((el as unknown as { file: File | null }).file).to.equal(null);
    await startOver(el, panel);
    expect(el.status).to.equal('idle');
  });

  it('<headshot-studio>: a batch with nothing chosen learns it from the picture that does not load', async () => {
    const el = await mount('headshot-studio', {
      v: 1,
      kind: 'headshot',
      status: 'succeeded',
      asset: null,
      created,
      style: 'creative',
      variants: [
        { slot: 0, style: 'creative', status: 'succeeded', asset: { url: gone('a.png'), type: 'image/png', bytes: 9 } },
      ],
      chosen: null,
      charged: 2,
    });
    const panel = await gonePanel(el);
    expect(panel.querySelector('.error-title')!.textContent!.trim()).to.equal(GONE_TITLE);
  });

  it('<model-generator>: says so instead of "Your 3D model is ready", with what the value still has, and starts over', async () => {
    const el = await mount('model-generator', {
      v: 1,
      kind: 'model',
      status: 'succeeded',
      asset: { url: gone('model.glb'), type: 'model/gltf-binary', bytes: 48213 },
      turntable: null,
      poster: null,
      created,
      mode: 'prompt',
      prompt: 'a red armchair',
      seed: 4242,
      quality: 'standard',
      removeBackground: false,
      stats: {
        triangles: 1200,
        vertices: 800,
        meshes: 1,
        materials: 1,
        textures: 1,
        maxTextureSize: 1024,
        bytes: 48213,
        animations: 0,
      },
    });
    const panel = await gonePanel(el);
    expect(panel.querySelector('.error-title')!.textContent!.trim()).to.equal(GONE_TITLE);
    expect(text(el)).to.not.contain('Your 3D model is ready');
    expect(q(el, '[part~="seed"]')!.textContent, 'the seed is still shown').to.contain('4242');
    expect(q(el, '[part~="download"]'), 'no download of a file that is gone').to.equal(undefined);
    await startOver(el, panel);
    expect(el.status).to.not.equal('succeeded');
  });

  it('<video-to-3d-uploader>: says so instead of "Your 3D scene is ready", with the video\'s name, and starts over', async () => {
    const el = await mount('video-to-3d-uploader', {
      v: 1,
      kind: 'scene',
      status: 'succeeded',
      asset: { url: gone('scene.ply'), type: 'application/octet-stream', bytes: 100000 },
      created,
      name: 'living-room.mp4',
    });
    const panel = await gonePanel(el);
    expect(panel.querySelector('.error-title')!.textContent!.trim()).to.equal(GONE_TITLE);
    expect(panel.querySelector('.error-detail')!.textContent).to.equal('living-room.mp4');
    expect(text(el)).to.not.contain('Your 3D scene is ready');
    expect(q(el, '[part~="download-ply"]'), 'no download of a file that is gone').to.equal(undefined);
    await startOver(el, panel);
    expect(el.status).to.equal('idle');
  });
});
