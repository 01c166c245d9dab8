/**
 * Field mode in a CMS with many documents (issue 36): a field shows only its own value. An empty
 * field (or a named control in a form, or `resume="none"`) never takes the unfinished job another
 * document of this browser started; a plain element on a page still resumes it; the field that
 * started it, opened again with its saved value, follows it to the end. The box says what happened
 * when the element stopped (a job this session cannot see, a saved file that is gone), and a
 * closed field fetches no model, video or scene and makes no viewer. Real IndexedDB, real HTTP
 * through the proxy to the sandbox (the /mk-field stack, this file's own).
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/components/model-generator/define.js';
import '../../src/components/video-to-3d-uploader/define.js';
import type { ModelGenerator } from '../../src/components/model-generator/model-generator.js';
import type { VideoTo3dUploader } from '../../src/components/video-to-3d-uploader/video-to-3d-uploader.js';
import { MediaClient } from '../../src/client/media-client.js';
import { JobPoller } from '../../src/jobs/job-poller.js';
import { until, video } from '../fixtures/browser.js';
import { fieldStatus, mountIn, partOf, runFieldDocumentTests, valueEvents } from './shared/job-element-contract.js';

const endpoint = '/mk-field';
type Product = (ModelGenerator | VideoTo3dUploader) & { expand(reason?: string): boolean };

/** Moves the sandbox's clock, so jobs finish quickly. */
async function advance(ms: number): Promise<void> {
  const r = await fetch('/sandbox-field/__sandbox/clock', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance_ms: ms }),
  });
  if (!r.ok) throw new Error(`advance: ${r.status}`);
}

beforeEach(async () => {
  const poller = JobPoller.for(MediaClient.for(endpoint));
  for (const r of await poller.list()) await poller.forget(r.id);
});

describe('a field shows only its own value (issue 36)', function () {
  this.timeout(120_000);

  runFieldDocumentTests('model-generator', {
    endpoint,
    attributes: 'mode="prompt" quality="fast"',
    start: async (el) => {
      const model = el as ModelGenerator;
      model.prompt = 'a copper saucepan';
      await model.updateComplete;
      await model.start();
    },
    advance,
    step: 30_000,
    committed: { prompt: 'a copper saucepan' },
  });

  runFieldDocumentTests('video-to-3d-uploader', {
    endpoint,
    start: async (el) => {
      const uploader = el as VideoTo3dUploader;
      uploader.selectFile(await video({ seconds: 2, width: 160, height: 120 }));
      await until(() => uploader.status === 'ready', 15_000, 'ready');
      await uploader.start();
    },
    advance,
    step: 10 * 60_000,
  });
});

describe('the field box tells the truth (issue 36)', function () {
  this.timeout(60_000);

  it('a running value whose job this session cannot see: the box says so and what to do, not "In progress"; in German too', async () => {
    const value = {
      v: 1,
      kind: 'model',
      status: 'running',
      asset: null,
      job: 'A'.repeat(40),
      created: new Date().toISOString(),
      mode: 'prompt',
      prompt: 'a copper saucepan',
      quality: 'fast',
      removeBackground: false,
    };
    const el = await mountIn<Product & ModelGenerator>(
      `<model-generator endpoint="${endpoint}" appearance="field"></model-generator>`,
      'model-generator',
    );
    el.value = JSON.stringify(value);
    await until(() => el.status === 'failed', 15_000, `failed (now ${el.status})`);
    await el.updateComplete;
    expect(fieldStatus(el)).to.equal(
      'This job cannot be followed here: it belongs to another user or is no longer known. Open it to start a new one, or remove it.',
    );
    expect(el.value, 'the value stays the document’s').to.equal(JSON.stringify(value));
    el.setAttribute('lang', 'de');
    await until(() => fieldStatus(el).startsWith('Dieser Auftrag'), 5_000, 'German');
  });

  it('<video-to-3d-uploader>: the same for a running scene value whose job this session cannot see', async () => {
    const value = {
      v: 1,
      kind: 'scene',
      status: 'running',
      asset: null,
      job: 'B'.repeat(40),
      created: new Date().toISOString(),
      name: 'living-room.mp4',
    };
    const el = await mountIn<Product & VideoTo3dUploader>(
      `<video-to-3d-uploader endpoint="${endpoint}" appearance="field"></video-to-3d-uploader>`,
      'video-to-3d-uploader',
    );
    el.value = JSON.stringify(value);
    await until(
      () => fieldStatus(el).startsWith('This job cannot be followed here'),
      15_000,
      `unknown (now ${el.status})`,
    );
    expect(el.value).to.equal(JSON.stringify(value));
  });

  it('a saved model whose files are gone: the box says so, with no broken picture, and the viewer’s panel agrees when opened', async () => {
    const gone = (name: string) => `/__saved-gone/${crypto.randomUUID()}/${name}`;
    const el = await mountIn<Product & ModelGenerator>(
      `<model-generator endpoint="${endpoint}" appearance="field"></model-generator>`,
      'model-generator',
    );
    el.value = JSON.stringify(savedModel(gone('model.glb'), gone('turntable.mp4'), gone('poster.png')));
    await until(() => fieldStatus(el).startsWith('The saved file is no longer available'), 10_000, 'gone in the box');
    expect(partOf(el, 'field-preview'), 'no broken picture').to.equal(null);
    el.expand('open');
    await until(() => el.shadowRoot!.querySelector('[part~="error"] .error-title'), 15_000, 'the panel');
    expect(fieldStatus(el)).to.equal('The saved file is no longer available. Replace it, or remove it.');
  });
});

/** A saved model value (shape version 1) naming these files. */
function savedModel(glb: string, mp4: string, png: string) {
  return {
    v: 1,
    kind: 'model',
    status: 'succeeded',
    asset: { url: glb, type: 'model/gltf-binary', bytes: 48213 },
    turntable: mp4 ? { url: mp4, type: 'video/mp4', bytes: 20000 } : null,
    poster: { url: png, type: 'image/png', bytes: 70 },
    created: '2026-01-02T03:04:05.000Z',
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
  };
}

describe('a closed field costs nothing heavy, and is named by its label (issue 36)', function () {
  this.timeout(60_000);

  it('closed fields with a saved model and a saved scene fetch no model, video or scene and make no viewer; opening one does', async () => {
    const id = crypto.randomUUID();
    const glb = `/__field-lazy/${id}/model.glb`;
    const mp4 = `/__field-lazy/${id}/turntable.mp4`;
    const ply = `/__field-lazy/${id}/scene.ply`;
    const wrap = await fixture<HTMLElement>(html`<div></div>`);
    wrap.innerHTML = `<model-generator endpoint="${endpoint}" appearance="field"></model-generator>
      <video-to-3d-uploader endpoint="${endpoint}" appearance="field"></video-to-3d-uploader>`;
    const model = wrap.querySelector<Product & ModelGenerator>('model-generator')!;
    const scene = wrap.querySelector<Product & VideoTo3dUploader>('video-to-3d-uploader')!;
    model.value = JSON.stringify(savedModel(glb, mp4, '/admin/honest.png'));
    scene.value = JSON.stringify({
      v: 1,
      kind: 'scene',
      status: 'succeeded',
      asset: { url: ply, type: 'application/octet-stream', bytes: 100000 },
      created: '2026-01-02T03:04:05.000Z',
      name: 'living-room.mp4',
    });
    await until(() => partOf(model, 'field') && partOf(scene, 'field'), 5_000, 'the fields');
    await new Promise((r) => setTimeout(r, 3_000));
    const fetched = () =>
      performance
        .getEntriesByType('resource')
        .map((e) => new URL(e.name).pathname)
        .filter((p) => p.startsWith(`/__field-lazy/${id}/`));
    expect(fetched(), 'no model, video or scene fetched').to.deep.equal([]);
    for (const el of [model, scene])
      expect(
        el.shadowRoot!.querySelectorAll('glb-viewer, splat-viewer, canvas, video').length,
        `${el.localName}: no viewer, no video`,
      ).to.equal(0);
    expect(fieldStatus(model)).to.equal('Saved.');
    expect(fieldStatus(scene)).to.equal('Saved.');

    model.expand('open');
    await until(() => fetched().includes(glb), 15_000, 'the model fetched once the dialog opens');
    expect(fetched(), 'the scene field is still closed').to.not.include(ply);
  });

  it('takes its accessible name from the host’s <label for>, or from a `label` attribute', async () => {
    const wrap = await fixture<HTMLElement>(html`<div></div>`);
    wrap.innerHTML = `<label for="field-model">Model</label>
      <model-generator id="field-model" endpoint="${endpoint}" appearance="field"></model-generator>
      <video-to-3d-uploader endpoint="${endpoint}" appearance="field" label="Room scan"></video-to-3d-uploader>`;
    const model = wrap.querySelector<ModelGenerator>('model-generator')!;
    const scene = wrap.querySelector<VideoTo3dUploader>('video-to-3d-uploader')!;
    await until(() => partOf(model, 'field') && partOf(scene, 'field'), 5_000, 'the fields');
    await new Promise((r) => requestAnimationFrame(r));
    await model.updateComplete;
    await expect(model).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
    await expect(scene).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
    expect(accessibleName(partOf(model, 'field')!)).to.equal('Model');
    expect(accessibleName(partOf(scene, 'field')!)).to.equal('Room scan');
    scene.setAttribute('label', 'Showroom scan');
    await until(() => partOf(scene, 'field')!.getAttribute('aria-label') === 'Showroom scan', 2_000, 'the new name');
  });
});

describe('Replace keeps the saved value until something new is made (issue 36)', function () {
  this.timeout(60_000);

  it('the value, the form entry and the box keep the saved model while the tool starts over; closing puts the tool back, with no event', async () => {
    const saved = JSON.stringify(savedModel(`/__field-lazy/${crypto.randomUUID()}/model.glb`, '', '/admin/honest.png'));
    const wrap = await fixture<HTMLElement>(html`<div></div>`);
    wrap.innerHTML = `<form><model-generator endpoint="${endpoint}" appearance="field" name="model"></model-generator></form>`;
    const el = wrap.querySelector<Product & ModelGenerator>('model-generator')!;
    el.value = saved;
    await until(() => partOf(el, 'field-replace'), 5_000, 'Replace');
    const log = valueEvents(el);
    partOf(el, 'field-replace')!.click();
    await el.updateComplete;
    expect(el.status, 'the tool starts over').to.equal('idle');
    expect(el.value).to.equal(saved);
    expect(new FormData(el.form!).get('model'), 'the form entry').to.equal(saved);
    expect(fieldStatus(el)).to.equal('Saved.');
    el.collapse();
    await until(() => el.status === 'succeeded', 5_000, 'the saved model back in the tool');
    expect(el.value).to.equal(saved);
    expect(log).to.deep.equal([]);
  });
});

/** The accessible name axe computes for `node` (axe is loaded by the `accessible` assertion). */
function accessibleName(node: Element): string {
  const axe = (
    window as unknown as {
      axe: {
        setup(root: Node): void;
        teardown(): void;
        utils: { getNodeFromTree(n: Node): unknown };
        commons: { text: { accessibleTextVirtual(v: unknown): string } };
      };
    }
  ).axe;
  axe.setup(document);
  try {
    return axe.commons.text.accessibleTextVirtual(axe.utils.getNodeFromTree(node));
  } finally {
    axe.teardown();
  }
}
