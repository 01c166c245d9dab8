import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';

// The plugin's files are .js with JSX, as @wordpress/scripts builds them: tell the bundler so.
const jsxInJs = {
  name: 'plugin-js-is-jsx',
  enforce: 'pre',
  load(id) {
    if (/\/plugin\/.*\.js$/.test(id)) return { code: readFileSync(id, 'utf8'), moduleType: 'jsx' };
    return null;
  },
};

export default defineConfig({
  plugins: [jsxInJs],
  build: {
    chunkSizeWarningLimit: 16000,
    rolldownOptions: {
      // Gutenberg's dependencies mark files 'use client' (meaningless in a browser bundle).
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
    },
  },
});
