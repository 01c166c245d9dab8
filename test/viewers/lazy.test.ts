/**
 * Heavy code loads only when needed: importing the library and the viewers' define modules fetches
 * no three.js; a lazy viewer fetches it only when it nears the viewport with something to show.
 * (Its own test file: each file runs in a fresh page, so nothing else loaded three first.)
 */
import { expect } from '@open-wc/testing';
import '../../src/index.js';
import '../../src/viewers/glb-viewer/define.js';
import '../../src/viewers/splat-viewer/define.js';

const threeFetched = () => performance.getEntriesByType('resource').some((e) => /\/node_modules\/(three|@mkkellogg)\//.test(e.name));

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
      viewer.addEventListener('mk-viewer-load', resolve, { once: true });
      viewer.addEventListener('mk-viewer-error', (e) => reject(new Error(e.detail.message)), { once: true });
    });
    viewer.scrollIntoView();
    await loaded;
    expect(threeFetched(), 'after it scrolled into view').to.equal(true);
    spacer.remove();
    viewer.remove();
  });
});
