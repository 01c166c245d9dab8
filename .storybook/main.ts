import type { StorybookConfig } from '@storybook/web-components-vite';

const config: StorybookConfig = {
  stories: ['../stories/**/*.mdx', '../stories/**/*.stories.ts'],
  addons: ['@storybook/addon-docs'],
  framework: { name: '@storybook/web-components-vite', options: {} },
  core: { disableTelemetry: true },
  // Stories talk to the same sandbox as `npm start` (vite.config.ts mounts it at /sandbox).
  viteFinal: async (config) => ({ ...config, root: undefined }),
};

export default config;
