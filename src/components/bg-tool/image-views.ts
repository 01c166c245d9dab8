/**
 * What <bg-tool> shows once it has an image: the picture (the original, then the before/after
 * comparison), the options and the run button. Not part of the page's first load: the element
 * imports it when the browser is idle after it connects, or when an image or a result is there first.
 */
export { CompareController } from './compare.js';
export { renderOptions } from './options-view.js';
export { renderBefore, renderResult } from './result-view.js';
export { viewStyles } from './image-views.styles.js';
