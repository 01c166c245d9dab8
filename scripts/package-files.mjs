// What the published package must hold, read from package.json and the build itself, for
// `npm pack` (scripts/prepack.mjs: is the build there and current?) and CI (scripts/pack-check.mjs:
// does a fresh clone's tarball hold it?).
//   - every target of the `exports` map (a `*` pattern needs at least one file), `main`, `types`,
//     `bin`, `customElements` and `web-types`;
//   - the CDN folder: cdn/mediakit-elements.js, three's decoders beside it, and every chunk a CDN
//     file imports (followed from the entry files, so a chunk left out is found);
//   - the playground: cdn/playground.js and its worker, dist/playground/ and its worker.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CDN_FILES = [
  'cdn/mediakit-elements.js',
  'cdn/decoders/draco/draco_wasm_wrapper.js',
  'cdn/decoders/draco/draco_decoder.wasm',
  'cdn/decoders/basis/basis_transcoder.js',
  'cdn/decoders/basis/basis_transcoder.wasm',
];
export const PLAYGROUND_FILES = [
  'cdn/playground.js',
  'cdn/playground-sw.js',
  'dist/playground/index.js',
  'dist/playground/index.d.ts',
  'dist/playground/playground-sw.js',
];

const strip = (p) => p.replace(/^\.\//, '');

/** Every file (or `*` pattern) package.json promises, with where it is promised. */
export function promisedFiles(pkg) {
  const out = [];
  const add = (target, from) => typeof target === 'string' && out.push({ path: strip(target), from });
  const walk = (value, from) => {
    if (typeof value === 'string') add(value, from);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${from} ${k}`);
  };
  for (const [key, value] of Object.entries(pkg.exports ?? {})) walk(value, `exports["${key}"]`);
  add(pkg.main, 'main');
  add(pkg.types, 'types');
  for (const [name, target] of Object.entries(pkg.bin ?? {})) add(target, `bin ${name}`);
  add(pkg.customElements, 'customElements');
  add(pkg['web-types'], 'web-types');
  return out;
}

const pattern = (p) =>
  new RegExp(
    '^' +
      p
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^]+') +
      '$',
  );

/** The relative module imports of a built ES module (`import "./chunks/x.js"`, `import("./x.js")`, `from"./x.js"`). */
function relativeImports(code) {
  const found = new Set();
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.{1,2}\/[^"']+?\.js)\1/g)) found.add(m[2]);
  return [...found];
}

/**
 * What is missing from `files` (paths relative to the package root, as a tarball lists them
 * without its `package/` prefix). `read(path)` gives a packed file's text, to follow the CDN's
 * imports. An empty list: the package holds everything promised.
 */
export function missingFiles(pkg, files, read) {
  const have = new Set(files);
  const missing = [];
  for (const { path, from } of promisedFiles(pkg)) {
    const ok = path.includes('*') ? files.some((f) => pattern(path).test(f)) : have.has(path);
    if (!ok) missing.push(`${path} (${from})`);
  }
  for (const path of [...CDN_FILES, ...PLAYGROUND_FILES]) if (!have.has(path)) missing.push(path);
  // Follow the CDN's imports from its entry files, so every chunk they load is in the package.
  const seen = new Set();
  const queue = ['cdn/mediakit-elements.js', 'cdn/playground.js'].filter((f) => have.has(f));
  while (queue.length) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of relativeImports(read(file))) {
      const target = join(file, '..', spec).replaceAll('\\', '/');
      if (!have.has(target)) missing.push(`${target} (imported by ${file})`);
      else queue.push(target);
    }
  }
  return { missing, cdnModules: seen.size };
}

/** package.json of the folder. */
export const packageJson = (root) => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
