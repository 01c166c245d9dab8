// Must NOT type-check: the app tests check that tsc refuses each line with its message.
import '@mediakit/elements/video-to-3d-uploader.js';

const uploader = document.querySelector('video-to-3d-uploader')!;
uploader.notify = 'yes';
uploader.addEventListener('mk-succeeded', (e) => console.log(e.detail.blob));
