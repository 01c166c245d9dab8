// Hydration support first, then the element: it adopts the declarative shadow DOM rendered on the
// server instead of rendering again (a mismatch throws, and the test fails on page errors).
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import '@mediakit/elements/video-to-3d-uploader.js';

document.querySelector('video-to-3d-uploader').addEventListener('mk-succeeded', () => {
  const p = document.createElement('p');
  p.dataset.sceneReady = '';
  p.textContent = 'Scene ready';
  document.querySelector('main').append(p);
});
