/**
 * <glb-viewer> in Chromium with SwiftShader WebGL, reading real pixels of real models
 * (../shared/assets, made by others) and checking the statistics against @gltf-transform's inspect().
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/viewers/glb-viewer/define.js';
import { MediaClient, type GlbViewer, type ViewerFailedEvent, type ViewerLoadedEvent } from '../../src/index.js';
import { advance } from '../fixtures/browser.js';
import { coverage } from '../fixtures/pixels.js';
import { mountViewer, settle, trackContexts } from '../fixtures/viewers.js';

const viewer = (src: string) => mountViewer<GlbViewer>('glb-viewer', src);

describe('<glb-viewer>', function () {
  this.timeout(60_000); // software WebGL on a shared 2-core machine
  for (const asset of ['Box.glb', 'Duck.glb', 'DamagedHelmet.glb']) {
    it(`renders ${asset} non-blank and centred, with the stats inspect() reports`, async () => {
      const { el, event } = await viewer(`/__assets/${asset}`);
      expect(event.type, (event as ViewerFailedEvent).detail?.message).to.equal('mk-viewer-loaded');
      const expected = await (await fetch(`/__test/inspect?asset=${asset}`)).json();
      expect((event as ViewerLoadedEvent).detail.stats).to.deep.equal(expected);
      expect(el.stats).to.deep.equal(expected);
      const shot = await coverage(await el.screenshot());
      expect(shot.filled, 'share of the frame drawn').to.be.greaterThan(0.03);
      expect(shot.centerX).to.be.closeTo(0.5, 0.1);
      expect(shot.centerY).to.be.closeTo(0.5, 0.1);
      expect(el.matches(':state(loaded)')).to.equal(true);
    });
  }

  it('shows a model generated through the proxy, with the same stats the API reported', async () => {
    const client = new MediaClient({ endpoint: '/mediakit' });
    const created = await client.createModelJob({ mode: 'text', prompt: 'a clay vase', quality: 'fast' });
    let job = await client.getModelJob(created.data.job_id);
    for (let i = 0; i < 40 && job.status !== 'succeeded' && job.status !== 'failed'; i++) {
      await advance('mediakit', 20_000);
      job = await client.getModelJob(created.data.job_id);
    }
    expect(job.status).to.equal('succeeded');
    const { el, event } = await viewer(job.output!.model_url);
    expect(event.type, (event as ViewerFailedEvent).detail?.message).to.equal('mk-viewer-loaded');
    expect(el.stats).to.deep.equal(job.output!.stats);
    expect((await coverage(await el.screenshot())).filled).to.be.greaterThan(0.03);
  });

  it('turns the model with the arrow keys', async () => {
    const { el } = await viewer('/__assets/Duck.glb');
    const before = await el.screenshot();
    const canvas = el.shadowRoot!.querySelector('canvas')!;
    canvas.focus();
    canvas.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
    canvas.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
    const after = await el.screenshot();
    const a = new Uint8Array(await before.arrayBuffer());
    const b = new Uint8Array(await after.arrayBuffer());
    expect(a.length === b.length && a.every((v, i) => v === b[i])).to.equal(false);
  });

  it('says clearly when a file is not a model or cannot be fetched', async () => {
    const { el, event } = await viewer('/__assets/README.md');
    expect(event.type).to.equal('mk-viewer-failed');
    expect((event as ViewerFailedEvent).detail.code).to.equal('unsupported_format');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part=error]')!.textContent).to.contain('not a GLB');
    // The family's word for it (README "The family's words"), and no other.
    expect(el.matches(':state(failed)')).to.equal(true);
    expect(el.matches(':state(error)')).to.equal(false);
    const missing = await viewer('/__assets/none.glb');
    expect((missing.event as ViewerFailedEvent).detail.code).to.equal('http_404');
  });

  it('shows the poster until the first frame, then hides it', async () => {
    const el = await fixture<GlbViewer>(
      html`<glb-viewer loading="eager"><img slot="poster" alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" /></glb-viewer>`,
    );
    const slot = el.shadowRoot!.querySelector('slot[name=poster]') as HTMLSlotElement;
    expect(slot.hidden).to.equal(false);
    const settled = settle(el);
    el.src = '/__assets/Box.glb';
    await settled;
    await el.updateComplete;
    expect(slot.hidden).to.equal(true);
  });

  it('renders two viewers on one page', async () => {
    const [a, b] = await Promise.all([viewer('/__assets/Box.glb'), viewer('/__assets/Duck.glb')]);
    for (const v of [a, b]) expect((await coverage(await v.el.screenshot())).filled).to.be.greaterThan(0.03);
  });

  it('uses one WebGL context for 20 create-and-remove cycles, and gives it back when the last viewer is gone', async function () {
    this.timeout(120_000);
    const contexts = await trackContexts(async () => {
      for (let i = 0; i < 20; i++) {
        const { el, event } = await viewer('/__assets/Box.glb');
        expect(event.type).to.equal('mk-viewer-loaded');
        el.remove();
        await new Promise((r) => setTimeout(r, 10)); // the deferred disposal
      }
    });
    expect(contexts.length, 'contexts created').to.be.at.most(1);
    await new Promise((r) => setTimeout(r, 2_000)); // the shared renderer outlives the last viewer briefly
    expect(contexts.filter((c) => !c.isContextLost()).length, 'live contexts').to.equal(0);
  });

  it('keeps its model when moved in the DOM', async () => {
    const { el } = await viewer('/__assets/Box.glb');
    const box = document.createElement('div');
    document.body.append(box);
    box.append(el);
    await new Promise((r) => setTimeout(r, 50));
    expect((await coverage(await el.screenshot())).filled).to.be.greaterThan(0.03);
    box.remove();
  });

  it('is accessible', async () => {
    const { el } = await viewer('/__assets/Box.glb');
    el.alt = 'A cardboard box';
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('canvas')!.getAttribute('aria-label')).to.contain('A cardboard box');
    await expect(el).to.be.accessible();
  });
});
