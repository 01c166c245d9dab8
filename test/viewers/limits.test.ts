/**
 * Limits for phones (issue 15): a device-pixel-ratio cap on both viewers, a splat budget that shows
 * a large scene thinned and says so, and splat viewers that hold a WebGL context only while seen.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/viewers/glb-viewer/define.js';
import '../../src/viewers/splat-viewer/define.js';
import type { GlbViewer, SplatViewer, ViewerFailedEvent, ViewerLoadedEvent } from '../../src/index.js';
import { coverage } from '../fixtures/pixels.js';
import { ballPly, blobUrl } from '../fixtures/splats.js';
import { settle, trackContexts } from '../fixtures/viewers.js';
import { until } from '../fixtures/browser.js';
import { RenderScale } from '../../src/viewers/shared/frame-pacing.js';

describe('viewer limits', function () {
  this.timeout(120_000);

  it('slow frames lower the resolution down to min-render-scale, fast ones raise it again', () => {
    const applied: number[] = [];
    let min = 0.5;
    const scale = new RenderScale(
      () => min,
      100,
      (s) => applied.push(s),
    );
    scale.measured(120); // within the target's margin: unchanged
    expect(scale.scale).to.equal(1);
    scale.measured(400); // a quarter of the pixels would take about 100 ms
    expect(scale.scale).to.equal(0.5);
    scale.measured(4000); // never under the least share
    expect(scale.scale).to.equal(0.5);
    scale.measured(20);
    expect(scale.scale).to.equal(0.63);
    for (let i = 0; i < 5; i++) scale.measured(20);
    expect(scale.scale).to.equal(1);
    // A frame predicted slow (the whole scene after its previews) is drawn smaller from the start.
    scale.predict(1600);
    expect(scale.scale).to.equal(0.5);
    expect(applied).to.deep.equal([0.5, 0.63, 0.79, 0.99, 1, 0.5]);
    // min-render-scale="1": always the full pixel ratio.
    min = 1;
    scale.measured(20);
    expect(scale.scale).to.equal(1);
    scale.measured(5000);
    expect(scale.scale).to.equal(1);
  });

  it('max-pixel-ratio caps the pixels drawn (both viewers)', async () => {
    for (const tag of ['glb-viewer', 'splat-viewer'] as const) {
      const el =
        tag === 'glb-viewer'
          ? await fixture<GlbViewer>(
              html`<glb-viewer loading="eager" max-pixel-ratio="0.5" style="width: 322px; --mk-viewer-height: 242px"></glb-viewer>`,
            )
          : await fixture<SplatViewer>(
              html`<splat-viewer loading="eager" max-pixel-ratio="0.5" style="width: 322px; --mk-viewer-height: 242px"></splat-viewer>`,
            );
      const settled = settle(el);
      el.src = tag === 'glb-viewer' ? '/__assets/Duck.glb' : blobUrl(ballPly(1500));
      expect((await settled).type).to.equal('mk-viewer-loaded');
      const shot = await coverage(await el.screenshot());
      // 320 x 240 CSS pixels inside the 1px border, drawn at half resolution.
      expect([shot.width, shot.height], tag).to.deep.equal([160, 120]);
      expect(shot.filled, tag).to.be.greaterThan(0.02);
    }
  });

  it('shows a scene over splat-budget thinned to the budget, and says so', async () => {
    const el = await fixture<SplatViewer>(
      html`<splat-viewer loading="eager" splat-budget="1000" style="width: 320px; --mk-viewer-height: 240px"></splat-viewer>`,
    );
    const settled = settle(el);
    el.src = blobUrl(ballPly(4000));
    const event = await settled;
    expect(event.type, (event as ViewerFailedEvent).detail?.message).to.equal('mk-viewer-loaded');
    expect((event as ViewerLoadedEvent).detail.splats, 'the file holds').to.equal(4000);
    await el.updateComplete;
    const notice = el.shadowRoot!.querySelector('[part=notice]')!;
    expect(notice.textContent).to.match(/1,000 of 4,000 splats/);
    expect(notice.getAttribute('role')).to.equal('status');
    expect((await coverage(await el.screenshot())).filled).to.be.greaterThan(0.02);
  });

  it('a splat viewer gives its WebGL context back when it leaves the view and shows again when it returns', async () => {
    const spacer = document.createElement('div');
    spacer.style.height = '4000px';
    const src = blobUrl(ballPly(1000));
    let el!: SplatViewer;
    const contexts = await trackContexts(async () => {
      el = await fixture<SplatViewer>(
        html`<splat-viewer style="width: 320px; --mk-viewer-height: 240px"></splat-viewer>`,
      );
      const first = settle(el);
      el.src = src;
      expect((await first).type).to.equal('mk-viewer-loaded');
      el.before(spacer); // scrolled far out of view
      window.scrollTo(0, 0);
      const firstCanvas = el.shadowRoot!.querySelector('canvas');
      await until(() => !el.matches(':state(loaded)'), 20_000, 'the context given back out of view');
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('canvas'), 'a fresh canvas for the next context').to.not.equal(firstCanvas);
      const again = settle(el);
      el.scrollIntoView();
      expect((await again).type).to.equal('mk-viewer-loaded');
    });
    expect(contexts.length, 'a context for each time it was seen').to.equal(2);
    expect(contexts[0]!.isContextLost(), 'the first was given back').to.equal(true);
    expect((await coverage(await el.screenshot())).filled).to.be.greaterThan(0.02);
    spacer.remove();
  });
});
