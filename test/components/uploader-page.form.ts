// A page of its own (an iframe) with a form that holds a <video-to-3d-uploader> in its markup, for
// the back/forward test: the browser restores the state of a form it parsed (the element's through
// formStateRestoreCallback, once the element is defined), not of controls a script adds later.
import '../../src/components/video-to-3d-uploader/define.js';

const form = document.querySelector('form')!;
Object.assign(window, {
  page: { el: form.querySelector('video-to-3d-uploader'), note: form.querySelector('input'), form },
});
