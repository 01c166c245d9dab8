import type { StorybookConfig } from '@storybook/web-components-vite';
import type { PluginOption } from 'vite';
import { playgroundWorker, WORKER_FILE } from './playground-worker.js';

/** The Node dev stack vite.config.ts mounts for `npm start` (src/dev/vite-plugin.ts): not here. */
const withoutDevStack = (plugins: PluginOption[] = []): PluginOption[] =>
  plugins.map((p) =>
    Array.isArray(p)
      ? withoutDevStack(p)
      : p && typeof p === 'object' && 'name' in p && p.name === 'mediakit-dev'
        ? false
        : p,
  );

const config: StorybookConfig = {
  stories: ['../stories/**/*.mdx', '../stories/**/*.stories.ts'],
  addons: ['@storybook/addon-docs'],
  framework: { name: '@storybook/web-components-vite', options: {} },
  core: { disableTelemetry: true },
  staticDirs: [
    { from: '../demo/media', to: '/media' },
    // The viewer stories' model and scene, made by this repository's sandbox (stories/assets/README.md).
    { from: '../stories/assets', to: '/assets' },
  ],
  // No server (ARCHITECTURE.md): the stories run against the playground, the proxy and the sandbox
  // in a Service Worker (src/playground), so storybook-static works from any static file server
  // and the dev server needs nothing more. The worker sits beside iframe.html (a Service Worker
  // serves only its own folder and below); the preview names it, relative to the page, so a
  // Storybook published under a sub-path finds its own.
  previewHead: (head) => `${head}\n<meta name="mediakit-playground-worker" content="${WORKER_FILE}" />`,
  viteFinal: async (config) => ({
    ...config,
    root: undefined,
    plugins: [...withoutDevStack(config.plugins), playgroundWorker()],
  }),
};

export default config;
