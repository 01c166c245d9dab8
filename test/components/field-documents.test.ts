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

/** The element's own `input` and `change` events, with the value at each. */
function events(el: HTMLElement & { value: string }): string[] {
  const log: string[] = [];
  for (const type of ['input', 'change'])
    el.addEventListener(type, (e) => e.composedPath()[0] === el && log.push(`${type} ${el.value}`));
  return log;
}

const part = (el: Element, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const statusText = (el: Element) => part(el, 'field-status')?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

async function mountIn<T extends HTMLElement>(markup: string, tag: string): Promise<T> {
  const wrap = await fixture<HTMLElement>(html`<div></div>`);
  wrap.innerHTML = markup;
  const el = wrap.querySelector<T & { updateComplete: Promise<boolean> }>(tag)!;
  await el.updateComplete;
  if (el.getAttribute('appearance') === 'field') await until(() => part(el, 'field'), 5_000, 'the field');
  return el;
}

/** Long enough for an element to read this browser's job list and adopt from it (it does within a second). */
const settle = () => new Promise((r) => setTimeout(r, 2_500));

beforeEach(async () => {
  const poller = JobPoller.for(MediaClient.for(endpoint));
  for (const r of await poller.list()) await poller.forget(r.id);
});

describe('a field shows only its own value (issue 36)', function () {
  this.timeout(120_000);

  it('<model-generator>: a job started in one field stays out of an empty field, a named form control and resume="none"; a plain element resumes it; the field that started it follows it to the end from its saved value', async () => {
    const first = await mountIn<Product & ModelGenerator>(
      `<model-generator endpoint="${endpoint}" appearance="field" mode="prompt" quality="fast" keep="none"></model-generator>`,
      'model-generator',
    );
    const firstLog = events(first);
    expect(first.expand('create')).to.equal(true);
    first.prompt = 'a copper saucepan';
    await first.updateComplete;
    void first.start();
    await until(() => firstLog.some((e) => e.startsWith('input ')), 20_000, 'the running value');
    const saved = first.value;
    expect(JSON.parse(saved)).to.include({ status: 'running' });
    const id = first.job!.id;
    first.remove(); // the editor saves and opens another document

    for (const attrs of ['appearance="field"', 'resume="none"']) {
      const other = await mountIn<ModelGenerator>(
        `<model-generator endpoint="${endpoint}" ${attrs}></model-generator>`,
        'model-generator',
      );
      const log = events(other);
      await settle();
      expect(other.value, attrs).to.equal('');
      expect(other.job, attrs).to.equal(undefined);
      expect(log, attrs).to.deep.equal([]);
      if (attrs.includes('field')) expect(statusText(other)).to.equal('Nothing made yet.');
      other.remove();
    }
    const inForm = await mountIn<ModelGenerator>(
      `<form><model-generator endpoint="${endpoint}" name="model"></model-generator></form>`,
      'model-generator',
    );
    const formLog = events(inForm);
    await settle();
    expect([inForm.value, inForm.job, formLog.length], 'a named control in a form').to.deep.equal(['', undefined, 0]);
    expect(new FormData(inForm.form!).get('model')).to.equal('');
    inForm.remove();

    // A plain element on a page keeps resuming this browser's unfinished job.
    const plain = await mountIn<ModelGenerator>(
      `<model-generator endpoint="${endpoint}"></model-generator>`,
      'model-generator',
    );
    await until(() => plain.job?.id === id, 10_000, 'the plain element resumes the job');
    plain.remove();

    // The document that started it, opened again with its saved (running) value, follows it to the end.
    const again = await mountIn<Product & ModelGenerator>(
      `<model-generator endpoint="${endpoint}" appearance="field"></model-generator>`,
      'model-generator',
    );
    const log = events(again);
    again.value = saved;
    await until(() => statusText(again).startsWith('In progress'), 10_000, 'in progress');
    await until(
      async () => {
        await advance(30_000);
        return log.some((e) => e.startsWith('change '));
      },
      60_000,
      'the model committed',
    );
    expect(JSON.parse(again.value)).to.include({ status: 'succeeded', prompt: 'a copper saucepan' });
  });

  it('<video-to-3d-uploader>: a job started in one field stays out of an empty field; a plain element resumes it; the field that started it follows it from its saved value', async () => {
    const first = await mountIn<Product & VideoTo3dUploader>(
      `<video-to-3d-uploader endpoint="${endpoint}" appearance="field" keep="none"></video-to-3d-uploader>`,
      'video-to-3d-uploader',
    );
    const firstLog = events(first);
    expect(first.expand('create')).to.equal(true);
    first.selectFile(await video({ seconds: 2, width: 160, height: 120 }));
    await until(() => first.status === 'ready', 15_000, 'ready');
    void first.start();
    await until(() => firstLog.some((e) => e.startsWith('input ')), 30_000, 'the running value');
    const saved = first.value;
    const id = first.job!.id;
    first.remove();

    const other = await mountIn<VideoTo3dUploader>(
      `<video-to-3d-uploader endpoint="${endpoint}" appearance="field"></video-to-3d-uploader>`,
      'video-to-3d-uploader',
    );
    const log = events(other);
    await settle();
    expect([other.value, other.job, log]).to.deep.equal(['', undefined, []]);
    expect(statusText(other)).to.equal('Nothing made yet.');
    other.remove();

    const plain = await mountIn<VideoTo3dUploader>(
      `<video-to-3d-uploader endpoint="${endpoint}"></video-to-3d-uploader>`,
      'video-to-3d-uploader',
    );
    await until(() => plain.job?.id === id, 10_000, 'the plain element resumes the job');
    plain.remove();

    const again = await mountIn<Product & VideoTo3dUploader>(
      `<video-to-3d-uploader endpoint="${endpoint}" appearance="field"></video-to-3d-uploader>`,
      'video-to-3d-uploader',
    );
    const againLog = events(again);
    again.value = saved;
    await until(
      async () => {
        await advance(10 * 60_000);
        return againLog.some((e) => e.startsWith('change '));
      },
      60_000,
      'the scene committed',
    );
    expect(JSON.parse(again.value)).to.include({ status: 'succeeded' });
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
    expect(statusText(el)).to.equal(
      'This job cannot be followed here: it belongs to another user or is no longer known. Open it to start a new one, or remove it.',
    );
    expect(el.value, 'the value stays the document’s').to.equal(JSON.stringify(value));
    el.setAttribute('lang', 'de');
    await until(() => statusText(el).startsWith('Dieser Auftrag'), 5_000, 'German');
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
      () => statusText(el).startsWith('This job cannot be followed here'),
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
    await until(() => statusText(el).startsWith('The saved file is no longer available'), 10_000, 'gone in the box');
    expect(part(el, 'field-preview'), 'no broken picture').to.equal(null);
    el.expand('open');
    await until(() => el.shadowRoot!.querySelector('[part~="error"] .error-title'), 15_000, 'the panel');
    expect(statusText(el)).to.equal('The saved file is no longer available. Replace it, or remove it.');
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
    await until(() => part(model, 'field') && part(scene, 'field'), 5_000, 'the fields');
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
    expect(statusText(model)).to.equal('Saved.');
    expect(statusText(scene)).to.equal('Saved.');

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
    await until(() => part(model, 'field') && part(scene, 'field'), 5_000, 'the fields');
    await new Promise((r) => requestAnimationFrame(r));
    await model.updateComplete;
    await expect(model).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
    await expect(scene).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
    expect(accessibleName(part(model, 'field')!)).to.equal('Model');
    expect(accessibleName(part(scene, 'field')!)).to.equal('Room scan');
    scene.setAttribute('label', 'Showroom scan');
    await until(() => part(scene, 'field')!.getAttribute('aria-label') === 'Showroom scan', 2_000, 'the new name');
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
    await until(() => part(el, 'field-replace'), 5_000, 'Replace');
    const log = events(el);
    part(el, 'field-replace')!.click();
    await el.updateComplete;
    expect(el.status, 'the tool starts over').to.equal('idle');
    expect(el.value).to.equal(saved);
    expect(new FormData(el.form!).get('model'), 'the form entry').to.equal(saved);
    expect(statusText(el)).to.equal('Saved.');
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
