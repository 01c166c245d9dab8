// `prepack` (npm pack, npm publish): the package ships dist/ and cdn/, which git does not hold, so
// a pack from a clean checkout would be an empty package. This builds first unless dist/ and cdn/
// hold everything package.json promises (scripts/package-files.mjs) and are newer than every
// input of the build; without the dev dependencies it cannot build and refuses, saying why.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingFiles, packageJson } from './package-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const INPUTS = [
  'src',
  'package.json',
  'custom-elements.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build.mjs',
  'scripts/playground-worker.mjs',
];

const walk = (dir) =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
      )
    : [];
const filesOf = (path) => (existsSync(path) && statSync(path).isDirectory() ? walk(path) : [path]);

/** Why the build on disk cannot be packed as it is, or undefined when it can. */
function staleBecause() {
  const built = [...walk(join(root, 'dist')), ...walk(join(root, 'cdn'))];
  if (!built.length) return 'there is no build (dist/ and cdn/)';
  const rel = [...built.map((f) => relative(root, f).replaceAll('\\', '/')), 'package.json', 'LICENSE'];
  const { missing } = missingFiles(packageJson(root), rel, (f) => readFileSync(join(root, f), 'utf8'));
  if (missing.length) return `the build lacks ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}`;
  const oldestOutput = Math.min(...built.map((f) => statSync(f).mtimeMs));
  const newer = INPUTS.flatMap((p) => filesOf(join(root, p))).find(
    (f) => existsSync(f) && statSync(f).mtimeMs > oldestOutput,
  );
  if (newer) return `${relative(root, newer)} changed after the last build`;
  return undefined;
}

const why = staleBecause();
if (!why) {
  console.error('prepack: dist/ and cdn/ hold the current build (newer than src/): packing them.');
  process.exit(0);
}
if (!existsSync(join(root, 'node_modules/.bin/tsc')) || !existsSync(join(root, 'node_modules/vite'))) {
  console.error(
    `prepack: cannot pack @mediakit/elements: ${why}, and building it needs the dev dependencies.\n` +
      '         Run `npm install`, then `npm pack` again (it builds first).',
  );
  process.exit(1);
}
console.error(`prepack: ${why}: building (npm run build) before packing…`);
// The build's log goes to stderr: npm pack prints the tarball's name on stdout, and scripts read it there.
const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: ['ignore', 2, 2] });
if (r.status !== 0) {
  console.error('prepack: the build failed (above), so nothing is packed.');
  process.exit(r.status ?? 1);
}
const after = staleBecause();
if (after) {
  console.error(`prepack: after the build, ${after}: nothing is packed.`);
  process.exit(1);
}
