/**
 * Scenes at their real size (issue 24): a standard PLY read as it downloads into one compact copy
 * (src/viewers/splat-viewer/splat-stream.ts), thinned by importance while it arrives, shown before
 * the download ends, kept in its compact form, and the default budget per device class. Real
 * Chromium, SwiftShader WebGL, pixels read back; the held download is a real HTTP response of the
 * test server that stops part-way (/__fixtures/held-ply).
 */
import { expect, fixture, html } from '@open-wc/testing';
import { Quaternion, Vector3, Vector4 } from 'three';
import { PlyParser, SplatBuffer, SplatBufferGenerator } from '@mkkellogg/gaussian-splats-3d';
import '../../src/viewers/splat-viewer/define.js';
import type { SplatViewer, ViewerFailedEvent, ViewerLoadedEvent } from '../../src/index.js';
import { deviceSplatBudget } from '../../src/viewers/splat-viewer/splat-viewer.js';
import { PlyStream } from '../../src/viewers/splat-viewer/splat-stream.js';
import { encodePly, type Splat } from '../../src/sandbox/artifacts/ply.js';
import { coverage, difference } from '../fixtures/pixels.js';
import { expectSplatRendered, settle } from '../fixtures/viewers.js';
import { ball, ballPly, ballZip, blobUrl } from '../fixtures/splats.js';
import { until } from '../fixtures/browser.js';

/** A seeded PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Splats of every kind a trainer writes: any position, colour, opacity (some under 1/255), scale and unnormalised rotation. */
function varied(n: number, seed = 7): Splat[] {
  const u = random(seed);
  return Array.from({ length: n }, () => ({
    position: [u() * 4 - 2, u() * 4 - 2, u() * 4 - 2],
    color: [u() * 1.2 - 0.1, u(), u()],
    opacity: u() < 0.05 ? u() * 0.003 : 0.01 + u() * 0.98,
    scale: [0.002 + u() * 0.1, 0.002 + u() * 0.1, 0.002 + u() * 0.1],
    rotation: [u() * 2 - 1, u() * 2 - 1, u() * 2 - 1, u() * 2 - 1],
  }));
}

/** Each splat of a SplatBuffer as numbers (centre, scale, rotation, colour), sorted by centre. */
function splatsOf(buffer: SplatBuffer): number[][] {
  const [c, s, q, col] = [new Vector3(), new Vector3(), new Quaternion(), new Vector4()];
  const out: number[][] = [];
  for (let i = 0; i < buffer.getSplatCount(); i++) {
    buffer.getSplatCenter(i, c);
    buffer.getSplatScaleAndRotation(i, s, q);
    buffer.getSplatColor(i, col);
    out.push([c.x, c.y, c.z, s.x, s.y, s.z, q.x, q.y, q.z, q.w, col.x, col.y, col.z, col.w]);
  }
  return out.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!);
}

/** Feeds `bytes` to a PlyStream in chunks of `size` bytes. */
function streamed(bytes: Uint8Array, budget: number, size: number): PlyStream {
  const stream = new PlyStream(budget);
  for (let o = 0; o < bytes.byteLength; o += size) stream.push(bytes.subarray(o, o + size));
  stream.finish();
  return stream;
}

describe('<splat-viewer> streaming', function () {
  this.timeout(180_000);

  it('reads a standard PLY as the splat library does, whatever the chunk boundaries', () => {
    const ply = encodePly(varied(2000), 3);
    const reference = splatsOf(
      SplatBufferGenerator.getStandardGenerator(1, 0).generateFromUncompressedSplatArray(
        PlyParser.parseToUncompressedSplatArray(ply.slice().buffer, 0),
      ),
    );
    expect(reference.length, 'the library drops the splats under alpha 1/255').to.be.within(1850, 1950);
    for (const size of [1, 97, 7777, 1 << 20]) {
      const stream = streamed(ply, 1e9, size);
      const ours = splatsOf(new SplatBuffer(stream.compact()!.slice().buffer));
      expect(ours.length, `chunks of ${size} bytes`).to.equal(reference.length);
      for (let i = 0; i < ours.length; i++)
        for (let k = 0; k < 14; k++)
          expect(ours[i]![k], `splat ${i} field ${k}, chunks of ${size} bytes`).to.be.closeTo(
            reference[i]![k]!,
            k >= 10 ? 1 : 1e-5,
          );
    }
  });

  it('holds 44 bytes a splat, not the 248 of a PLY with spherical harmonics', () => {
    const ply = ballPly(3000, undefined, 3);
    const compact = streamed(ply, 1e9, 65536).compact()!;
    expect(compact.byteLength).to.equal(4096 + 1024 + 3000 * 44);
    expect(compact.byteLength / ply.byteLength).to.be.lessThan(0.3);
  });

  it('over the budget keeps the most visible splats while they arrive, not every k-th', () => {
    // Even splats large and opaque, odd ones small and faint: a stride keeps half of each.
    const splats = ball(10_000).map((s, i) =>
      i % 2 ? { ...s, opacity: 0.2, scale: [0.005, 0.005, 0.005] as [number, number, number] } : s,
    );
    const stream = streamed(encodePly(splats), 4000, 65536);
    expect(stream.count).to.be.within(3990, 4000);
    const f32 = new Float32Array(stream.compact()!.slice().buffer, 5120);
    let large = 0;
    for (let i = 0; i < stream.count; i++) if (f32[i * 11 + 3]! > 0.01) large++;
    expect(large / stream.count, 'share of the kept splats that are the large, opaque ones').to.be.greaterThan(0.98);
    // All alike: an even stride, exactly the budget.
    expect(streamed(ballPly(4000), 1000, 65536).count).to.equal(1000);
    expect(streamed(ballPly(20_000), 3333, 7777).count).to.equal(3333);
  });

  it('shows the first splats before the download ends, says how far it is, then the whole scene', async () => {
    const el = await fixture<SplatViewer>(
      html`<splat-viewer loading="eager" style="width: 320px; --mk-viewer-height: 240px"></splat-viewer>`,
    );
    const id = `held${Date.now()}`;
    const progress: { splats: number; of: number }[] = [];
    el.addEventListener('mk-viewer-progressed', (e) => {
      if (e.detail.phase === 'stream') progress.push({ splats: e.detail.splats!, of: e.detail.of! });
    });
    const settled = settle(el, 150_000);
    let loaded = false;
    void settled.then(() => (loaded = true));
    el.src = `/__fixtures/held-ply?n=60000&first=0.3&id=${id}`;
    try {
      await until(() => progress.length > 0, 90_000, 'the first splats on screen');
      expect(loaded, 'still downloading').to.equal(false);
      expect(progress[0]!.of).to.equal(60_000);
      expect(progress[0]!.splats)
        .to.be.greaterThan(0)
        .and.lessThan(60_000 * 0.31);
      await el.updateComplete;
      expect(el.matches(':state(loading)')).to.equal(true);
      expect(el.shadowRoot!.querySelector('[part=hint]'), 'no "Loading" hint over the splats').to.equal(null);
      expect(el.shadowRoot!.querySelector('[part~=streaming]')!.textContent).to.match(
        /Loading \d+% · [\d,]+ of 60,000 splats on screen/,
      );
      expect((await coverage(await el.screenshot())).filled, 'splats drawn').to.be.greaterThan(0.01);
    } finally {
      await fetch(`/__fixtures/held-ply/release?id=${id}`);
    }
    const event = await settled;
    expect(event.type, (event as ViewerFailedEvent).detail?.message).to.equal('mk-viewer-loaded');
    expect((event as ViewerLoadedEvent).detail).to.include({ splats: 60_000, shown: 60_000 });
    expect(progress.at(-1)!.splats).to.equal(60_000);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part~=streaming]')).to.equal(null);
  });

  it('draws the same picture streamed as read whole, and again from its compact form', async () => {
    const streamedEl = await expectSplatRendered(blobUrl(ballPly(3000, undefined, 3)), 3000);
    const shot = await streamedEl.screenshot();
    const whole = await (await expectSplatRendered(blobUrl(ballZip(3000)), 3000)).screenshot();
    const compact = streamedEl.compactScene()!;
    expect(compact.size).to.equal(5120 + 3000 * 44);
    const again = await (await expectSplatRendered(URL.createObjectURL(compact), 3000)).screenshot();
    const [vsWhole, vsCompact] = [await difference(shot, whole), await difference(shot, again)];
    console.log(
      `streamed PLY against the whole-file path ${vsWhole.toFixed(4)}, against its .ksplat ${vsCompact.toFixed(4)}`,
    );
    expect(vsWhole).to.be.lessThan(0.02);
    expect(vsCompact).to.be.lessThan(0.02);
  });

  it('says how many splats of a scene over the budget it shows', async () => {
    const el = await fixture<SplatViewer>(
      html`<splat-viewer loading="eager" splat-budget="5000" style="width: 320px; --mk-viewer-height: 240px"></splat-viewer>`,
    );
    const settled = settle(el);
    el.src = blobUrl(ballPly(12_000));
    const event = (await settled) as ViewerLoadedEvent;
    expect(event.detail).to.include({ splats: 12_000, shown: 5000 });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part=notice]')!.textContent).to.match(/Showing 5,000 of 12,000 splats/);
    expect(el.compactScene()!.size).to.equal(5120 + 5000 * 44);
  });

  it('sets the default budget by device class', () => {
    expect(deviceSplatBudget(4, 390), 'a 4 GiB phone').to.equal(500_000);
    expect(deviceSplatBudget(2, 360), 'a 2 GiB phone').to.equal(250_000);
    expect(deviceSplatBudget(8, 412), 'an 8 GiB phone').to.equal(1_000_000);
    expect(deviceSplatBudget(8, 1080), 'an 8 GiB laptop').to.equal(2_000_000);
    expect(deviceSplatBudget(16, 1440), 'a 16 GiB desktop').to.equal(2_500_000);
    expect(deviceSplatBudget(undefined, 900), 'a browser that does not say').to.equal(1_000_000);
  });
});
