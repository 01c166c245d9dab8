/**
 * Heavy code loads only when needed: importing the library and the viewers' define modules fetches
 * no three.js; a lazy viewer fetches it only when it nears the viewport with something to show.
 * (Its own test file: each file runs in a fresh page, so nothing else loaded three first.)
 */
import { expect } from '@open-wc/testing';
import '../../src/index.js';
import '../../src/viewers/glb-viewer/define.js';
import '../../src/viewers/splat-viewer/define.js';
import { ballPly, blobUrl } from '../fixtures/splats.js';

/** The viewer's first-frame measures (User Timing) since `since`. */
const firstFrames = (tag: string, since: number) =>
  performance.getEntriesByName(`mediakit:${tag}:first-frame`, 'measure').filter((e) => e.startTime >= since);
const threeFetched = () =>
  performance.getEntriesByType('resource').some((e) => /\/node_modules\/(three|@mkkellogg)\//.test(e.name));

describe('lazy viewers', () => {
  it('fetch three.js only when a viewer with a src comes near the viewport', async () => {
    expect(threeFetched(), 'importing the library').to.equal(false);
    const spacer = document.createElement('div');
    spacer.style.height = '4000px';
    const viewer = document.createElement('glb-viewer');
    viewer.src = '/__assets/Box.glb';
    document.body.append(spacer, viewer);
    await new Promise((r) => setTimeout(r, 500));
    expect(threeFetched(), 'a viewer far below the fold').to.equal(false);
    const loaded = new Promise((resolve, reject) => {
      viewer.addEventListener('mk-viewer-loaded', resolve, { once: true });
      viewer.addEventListener('mk-viewer-failed', (e) => reject(new Error(e.detail.message)), { once: true });
    });
    const shown = performance.now();
    viewer.scrollIntoView();
    await loaded;
    expect(threeFetched(), 'after it scrolled into view').to.equal(true);
    // Its first-frame measure starts when the load does (in view), not when the element was made.
    const [measure, ...more] = firstFrames('glb-viewer', shown);
    expect(more).to.have.length(0);
    expect(measure?.duration).to.be.greaterThan(0);
    spacer.remove();
    viewer.remove();
  });

  it('measure mediakit:splat-viewer:first-frame from the start of the load to the first frame', async function () {
    this.timeout(120_000); // software WebGL
    const since = performance.now();
    const viewer = document.createElement('splat-viewer');
    viewer.loading = 'eager';
    viewer.style.cssText = 'width: 320px; --mk-viewer-height: 240px';
    const loaded = new Promise((resolve, reject) => {
      viewer.addEventListener('mk-viewer-loaded', resolve, { once: true });
      viewer.addEventListener('mk-viewer-failed', (e) => reject(new Error(e.detail.message)), { once: true });
    });
    viewer.src = blobUrl(ballPly(2000));
    document.body.append(viewer);
    await loaded;
    const measures = firstFrames('splat-viewer', since);
    expect(measures).to.have.length(1);
    expect(measures[0]!.duration).to.be.greaterThan(0);
    viewer.remove();
  });
});
