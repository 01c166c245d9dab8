// The page the viewer benchmark (viewers.ts) builds and drives: both viewer tags registered,
// nothing else (not the other elements of src/define.js); `show(tag, src)` resolves with the
// milliseconds from setting src to the first frame.
import '../../src/viewers/glb-viewer/define.js';
import '../../src/viewers/splat-viewer/define.js';

function show(tag: string, src: string, loadEvent = 'mk-viewer-loaded'): Promise<number> {
  return new Promise((resolve, reject) => {
    const el = document.createElement(tag);
    el.setAttribute('loading', 'eager');
    el.style.cssText = 'display:block;width:640px;height:480px;--mk-viewer-height:480px';
    document.body.append(el);
    const t0 = performance.now();
    el.addEventListener(loadEvent, () => resolve(performance.now() - t0), { once: true });
    el.addEventListener('mk-viewer-failed', (e) => reject(new Error((e as CustomEvent).detail.message)), {
      once: true,
    });
    el.setAttribute('src', src);
  });
}
Object.assign(window, { show });
