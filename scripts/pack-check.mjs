// CI: `npm pack` on a fresh clone, with no build before it, as a publish from a clean checkout
// would run. The clone (of HEAD, sharing this repository's objects) first packs without
// node_modules and must refuse with prepack's message (never an empty package); then, with this
// checkout's node_modules linked in (no second install), `npm pack` must build through prepack and
// the tarball must hold everything package.json's exports promise, the CDN folder with every chunk
// its files import, and the playground's files (scripts/package-files.mjs).
//   node scripts/pack-check.mjs
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingFiles, packageJson } from './package-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'mk-pack-'));
const clone = join(work, 'clone');
const t0 = performance.now();
const seconds = () => ((performance.now() - t0) / 1000).toFixed(0);
const fail = (message) => {
  console.error(`pack-check: FAIL ${message}`);
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
};

try {
  execFileSync('git', ['clone', '--quiet', '--shared', root, clone], { stdio: 'inherit' });
  if (existsSync(join(clone, 'dist')) || existsSync(join(clone, 'cdn')))
    fail('a fresh clone already holds dist/ or cdn/');

  // 1. No dependencies installed: prepack cannot build and must say so, and nothing is packed.
  const refused = spawnSync('npm', ['pack', '--pack-destination', work], { cwd: clone, encoding: 'utf8' });
  const said = `${refused.stdout}\n${refused.stderr}`;
  if (refused.status === 0) fail(`npm pack without node_modules packed anyway:\n${said}`);
  if (!said.includes('Run `npm install`, then `npm pack` again'))
    fail(`npm pack refused without prepack's message:\n${said}`);
  console.log('pack-check: ok   without node_modules, npm pack refuses: "Run `npm install`, then `npm pack` again"');

  // 2. With the dependencies: npm pack builds first, and the tarball holds the package.
  symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
  const packed = spawnSync('npm', ['pack', '--pack-destination', work], { cwd: clone, encoding: 'utf8' });
  if (packed.status !== 0) fail(`npm pack on a fresh clone failed:\n${packed.stdout}\n${packed.stderr}`);
  const name = packed.stdout.trim().split('\n').pop();
  const tarball = join(work, name);
  if (!name || !existsSync(tarball)) fail(`npm pack printed no tarball name:\n${packed.stdout}`);
  const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\n')
    .filter((f) => f && !f.endsWith('/'))
    .map((f) => f.replace(/^package\//, ''));
  const read = (file) =>
    execFileSync('tar', ['-xOzf', tarball, `package/${file}`], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const { missing, cdnModules } = missingFiles(packageJson(clone), files, read);
  if (missing.length) fail(`the fresh clone's tarball (${files.length} files) lacks:\n  ${missing.join('\n  ')}`);
  const src = files.filter((f) => f.startsWith('src/') || f.endsWith('.map'));
  if (src.length) fail(`the tarball holds source or source maps: ${src.slice(0, 5).join(', ')}`);
  console.log(
    `pack-check: ok   a fresh clone's npm pack built and packed ${files.length} files ` +
      `(${(statSync(tarball).size / 1024).toFixed(0)} KiB): every exports target, ${cdnModules} CDN modules ` +
      `and what they import, the playground's files (${seconds()} s)`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
