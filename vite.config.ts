/**
 * `npm start`: the demo site (demo/) on Vite's dev server with the sandbox mounted at /sandbox in
 * the same process. The session-token proxy will mount at /mediakit beside it (issue: proxy).
 */
import { defineConfig, type Plugin } from 'vite';
import { createSandbox, connectMiddleware } from './src/sandbox/index.js';

function sandboxPlugin(): Plugin {
  return {
    name: 'mediakit-sandbox',
    configureServer(server) {
      const speed = Number(process.env['MEDIAKIT_SANDBOX_SPEED'] ?? 12);
      const sandbox = createSandbox({ speed });
      server.middlewares.use(connectMiddleware('/sandbox', (r) => sandbox.fetch(r)));
      server.httpServer?.once('listening', () => {
        setTimeout(() => server.config.logger.info(`  mediakit sandbox at /sandbox (clock x${speed}); demo pages in demo/`), 0);
      });
    },
  };
}

export default defineConfig({
  root: 'demo',
  server: { port: Number(process.env['PORT'] ?? 5173), host: '127.0.0.1', fs: { allow: ['..'] } },
  plugins: [sandboxPlugin()],
  build: { outDir: '../dist-demo', emptyOutDir: true },
});
