/**
 * `npm start`: the demo site (demo/) on Vite's dev server, with the session-token proxy at
 * /mediakit and the sandbox (its upstream) at /sandbox in the same process. Storybook reuses
 * this config, so stories talk to the same stack.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { devCacheDir, mediakitDev } from './src/dev/index.js';

// Kept results (and the dev secret beside them) outlive a restart in this project's folder of the
// user's cache (~/.cache/mediakit/elements-<hash>): outside everything the dev server serves.
const kept = devCacheDir(fileURLToPath(new URL('.', import.meta.url)));

export default defineConfig({
  root: 'demo',
  server: { port: Number(process.env['PORT'] ?? 5173), host: '127.0.0.1', fs: { allow: ['..'] } },
  // A second stack whose sessions have 5 credits: the "not enough credits" state in the demo and stories.
  plugins: [
    mediakitDev({ resultsDir: join(kept, 'results') }),
    mediakitDev({
      basePath: '/mediakit-poor',
      sandboxPath: '/sandbox-poor',
      budget: 5,
      resultsDir: join(kept, 'results-poor'),
    }),
  ],
  build: { outDir: '../dist-demo', emptyOutDir: true },
});
