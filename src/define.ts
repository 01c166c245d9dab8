// Registers every tag of the library. Elements add their define modules here as they land.
import './viewers/glb-viewer/define.js';
import './viewers/splat-viewer/define.js';
import './components/video-to-3d-uploader/define.js';
import './components/headshot-studio/define.js';
import './components/bg-tool/define.js';
import './components/credit-badge/define.js';
import './components/model-generator/define.js';

// Each tag's own event details on its addEventListener (the element entries' module augmentations,
// events/element-events.ts): types only, erased from define.js.
export type {} from './elements/bg-tool.js';
export type {} from './elements/headshot-studio.js';
export type {} from './elements/model-generator.js';
export type {} from './elements/video-to-3d-uploader.js';
