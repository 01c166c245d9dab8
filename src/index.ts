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
export { VideoTo3dUploader, type UploaderStatus } from './components/video-to-3d-uploader/video-to-3d-uploader.js';
export { registerTranslation, registerLoader, LocalizeController } from './components/shared/localize.js';
export { HeadshotStudio, type HeadshotStatus } from './components/headshot-studio/headshot-studio.js';
export { BgTool, type BgToolStatus, type BgToolResult } from './components/bg-tool/bg-tool.js';
export { CreditBadge, type CreditBadgeStatus } from './components/credit-badge/credit-badge.js';
export { ModelGenerator, type ModelGeneratorStatus, type ModelGeneratorMode } from './components/model-generator/model-generator.js';
