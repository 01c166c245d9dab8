// One element, from its own subpath: the page gets the uploader (and, when a scene is ready, the
// splat viewer and three.js as lazy chunks), nothing else of the package.
import '@mediakit/elements/video-to-3d-uploader.js';

document.querySelector('video-to-3d-uploader').addEventListener('mk-job-succeeded', (e) => {
  console.log('scene ready', e.detail);
});
