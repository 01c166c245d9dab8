/**
 * @mediakit/elements: side-effect free entry. Importing it registers no tag; import
 * `@mediakit/elements/define.js` (or one element's define module) for that.
 */
export * from './api/index.js';
export * from './client/index.js';
export * from './jobs/index.js';
export * from './events/index.js';
export { GlbViewer } from './viewers/glb-viewer/glb-viewer.js';
export { SplatViewer } from './viewers/splat-viewer/splat-viewer.js';
