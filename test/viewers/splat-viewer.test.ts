/**
 * <splat-viewer> in Chromium with SwiftShader WebGL, on a page that is not cross-origin isolated
 * (as most host pages are): generated standard PLYs (plain, in a zip, with a CRLF header), the
 * real compressed PLYs in ../shared/assets, and the files it must refuse clearly.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/viewers/splat-viewer/define.js';
import type { SplatViewer, ViewerFailedEvent, ViewerLoadedEvent } from '../../src/index.js';
import { coverage } from '../fixtures/pixels.js';
import { expectSplatRendered, mountViewer, settle, trackContexts } from '../fixtures/viewers.js';
import { ballPly, ballZip, blobUrl } from '../fixtures/splats.js';

const viewer = (src: string) => mountViewer<SplatViewer>('splat-viewer', src);

describe('<splat-viewer>', function () {
  this.timeout(120_000);

  it('renders a generated standard 3DGS PLY, reporting progress, on a page that is not cross-origin isolated', async () => {
    expect(globalThis.crossOriginIsolated, 'the premise: like most host pages').to.equal(false);
    const el = await fixture<SplatViewer>(
      html`<splat-viewer loading="eager" style="width: 320px; --mk-viewer-height: 240px"></splat-viewer>`,
    );
    const phases = new Set<string>();
    const streamed: number[] = [];
    el.addEventListener('mk-viewer-progressed', (e) => {
      phases.add(e.detail.phase);
      if (e.detail.phase === 'stream') {
        expect(e.detail.of).to.equal(3000);
        streamed.push(e.detail.splats!);
      }
    });
    const settled = settle(el);
    el.src = blobUrl(ballPly(3000));
    const event = await settled;
    expect(event.type, (event as ViewerFailedEvent).detail?.message).to.equal('mk-viewer-loaded');
    // A standard PLY is read as it downloads (splat-stream.ts): its builds are reported as `stream`.
    expect([...phases]).to.include.members(['download', 'stream']);
    expect(streamed.at(-1), 'the last build holds every splat').to.equal(3000);
    expect((event as ViewerLoadedEvent).detail.shown).to.equal(3000);
    expect((await coverage(await el.screenshot())).filled).to.be.greaterThan(0.02);
    expect(el.splats).to.equal(3000);
  });

  it('renders the same PLY from a zip archive', async () => {
    await expectSplatRendered(blobUrl(ballZip(3000)), 3000);
  });

  it('renders a PLY whose header has CRLF line endings', async () => {
    const ply = ballPly(2000);
    const text = new TextDecoder('latin1').decode(ply.subarray(0, 2000));
    const end = text.indexOf('end_header\n') + 'end_header\n'.length;
    const crlf = new TextEncoder().encode(text.slice(0, end).replace(/\n/g, '\r\n'));
    const bytes = new Uint8Array(crlf.byteLength + ply.byteLength - end);
    bytes.set(crlf);
    bytes.set(ply.subarray(end), crlf.byteLength);
    await expectSplatRendered(blobUrl(bytes), 2000);
  });

  it('renders the real compressed PLYs (pc-test.ply, and guitar.compressed.ply without an sh element)', async () => {
    await expectSplatRendered('/__assets/pc-test.ply', 64);
    await expectSplatRendered('/__assets/guitar.compressed.ply', 90854);
  });

  it('loads while auto-rotating, streamed or whole (its own frames keep the GPU busy meanwhile)', async () => {
    for (const src of [blobUrl(ballPly(3000)), '/__assets/guitar.compressed.ply']) {
      const el = await fixture<SplatViewer>(
        html`<splat-viewer loading="eager" auto-rotate style="width: 320px; --mk-viewer-height: 240px"></splat-viewer>`,
      );
      const settled = settle(el, 60_000);
      el.src = src;
      const event = await settled;
      expect(event.type, (event as ViewerFailedEvent).detail?.message ?? src).to.equal('mk-viewer-loaded');
      expect(el.matches(':state(loaded)'), 'the loaded state').to.equal(true);
    }
  });

  it('renders an antimatter15 .splat', async () => {
    const { event } = await viewer('/__assets/minimal.splat');
    expect(event.type, (event as ViewerFailedEvent).detail?.message).to.equal('mk-viewer-loaded');
    expect((event as ViewerLoadedEvent).detail.splats).to.equal(4);
  });

  it('refuses what is not a splat scene, or is cut short, with a clear message', async () => {
    const glb = await viewer('/__assets/Box.glb');
    expect((glb.event as ViewerFailedEvent).detail.code).to.equal('unsupported_format');
    expect((glb.event as ViewerFailedEvent).detail.message).to.contain('<glb-viewer>');
    // 1 024 bytes of noise: a multiple of 32, so only the record check tells it from a .splat.
    const noise = new Uint8Array(1024).map((_, i) => (i * 7919) % 251);
    const junk = await viewer(blobUrl(noise));
    expect((junk.event as ViewerFailedEvent).detail.code).to.equal('unsupported_format');
    const ply = ballPly(1000);
    const cut = await viewer(blobUrl(ply.subarray(0, ply.byteLength - 500)));
    expect((cut.event as ViewerFailedEvent).detail.message).to.match(/cut short/);
    await cut.el.updateComplete;
    expect(cut.el.shadowRoot!.querySelector('[role=alert]')!.textContent).to.match(/cut short/);
    // The family's word for it (README "The family's words"), and no other.
    expect(cut.el.matches(':state(failed)')).to.equal(true);
    expect(cut.el.matches(':state(error)')).to.equal(false);
  });

  it('runs one load at a time: a new src replaces the one in progress', async () => {
    const el = await fixture<SplatViewer>(
      html`<splat-viewer loading="eager" style="width: 320px; --mk-viewer-height: 240px"></splat-viewer>`,
    );
    const loads: ViewerLoadedEvent[] = [];
    el.addEventListener('mk-viewer-loaded', (e) => loads.push(e));
    el.src = blobUrl(ballPly(3000));
    await new Promise((r) => setTimeout(r, 0));
    const settled = settle(el);
    el.src = blobUrl(ballPly(1500));
    await settled;
    await new Promise((r) => setTimeout(r, 300));
    expect(loads.map((e) => e.detail.splats)).to.deep.equal([1500]);
  });

  it('renders two viewers on one page', async () => {
    const [a, b] = await Promise.all([viewer(blobUrl(ballPly(2000))), viewer(blobUrl(ballZip(2500)))]);
    for (const v of [a, b]) expect((await coverage(await v.el.screenshot())).filled).to.be.greaterThan(0.02);
  });

  it('leaves no WebGL context behind after 20 create-and-remove cycles', async () => {
    const src = blobUrl(ballPly(500));
    const contexts = await trackContexts(async () => {
      for (let i = 0; i < 20; i++) {
        const { el, event } = await viewer(src);
        expect(event.type).to.equal('mk-viewer-loaded');
        el.remove();
        await new Promise((r) => setTimeout(r, 10)); // the deferred disposal
      }
    });
    expect(contexts.length).to.equal(20);
    expect(contexts.filter((c) => !c.isContextLost()).length, 'live contexts').to.equal(0);
  });

  it('is accessible', async () => {
    const { el } = await viewer(blobUrl(ballPly(500)));
    await expect(el).to.be.accessible();
  });
});
