/**
 * The playground's Service Worker (src/playground/worker.ts) as `/playground-sw.js` of this
 * Storybook: built from source on the dev server's first request for it (again after a change
 * under src/), and written to the root of storybook-static by `build-storybook`. A Service Worker
 * serves only pages in its own folder or below, so it sits beside iframe.html, the preview that
 * registers it (preview.ts imports the playground; main.ts names the worker in the preview's head).
 *
 * The same build as `npm run build` (scripts/playground-worker.mjs). Nothing here needs
 * `npm run build` to have run.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { bundlePlaygroundWorker, WORKER_FILE } from '../scripts/playground-worker.mjs';

const src = fileURLToPath(new URL('../src/', import.meta.url));

export { WORKER_FILE };

export function playgroundWorker(): Plugin {
  let code: Promise<string> | undefined;
  let emitted = false;
  return {
    name: 'mediakit-playground-worker',
    configureServer(server) {
      // A change under src/ (the proxy, the sandbox, the worker) builds the worker again on the
      // browser's next update check (every navigation of the preview).
      server.watcher.on('all', (_event, file) => {
        if (file.startsWith(src)) code = undefined;
      });
      server.middlewares.use((req, res, next) => {
        if ((req.url ?? '').split('?')[0] !== `/${WORKER_FILE}`) return next();
        const built = (code ??= bundlePlaygroundWorker({ minify: false }));
        built.then(
          (js) => {
            res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' });
            res.end(js);
          },
          (err: unknown) => {
            if (code === built) code = undefined;
            next(err);
          },
        );
      });
    },
    async generateBundle() {
      if (emitted) return;
      emitted = true;
      this.emitFile({ type: 'asset', fileName: WORKER_FILE, source: await bundlePlaygroundWorker() });
    },
  };
}
