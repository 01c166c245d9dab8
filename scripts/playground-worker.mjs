// The playground's Service Worker (src/playground/worker.ts) as one classic script: a Service
// Worker may not import() modules. Used by `npm run build` (cdn/playground-sw.js and
// dist/playground/) and by Storybook (served in dev, written to storybook-static's root).
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The worker's file name wherever it is written. */
export const WORKER_FILE = 'playground-sw.js';

/**
 * Lazy imports of Node built-ins that never run in a browser (@gltf-transform/core's NodeIO, the
 * proxy's keep-alive agent on Node) become an empty module instead of a warning.
 */
export const noNodeBuiltins = {
  name: 'mediakit-no-node-builtins',
  enforce: 'pre',
  resolveId: (id) => (id.startsWith('node:') ? '\0mediakit-empty' : null),
  load: (id) => (id === '\0mediakit-empty' ? 'export default {};' : null),
};

/** The worker's code, bundled from source. */
export async function bundlePlaygroundWorker({ minify = true } = {}) {
  const { build } = await import('vite');
  const out = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    plugins: [noNodeBuiltins],
    build: {
      write: false,
      target: 'es2022',
      minify,
      sourcemap: false,
      reportCompressedSize: false,
      lib: {
        entry: `${root}src/playground/worker.ts`,
        formats: ['iife'],
        name: 'mediakitPlaygroundWorker',
        fileName: () => WORKER_FILE,
      },
    },
  });
  const chunk = (Array.isArray(out) ? out : [out])
    .flatMap((o) => ('output' in o ? o.output : []))
    .find((o) => o.type === 'chunk' && o.isEntry);
  if (!chunk) throw new Error('the playground worker build made no script');
  return chunk.code;
}
