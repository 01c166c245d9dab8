/**
 * The playground's Service Worker (src/playground/worker.ts) as `/playground-sw.js` of this
 * Storybook: built from source on the dev server's first request for it (again after a change
 * under src/), and written to the root of storybook-static by `build-storybook`. A Service Worker
 * serves only pages in its own folder or below, so it sits beside iframe.html, the preview that
 * registers it (preview.ts imports the playground; main.ts names the worker in the preview's head).
 *
 * The same build as `node scripts/build.mjs --only=playground` (cdn/playground-sw.js): one classic
 * script, Node built-ins that never run in a browser made empty modules. Nothing here needs
 * `npm run build` to have run.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

export const WORKER_FILE = 'playground-sw.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = fileURLToPath(new URL('../src/', import.meta.url));
const entry = fileURLToPath(new URL('../src/playground/worker.ts', import.meta.url));

async function bundleWorker(minify: boolean): Promise<string> {
  const { build } = await import('vite');
  const out = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    plugins: [
      {
        name: 'mediakit-no-node-builtins',
        enforce: 'pre',
        resolveId: (id) => (id.startsWith('node:') ? '\0mediakit-empty' : null),
        load: (id) => (id === '\0mediakit-empty' ? 'export default {};' : null),
      },
    ],
    build: {
      write: false,
      target: 'es2022',
      minify,
      sourcemap: false,
      reportCompressedSize: false,
      lib: { entry, formats: ['iife'], name: 'mediakitPlaygroundWorker', fileName: () => WORKER_FILE },
    },
  });
  const outputs = (Array.isArray(out) ? out : [out]).flatMap((o) => ('output' in o ? o.output : []));
  const chunk = outputs.find((o) => o.type === 'chunk' && o.isEntry);
  if (!chunk || chunk.type !== 'chunk') throw new Error('storybook: the playground worker build made no script');
  return chunk.code;
}

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
        const built = (code ??= bundleWorker(false));
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
      this.emitFile({ type: 'asset', fileName: WORKER_FILE, source: await bundleWorker(true) });
    },
  };
}
