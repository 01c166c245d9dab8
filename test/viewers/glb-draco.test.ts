/**
 * Draco-compressed models (a shared GLB compressed at fixture time by Google's encoder): shown with
 * no attribute, three's decoder fetched only for such a file; a decoder folder with nothing in it
 * is a clear message, not "the model could not be read".
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/viewers/glb-viewer/define.js';
import type { GlbViewer, ViewerFailedEvent, ViewerLoadedEvent } from '../../src/index.js';
import { coverage } from '../fixtures/pixels.js';
import { mountViewer, settle } from '../fixtures/viewers.js';

const dracoFetches = () =>
  performance.getEntriesByType('resource').filter((e) => /draco_(decoder|wasm_wrapper)/.test(e.name)).length;

describe('<glb-viewer> and Draco', function () {
  this.timeout(90_000); // software WebGL on a shared machine

  it('shows a Draco-compressed Duck with no draco-path, fetching the decoder only for it', async () => {
    const plain = await mountViewer<GlbViewer>('glb-viewer', '/__assets/Duck.glb');
    expect(plain.event.type).to.equal('mk-viewer-loaded');
    expect(dracoFetches(), 'decoder fetched for a plain GLB').to.equal(0);

    const { el, event } = await mountViewer<GlbViewer>('glb-viewer', '/__fixtures/draco?asset=Duck.glb');
    expect(event.type, (event as ViewerFailedEvent).detail?.message).to.equal('mk-viewer-loaded');
    expect(dracoFetches(), 'decoder fetched for the Draco file').to.be.greaterThan(0);
    // The same duck: as many triangles as the uncompressed one, and drawn.
    expect((event as ViewerLoadedEvent).detail.stats?.triangles).to.equal(plain.el.stats!.triangles);
    const [a, b] = [await coverage(await plain.el.screenshot()), await coverage(await el.screenshot())];
    expect(b.filled, 'share of the frame drawn').to.be.greaterThan(0.03);
    expect(b.filled).to.be.closeTo(a.filled, 0.05);
  });

  it('says which decoder is missing when draco-path names a folder without it', async () => {
    const el = await fixture<GlbViewer>(
      html`<glb-viewer loading="eager" draco-path="/no-decoder-here/" style="width: 320px; --mk-viewer-height: 240px"></glb-viewer>`,
    );
    const settled = settle(el);
    el.src = '/__fixtures/draco?asset=Duck.glb';
    const event = (await settled) as ViewerFailedEvent;
    expect(event.type).to.equal('mk-viewer-failed');
    expect(event.detail.code).to.equal('unsupported_format');
    expect(event.detail.message).to.contain('decoder').and.to.contain('draco-path');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[role="alert"]')?.textContent ?? '').to.contain('decoder');
  });
});
