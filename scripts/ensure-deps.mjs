// Installs dependencies when node_modules is missing or older than the lockfile, so `npm start`
// and `npm test` work on a fresh clone. `npm install` (not `npm ci`): npm 11.19's ci fails on
// lockfiles it wrote itself (npm/cli#4828 family); install with the lockfile gives the same tree.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mtime = (p) => {
  try {
    return statSync(join(root, p)).mtimeMs;
  } catch {
    return 0;
  }
};

const installed = mtime('node_modules/.package-lock.json');
if (installed === 0 || installed < mtime('package-lock.json') || installed < mtime('package.json')) {
  console.log(
    installed === 0
      ? '[mediakit] node_modules is missing: running npm install…'
      : '[mediakit] package-lock.json changed: running npm install…',
  );
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('[mediakit] npm install failed. Fix the error above, then run `npm install` yourself.');
    process.exit(r.status ?? 1);
  }
}
