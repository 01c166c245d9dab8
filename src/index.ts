/**
 * @mediakit/elements: side-effect free entry. Importing it registers no tag; import
 * `@mediakit/elements/define.js` (or one element's define module) for that.
 */
export * from './api/index.js';
