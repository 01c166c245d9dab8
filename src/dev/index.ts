export {
  createDevStack,
  demoAuthorize,
  DEMO_COOKIE,
  type DevStack,
  type DevStackOptions,
  type Middleware,
} from './stack.js';
export { devCacheDir } from './cache-dir.js';
export { mediakitDev } from './vite-plugin.js';
