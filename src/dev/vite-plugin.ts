/**
 * `mediakitDev()`: a Vite plugin that mounts the development stack (sandbox + proxy, see
 * stack.ts) on the dev server, so a page served by Vite can use `<... endpoint="/mediakit">`
 * with no account and no other process.
 */
import type { Plugin } from 'vite';
import { createDevStack, type DevStackOptions } from './stack.js';

export function mediakitDev(options: DevStackOptions = {}): Plugin {
  return {
    name: 'mediakit-dev',
    configureServer(server) {
      const stack = createDevStack(options);
      server.middlewares.use(stack.middleware);
      server.httpServer?.once('listening', () => {
        setTimeout(() => server.config.logger.info(`  ${stack.describe()}`), 0);
      });
    },
  };
}
