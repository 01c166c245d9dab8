// `npm run build`: the package as it ships.
//   dist/   tsc's ES modules and .d.ts, one per source file (bundlers tree-shake them; no source
//           maps: see tsconfig.build.json), API-REFERENCE.md, custom-elements.json with dist paths.
//   cdn/    one ES module that defines every tag (cdn/mediakit-elements.js) with lit, the client
//           and the elements inside, and three.js and the splat library in lazy chunks beside it;
//           three's Draco and KTX2 decoders in cdn/decoders (fetched only for such a model).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minifyCssLiterals } from './minify-css.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
const step = (name) => !only || only.split(',').includes(name);
const time = (label, fn) => {
  const t0 = performance.now();
  return Promise.resolve(fn()).then((r) => {
    console.log(`build: ${label} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    return r;
  });
};

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status})`);
}

if (step('tsc')) {
  await time('tsc -> dist', () => {
    rmSync(join(root, 'dist'), { recursive: true, force: true });
    run(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json']);
    minifyStyles(join(root, 'dist'));
  });
}

/** The CSS in every style module under `dir` made smaller (scripts/minify-css.mjs). */
function minifyStyles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) minifyStyles(path);
    else if (entry.name.endsWith('.js')) {
      const source = readFileSync(path, 'utf8');
      if (/\bcss\s*`/.test(source)) writeFileSync(path, minifyCssLiterals(source));
    }
  }
}

if (step('files')) {
  await time('API reference, manifest', async () => {
    mkdirSync(join(root, 'dist/api'), { recursive: true });
    copyFileSync(join(root, 'src/api/API-REFERENCE.md'), join(root, 'dist/api/API-REFERENCE.md'));
    const manifest = distManifest();
    writeFileSync(join(root, 'dist/custom-elements.json'), JSON.stringify(manifest, null, 2) + '\n');
    writeEditorData(manifest);
  });
}

if (step('cdn')) await time('cdn/mediakit-elements.js', buildCdn);
if (step('playground')) await time('playground: cdn/playground.js and the worker', buildPlayground);

/**
 * custom-elements.json is generated from src (Storybook and the staleness check read it there);
 * the package's copy names the files it ships: src/x.ts becomes dist/x.js, with .d.ts beside it.
 */
export function distManifest() {
  const manifest = JSON.parse(readFileSync(join(root, 'custom-elements.json'), 'utf8'));
  const walk = (value) => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        (k === 'path' || k === 'module') && typeof v === 'string'
          ? v.replace(/^\/?src\/(.*)\.ts$/, 'dist/$1.js')
          : walk(v),
      ]),
    );
  };
  return walk(manifest);
}

/**
 * Editor data from the manifest: VS Code's HTML custom data (settings: "html.customData") and
 * JetBrains web-types (package.json "web-types"), so the tags and their attributes complete in
 * plain HTML files too.
 */
function writeEditorData(manifest) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const elements = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.tagName);
  const text = (d) => d.description || d.summary || '';
  const vscode = {
    version: 1.1,
    tags: elements.map((d) => ({
      name: d.tagName,
      description: text(d),
      attributes: (d.attributes ?? []).map((a) => ({ name: a.name, description: text(a) })),
    })),
  };
  const webTypes = {
    $schema: 'https://json.schemastore.org/web-types',
    name: '@mediakit/elements',
    version,
    'description-markup': 'markdown',
    contributions: {
      html: {
        elements: elements.map((d) => ({
          name: d.tagName,
          description: text(d),
          attributes: (d.attributes ?? []).map((a) => ({
            name: a.name,
            description: text(a),
            value: { type: a.type?.text ?? 'string' },
          })),
          events: (d.events ?? []).filter((e) => e.name).map((e) => ({ name: e.name, description: text(e) })),
        })),
      },
    },
  };
  writeFileSync(join(root, 'dist/vscode.html-custom-data.json'), JSON.stringify(vscode, null, 2) + '\n');
  writeFileSync(join(root, 'dist/web-types.json'), JSON.stringify(webTypes, null, 2) + '\n');
}

async function buildCdn() {
  const { build } = await import('vite');
  rmSync(join(root, 'cdn'), { recursive: true, force: true });
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    plugins: [cdnDecoderUrls()],
    build: {
      outDir: 'cdn',
      emptyOutDir: true,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      reportCompressedSize: false,
      lib: { entry: join(root, 'dist/cdn.js'), formats: ['es'], fileName: () => 'mediakit-elements.js' },
      rolldownOptions: {
        output: { chunkFileNames: 'chunks/[name]-[hash].js' },
        // define.js imports the viewers, which the uploader and the generator also import lazily:
        // in one bundle they are simply part of the main file (their renderers stay lazy).
        onwarn(warning, warn) {
          if (warning.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') warn(warning);
        },
      },
    },
  });
  copyCdnDecoders();
}

/**
 * The playground (issue 23), opt-in and apart from the elements: `playground-sw.js`, the Service
 * Worker with the proxy and the browser sandbox, one classic script (a Service Worker may not
 * import() modules) written beside both page entries, `dist/playground/index.js` (tsc's, for
 * bundlers) and `cdn/playground.js` (for pages using the CDN build).
 */
async function buildPlayground() {
  const { build } = await import('vite');
  const { bundlePlaygroundWorker, noNodeBuiltins, WORKER_FILE } = await import('./playground-worker.mjs');
  const worker = await bundlePlaygroundWorker();
  mkdirSync(join(root, 'cdn'), { recursive: true });
  mkdirSync(join(root, 'dist/playground'), { recursive: true });
  writeFileSync(join(root, 'cdn', WORKER_FILE), worker);
  writeFileSync(join(root, 'dist/playground', WORKER_FILE), worker);
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    plugins: [noNodeBuiltins],
    build: {
      outDir: 'cdn',
      emptyOutDir: false,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      reportCompressedSize: false,
      lib: { entry: join(root, 'src/playground/index.ts'), formats: ['es'], fileName: () => 'playground.js' },
      rolldownOptions: { output: { chunkFileNames: 'chunks/playground-[name]-[hash].js' } },
    },
  });
}

/**
 * three's DRACOLoader and KTX2Loader name their default decoders with `new URL('../libs/…',
 * import.meta.url)`. In a site's own build the bundler copies them beside its chunks, and
 * <glb-viewer> fetches them only for a Draco or KTX2 file. Vite's library mode would inline them
 * (1.9 MB as base64 in the loaders' chunks), so the CDN build points them at `cdn/decoders/`
 * (the WebAssembly decoders, copied there after the build; the asm.js fallback for browsers without
 * WebAssembly is left out), relative to the chunk, in a form the bundler does not follow.
 */
function cdnDecoderUrls() {
  return {
    name: 'mediakit-cdn-decoder-urls',
    enforce: 'pre',
    transform(code, id) {
      if (!/three\/examples\/jsm\/loaders\/(DRACOLoader|KTX2Loader)\.js$/.test(id)) return null;
      const out = code.replace(
        /new URL\(\s*'\.\.\/libs\/([^']+)',\s*import\.meta\.url\s*\)/g,
        (_, file) => `new URL(String('../decoders/${file}'), import.meta.url)`,
      );
      return { code: out, map: null };
    },
  };
}

function copyCdnDecoders() {
  const libs = join(root, 'node_modules/three/examples/jsm/libs');
  for (const file of [
    'draco/draco_wasm_wrapper.js',
    'draco/draco_decoder.wasm',
    'basis/basis_transcoder.js',
    'basis/basis_transcoder.wasm',
  ]) {
    mkdirSync(dirname(join(root, 'cdn/decoders', file)), { recursive: true });
    copyFileSync(join(libs, file), join(root, 'cdn/decoders', file));
  }
}
