// One element, from its own subpath: the page gets the uploader (and, when a scene is ready, the
// splat viewer and three.js as lazy chunks), nothing else of the package. In TypeScript the
// subpath alone types the tag (HTMLElementTagNameMap) and its mk-* events (the app tests run tsc).
import '@mediakit/elements/video-to-3d-uploader.js';

const uploader = document.querySelector('video-to-3d-uploader')!;
uploader.notify = false;
uploader.addEventListener('mk-succeeded', (e) => {
  console.log('scene ready', e.detail.id, e.detail.summary);
});
uploader.addEventListener('mk-upload-progressed', (e) => {
  console.log('sent', e.detail.loaded, 'of', e.detail.total);
});
