import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { StorybookConfig } from '@storybook/web-components-vite';

// The real models and scenes made by others (../shared/assets), served at /assets when present.
const assets = fileURLToPath(new URL('../../shared/assets', import.meta.url));

const config: StorybookConfig = {
  stories: ['../stories/**/*.mdx', '../stories/**/*.stories.ts'],
  addons: ['@storybook/addon-docs'],
  framework: { name: '@storybook/web-components-vite', options: {} },
  core: { disableTelemetry: true },
  staticDirs: [
    { from: '../demo/media', to: '/media' },
    ...(existsSync(assets) ? [{ from: assets, to: '/assets' }] : []),
  ],
  // Stories talk to the same sandbox as `npm start` (vite.config.ts mounts it at /sandbox).
  viteFinal: async (config) => ({ ...config, root: undefined }),
};

export default config;
