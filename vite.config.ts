/**
 * `npm start`: the demo site (demo/) on Vite's dev server, with the session-token proxy at
 * /mediakit and the sandbox (its upstream) at /sandbox in the same process. Storybook reuses
 * this config, so stories talk to the same stack.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { mediakitDev } from './src/dev/index.js';

export default defineConfig({
  root: 'demo',
  server: { port: Number(process.env['PORT'] ?? 5173), host: '127.0.0.1', fs: { allow: ['..'] } },
  // Kept results (and the dev secret beside them) stay in .mediakit/ across restarts.
  // A second stack whose sessions have 5 credits: the "not enough credits" state in the demo and stories.
  plugins: [
    mediakitDev({ resultsDir: fileURLToPath(new URL('.mediakit/results', import.meta.url)) }),
    mediakitDev({
      basePath: '/mediakit-poor',
      sandboxPath: '/sandbox-poor',
      budget: 5,
      resultsDir: fileURLToPath(new URL('.mediakit/results-poor', import.meta.url)),
    }),
  ],
  build: { outDir: '../dist-demo', emptyOutDir: true },
});
