export { createDevStack, type DevStack, type DevStackOptions, type Middleware } from './stack.js';
export { demoAuthorize, DEMO_COOKIE } from './demo-visitor.js';
export { devCacheDir } from './cache-dir.js';
export { mediakitDev } from './vite-plugin.js';
