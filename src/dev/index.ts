export {
  createDevStack,
  demoAuthorize,
  DEMO_COOKIE,
  type DevStack,
  type DevStackOptions,
  type Middleware,
} from './stack.js';
export { mediakitDev } from './vite-plugin.js';
