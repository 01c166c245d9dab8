/**
 * What a new user sees on the first frame: splat scenes from training (y down, COLMAP/OpenCV) are
 * upright by default, `up` overrides it, and the subject fills most of the view, judged by the
 * rendered pixels; the same framing for GLBs. Also the empty viewer: a visible frame and a hint.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/viewers/glb-viewer/define.js';
import '../../src/viewers/splat-viewer/define.js';
import type { GlbViewer, SplatViewer, ViewerFailedEvent } from '../../src/index.js';
import { encodePly, type Splat } from '../../src/sandbox/artifacts/ply.js';
import { blobUrl } from '../fixtures/splats.js';
import { settle } from '../fixtures/viewers.js';

interface Shot {
  /** Bounding box of the drawn pixels, as shares of the width and height. */
  box: { x0: number; y0: number; x1: number; y1: number };
  /** Mean height (0 top, 1 bottom) of pixels matching a predicate. */
  rowOf(match: (r: number, g: number, b: number) => boolean): number;
  /** Share of drawn pixels in the top half. */
  topShare: number;
  /** The alpha mask as text, for a person reading a failure. */
  art: string;
}

async function shoot(el: { screenshot(): Promise<Blob> }): Promise<Shot> {
  const bitmap = await createImageBitmap(await el.screenshot());
  const { width: w, height: h } = bitmap;
  const ctx = new OffscreenCanvas(w, h).getContext('2d')!;
  ctx.drawImage(bitmap, 0, 0);
  const { data } = ctx.getImageData(0, 0, w, h);
  let x0 = w,
    y0 = h,
    x1 = -1,
    y1 = -1,
    drawn = 0,
    top = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (data[(y * w + x) * 4 + 3]! <= 8) continue;
      drawn++;
      if (y < h / 2) top++;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  let art = '';
  for (let y = 0; y < h; y += Math.ceil(h / 24)) {
    art += '\n';
    for (let x = 0; x < w; x += Math.ceil(w / 48)) art += data[(y * w + x) * 4 + 3]! > 8 ? '#' : '.';
  }
  return {
    box: { x0: x0 / w, y0: y0 / h, x1: (x1 + 1) / w, y1: (y1 + 1) / h },
    topShare: drawn ? top / drawn : 0,
    art,
    rowOf(match) {
      let n = 0,
        sum = 0;
      for (let i = 0; i < w * h; i++) {
        if (data[i * 4 + 3]! > 8 && match(data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!)) {
          n++;
          sum += Math.floor(i / w) / h;
        }
      }
      return n ? sum / n : NaN;
    },
  };
}

const red = (r: number, g: number, b: number) => r > 140 && g < 90 && b < 90;
const blue = (r: number, g: number, b: number) => b > 140 && r < 90;

/**
 * A ball as 3DGS training writes it (y down): its top cap (the file's -y side) red, the rest blue.
 * Shown upright, the red is at the top of the picture.
 */
function cappedBall(n = 3000): Uint8Array {
  const out: Splat[] = [];
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < n; i++) {
    const u = 1 - (i / (n - 1)) * 2; // up, in the scene
    const r = Math.sqrt(1 - u * u);
    const t = golden * i;
    const top = u > 0.45;
    out.push({
      position: [Math.cos(t) * r, -u, Math.sin(t) * r],
      color: top ? [0.9, 0.1, 0.1] : [0.1, 0.2, 0.9],
      opacity: 0.95,
      scale: [0.07, 0.07, 0.07],
      rotation: [1, 0, 0, 0],
    });
  }
  return encodePly(out);
}

async function splat(src: string, up?: string): Promise<SplatViewer> {
  const el = await fixture<SplatViewer>(
    up
      ? html`<splat-viewer loading="eager" up=${up} style="width: 320px; --mk-viewer-height: 240px"></splat-viewer>`
      : html`<splat-viewer loading="eager" style="width: 320px; --mk-viewer-height: 240px"></splat-viewer>`,
  );
  const settled = settle(el);
  el.src = src;
  const event = await settled;
  expect(event.type, (event as ViewerFailedEvent).detail?.message).to.equal('mk-viewer-loaded');
  return el;
}

/** The drawn box spans most of the view in at least one direction, and some of it in the other. */
function expectFills(shot: Shot, label: string): void {
  const w = shot.box.x1 - shot.box.x0;
  const h = shot.box.y1 - shot.box.y0;
  expect(Math.max(w, h), `${label}: share of the view the subject spans${shot.art}`).to.be.greaterThan(0.8);
  expect(Math.min(w, h), `${label}: the other direction${shot.art}`).to.be.greaterThan(0.15);
  expect(
    shot.box.x0 > 0 || shot.box.x1 < 1 || shot.box.y0 > 0 || shot.box.y1 < 1,
    `${label}: not cut on every side${shot.art}`,
  ).to.equal(true);
}

describe('<splat-viewer> orientation and framing', function () {
  this.timeout(120_000);

  it('shows a y-down training scene upright by default, and the other way with up="+y"', async () => {
    const src = blobUrl(cappedBall());
    const upright = await shoot(await splat(src));
    expect(upright.rowOf(red), `red cap row${upright.art}`).to.be.lessThan(0.35);
    expect(upright.rowOf(blue)).to.be.greaterThan(0.5);
    expectFills(upright, 'default');
    const flipped = await shoot(await splat(src, '+y'));
    expect(flipped.rowOf(red), `red cap row with up=+y${flipped.art}`).to.be.greaterThan(0.65);
  });

  it('turns the scene when up changes after it loaded', async () => {
    const el = await splat(blobUrl(cappedBall(2000)));
    el.up = '+y';
    await el.updateComplete;
    await new Promise((r) => setTimeout(r, 800)); // the sort worker orders the turned scene
    expect((await shoot(el)).rowOf(red)).to.be.greaterThan(0.65);
  });

  it('shows guitar.compressed.ply upright and filling the view on the first frame', async () => {
    const el = await splat('/__assets/guitar.compressed.ply');
    const shot = await shoot(el);
    expectFills(shot, 'guitar');
    // Upright, the guitar's wide body is below its neck: most of what is drawn is in the lower half.
    expect(shot.topShare, `share of the guitar drawn in the top half${shot.art}`).to.be.lessThan(0.45);
    el.up = '+y';
    await el.updateComplete;
    await new Promise((r) => setTimeout(r, 1500));
    const flipped = await shoot(el);
    expect(flipped.topShare, `up=+y turns it over${flipped.art}`).to.be.greaterThan(0.55);
  });
});

describe('<glb-viewer> framing', function () {
  this.timeout(60_000);

  for (const asset of ['Box.glb', 'Duck.glb', 'DamagedHelmet.glb']) {
    it(`fits ${asset} to most of the view on the first frame`, async () => {
      const el = await fixture<GlbViewer>(
        html`<glb-viewer loading="eager" style="width: 320px; --mk-viewer-height: 240px"></glb-viewer>`,
      );
      const settled = settle(el);
      el.src = `/__assets/${asset}`;
      expect((await settled).type).to.equal('mk-viewer-loaded');
      expectFills(await shoot(el), asset);
    });
  }

  it('turns a model with up="-y"', async () => {
    const el = await fixture<GlbViewer>(
      html`<glb-viewer loading="eager" style="width: 320px; --mk-viewer-height: 240px"></glb-viewer>`,
    );
    const settled = settle(el);
    el.src = '/__assets/Duck.glb';
    await settled;
    const upright = await shoot(el);
    el.up = '-y';
    await el.updateComplete;
    await new Promise((r) => requestAnimationFrame(r));
    const flipped = await shoot(el);
    // The duck's body is low and its head high; turned over, the mass moves to the other half.
    expect(upright.topShare, upright.art).to.be.lessThan(0.5);
    expect(flipped.topShare, flipped.art).to.be.greaterThan(0.5);
  });
});

describe('an empty viewer', () => {
  for (const tag of ['glb-viewer', 'splat-viewer'] as const) {
    it(`<${tag}> without a src shows a visible frame and a hint, not a white gap`, async () => {
      const el =
        tag === 'glb-viewer'
          ? await fixture<HTMLElement>(html`<glb-viewer style="width: 320px"></glb-viewer>`)
          : await fixture<HTMLElement>(html`<splat-viewer style="width: 320px"></splat-viewer>`);
      const style = getComputedStyle(el);
      expect(style.borderTopWidth).to.equal('1px');
      expect(style.borderTopStyle).to.equal('solid');
      expect(style.backgroundColor, 'a surface colour').to.not.match(/rgba\(0, 0, 0, 0\)|transparent/);
      expect(style.backgroundColor, 'not the page white').to.not.equal('rgb(255, 255, 255)');
      const hint = el.shadowRoot!.querySelector('[part=hint]')!;
      expect(hint.textContent).to.match(tag === 'glb-viewer' ? /No model yet/ : /No scene yet/);
      expect((hint as HTMLElement).getBoundingClientRect().height).to.be.greaterThan(0);
    });
  }

  it('follows the shared tokens --mk-surface, --mk-border and --mk-radius', async () => {
    const el = await fixture<HTMLElement>(
      html`<glb-viewer style="--mk-surface: rgb(1, 2, 3); --mk-border: rgb(4, 5, 6); --mk-radius: 3px"></glb-viewer>`,
    );
    const style = getComputedStyle(el);
    expect(style.backgroundColor).to.equal('rgb(1, 2, 3)');
    expect(style.borderTopColor).to.equal('rgb(4, 5, 6)');
    expect(style.borderTopLeftRadius).to.equal('3px');
  });

  it('shows the poster instead of the hint when one is given, and a loading hint while loading', async () => {
    const withPoster = await fixture<HTMLElement>(
      html`<glb-viewer><img slot="poster" alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" /></glb-viewer>`,
    );
    await (withPoster as GlbViewer).updateComplete;
    expect(withPoster.shadowRoot!.querySelector('[part=hint]')).to.equal(null);
    const lazy = await fixture<GlbViewer>(
      html`<glb-viewer src="/__assets/Box.glb" loading="lazy" style="margin-top: 5000px"></glb-viewer>`,
    );
    expect(lazy.shadowRoot!.querySelector('[part=hint]')!.textContent).to.match(/Loading/);
  });

  it('is accessible when empty', async () => {
    const el = await fixture<HTMLElement>(html`<splat-viewer></splat-viewer>`);
    await expect(el).to.be.accessible();
  });
});
