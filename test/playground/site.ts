/**
 * The playground's files as the CDN folder ships them (`playground.js` with its chunks,
 * `playground-sw.js`, `mediakit-elements.js`), bundled here from source with esbuild so the tests
 * run on a fresh clone with no build; plain static file servers to lay them out as sites do; and
 * Chromium through playwright-core.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Node built-ins reached only by code that never runs in a browser become an empty module (as the build's noNodeBuiltins). */
const noNodeBuiltins: Plugin = {
  name: 'no-node-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (a) => ({ path: a.path, namespace: 'empty' }));
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export default {};' }));
  },
};

/** Writes the CDN folder's playground and elements into a new temporary folder; answers its path. */
export async function buildCdnFolder(): Promise<{ dir: string; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'mediakit-playground-'));
  const common: BuildOptions = {
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    outdir: dir,
    plugins: [noNodeBuiltins],
    logLevel: 'warning',
    tsconfig: root + 'tsconfig.json',
  };
  await Promise.all([
    build({
      ...common,
      entryPoints: { playground: root + 'src/playground/index.ts', 'mediakit-elements': root + 'src/cdn.ts' },
      splitting: true,
      format: 'esm',
      chunkNames: 'chunks/[name]-[hash]',
    }),
    // A Service Worker may not import() modules: one classic script, as scripts/playground-worker.mjs makes it.
    build({ ...common, entryPoints: { 'playground-sw': root + 'src/playground/worker.ts' }, format: 'iife' }),
  ]);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

export interface Site {
  readonly url: string;
  close(): Promise<void>;
}

export type Route = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * A plain static file server, as a site has: `mounts` maps a path prefix to a folder, `pages` a
 * path to HTML, `routes` answer first (a site's own endpoints). Anything else is 404, and any
 * method but GET and HEAD is 501 (as `python3 -m http.server` answers). `cors` adds
 * `Access-Control-Allow-Origin: *`, as a CDN sends.
 */
export function staticSite(options: {
  mounts?: Record<string, string>;
  pages?: Record<string, string>;
  routes?: Route[];
  cors?: boolean;
}): Promise<Site> {
  const server = createServer((req, res) => {
    for (const route of options.routes ?? []) if (route(req, res)) return;
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(501).end('Unsupported method');
    const headers: Record<string, string> = options.cors ? { 'access-control-allow-origin': '*' } : {};
    if (path === '/favicon.ico') return void res.writeHead(204, headers).end();
    const page = options.pages?.[path];
    if (page !== undefined) return void res.writeHead(200, { ...headers, 'content-type': 'text/html' }).end(page);
    for (const [prefix, dir] of Object.entries(options.mounts ?? {})) {
      if (!path.startsWith(prefix)) continue;
      const file = resolve(dir, '.' + path.slice(prefix.length - 1));
      if (!file.startsWith(resolve(dir))) break;
      try {
        if (!statSync(file).isFile()) break;
      } catch {
        break;
      }
      res.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      return void res.end(req.method === 'HEAD' ? undefined : readFileSync(file));
    }
    res.writeHead(404, headers).end('not found');
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () =>
      ok({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        close: () => {
          server.closeAllConnections();
          return new Promise<void>((c) => server.close(() => c()));
        },
      }),
    ),
  );
}

export function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium (scripts/chromium.mjs: apt-get install -y chromium)');
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}
