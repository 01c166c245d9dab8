/**
 * @mediakit/elements: the side-effect free root. Importing it registers no tag and reaches no
 * element, viewer or renderer module, so a page that imports only `MediaClient` bundles the client
 * and nothing of three.js or the splat library (and builds where those are not installed).
 *
 * Tags are registered by `@mediakit/elements/define.js` (all) or `@mediakit/elements/<tag>.js`
 * (one), which also export the element's class at runtime. Here the element classes are types
 * only: a runtime re-export would put each element's lazy viewer and renderer chunks into every
 * bundle that imports the root.
 *
 * Element owners: add `export type { YourElement, YourStatus } from './components/<tag>/<tag>.js';`
 * below; `npm run entries` writes the element's subpath.
 */
export * from './api/index.js';
export * from './client/index.js';
export * from './jobs/index.js';
export * from './events/index.js';
export { registerTranslation, registerLoader, LocalizeController } from './components/shared/localize.js';
export type { Translation } from './translations/translation.js';
// The English dictionaries' types that `Translation` is made of; nothing at runtime.
export type {} from './components/shared/english.js';

// Element classes: types only (runtime classes: `@mediakit/elements/<tag>.js`).
export type { GlbViewer } from './viewers/glb-viewer/glb-viewer.js';
export type { SplatViewer } from './viewers/splat-viewer/splat-viewer.js';
export type {
  VideoTo3dUploader,
  UploaderStatus,
  SceneValue,
} from './components/video-to-3d-uploader/video-to-3d-uploader.js';
export type {
  HeadshotStudio,
  HeadshotStatus,
  HeadshotValue,
  HeadshotVariantValue,
} from './components/headshot-studio/headshot-studio.js';
export type { BgTool, BgToolStatus, BgToolResult, BgToolValue } from './components/bg-tool/bg-tool.js';
export type { CreditBadge, CreditBadgeStatus } from './components/credit-badge/credit-badge.js';
export type {
  ModelGenerator,
  ModelGeneratorStatus,
  ModelGeneratorMode,
  ModelValue,
} from './components/model-generator/model-generator.js';
// The result value every product element shares (README "Saving results").
export type { ResultValueBase, ResultAsset, AssetHandler, AssetInfo } from './components/shared/result-value.js';
