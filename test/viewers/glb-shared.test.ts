/**
 * One WebGL context for every <glb-viewer> on a page (issue 15): 24 viewers all render (pixels)
 * with at most one context alive and no "too many active WebGL contexts" warning; only viewers in
 * view are drawn; a lost context is handled once and every viewer comes back.
 */
import { expect } from '@open-wc/testing';
import '../../src/viewers/glb-viewer/define.js';
import type { GlbViewer } from '../../src/index.js';
import { coverage } from '../fixtures/pixels.js';
import { settle, trackContexts } from '../fixtures/viewers.js';
import { until } from '../fixtures/browser.js';

const ASSETS = ['Box.glb', 'Duck.glb', 'DamagedHelmet.glb'];
// Small files for the grid, so its cost is the viewers, not 8 uploads of the helmet's 2048² textures in software.
const GRID = ['Box.glb', 'Duck.glb'];

/** Counts the renders the shared renderer makes into each viewer's canvas (drawImage calls). */
function countDraws(): { of(el: Element): number; restore(): void } {
  const counts = new Map<HTMLCanvasElement, number>();
  const original = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (this: CanvasRenderingContext2D, ...args: unknown[]) {
    counts.set(this.canvas, (counts.get(this.canvas) ?? 0) + 1);
    return (original as (...a: unknown[]) => void).apply(this, args);
  } as typeof original;
  return {
    of: (el) => counts.get(el.shadowRoot!.querySelector('canvas')!) ?? 0,
    restore: () => void (CanvasRenderingContext2D.prototype.drawImage = original),
  };
}

describe('<glb-viewer>: one renderer per page', function () {
  this.timeout(300_000);

  it('renders 24 viewers with one WebGL context, no context warning, and draws only what is in view', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...a: unknown[]) => (warnings.push(a.map(String).join(' ')), warn.apply(console, a));
    const grid = document.createElement('div');
    grid.style.cssText = 'display:grid;grid-template-columns:repeat(4,160px);gap:4px';
    document.body.append(grid);
    const viewers: GlbViewer[] = [];
    try {
      const contexts = await trackContexts(async () => {
        const loads: Promise<unknown>[] = [];
        for (let i = 0; i < 24; i++) {
          const el = document.createElement('glb-viewer');
          el.loading = 'eager';
          el.style.cssText = '--mk-viewer-height: 120px';
          grid.append(el);
          loads.push(settle(el));
          el.src = `/__assets/${GRID[i % 2]}`;
          viewers.push(el);
        }
        const events = await Promise.all(loads);
        expect(events.map((e) => (e as Event).type)).to.deep.equal(Array(24).fill('mk-viewer-loaded'));
      });
      expect(contexts.length, 'WebGL contexts created').to.be.at.most(1);
      expect(contexts.filter((c) => !c.isContextLost()).length, 'live contexts').to.be.at.most(1);
      for (const [i, el] of viewers.entries()) {
        expect((await coverage(await el.screenshot())).filled, `viewer ${i} (${GRID[i % 2]}) drawn`).to.be.greaterThan(
          0.03,
        );
      }
      expect(warnings.filter((w) => /too many active webgl contexts/i.test(w))).to.deep.equal([]);

      // Scrolled apart: a change to every viewer redraws only those in the viewport.
      grid.style.gridTemplateColumns = '160px';
      const spacer = document.createElement('div');
      spacer.style.height = '3000px';
      viewers[12]!.before(spacer);
      window.scrollTo(0, 0);
      await new Promise((r) => setTimeout(r, 300)); // intersection observers report
      const draws = countDraws();
      try {
        for (const el of viewers) el.autoRotate = true;
        const inView = viewers.filter((el) => el.getBoundingClientRect().top < innerHeight);
        const below = viewers.slice(12);
        expect(inView.length).to.be.greaterThan(0);
        await until(() => inView.every((el) => draws.of(el) > 1), 20_000, 'every viewer in view to turn');
        for (const el of below) expect(draws.of(el), 'a viewer far below the fold is not drawn').to.equal(0);
        // Scrolling brings the rest into view, and they are drawn.
        below[0]!.scrollIntoView();
        await until(() => draws.of(below[0]!) > 0, 20_000, 'the scrolled-to viewer to be drawn');
      } finally {
        draws.restore();
      }
      spacer.remove();
    } finally {
      console.warn = warn;
      grid.remove();
    }
  });

  it('handles a lost context once for all viewers and draws them all again when it is restored', async () => {
    await new Promise((r) => setTimeout(r, 2_000)); // the previous test's renderer is given back
    const host = document.createElement('div');
    document.body.prepend(host);
    const viewers: GlbViewer[] = [];
    try {
      const contexts = await trackContexts(async () => {
        const loads: Promise<unknown>[] = [];
        for (let i = 0; i < 3; i++) {
          const el = document.createElement('glb-viewer');
          el.loading = 'eager';
          el.style.cssText = 'width: 200px; --mk-viewer-height: 150px';
          host.append(el);
          loads.push(settle(el));
          el.src = `/__assets/${ASSETS[i]}`;
          viewers.push(el);
        }
        await Promise.all(loads);
      });
      expect(contexts.length, 'one context for the three').to.equal(1);
      const gl = contexts[0]!;
      const lose = gl.getExtension('WEBGL_lose_context')!;
      lose.loseContext();
      await new Promise((r) => setTimeout(r, 100));
      lose.restoreContext();
      await new Promise((r) => setTimeout(r, 1_500));
      for (const [i, el] of viewers.entries())
        expect((await coverage(await el.screenshot())).filled, `viewer ${i} after restore`).to.be.greaterThan(0.03);
    } finally {
      host.remove();
    }
  });
});
