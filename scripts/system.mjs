// System programs the tests need (Chromium, redis-server): found on the machine, or installed
// from Debian's packages when we are root with apt, or else the exact command to run is printed.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * `find()` returns a path or undefined. When missing and we are root with apt, installs
 * `aptPackage`; otherwise prints `why`, the install command and `alternative`, and exits 1.
 */
export function ensureProgram({ find, aptPackage, why, alternative = '' }) {
  const found = find();
  if (found) return found;
  const command = `apt-get update && apt-get install -y --no-install-recommends ${aptPackage}`;
  if (isRoot() && existsSync('/usr/bin/apt-get')) {
    console.log(`[mediakit] ${why}: installing Debian's ${aptPackage} (${command})…`);
    const r = spawnSync('sh', ['-c', command], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    const after = find();
    if (r.status === 0 && after) return after;
  }
  console.error(
    `[mediakit] ${why}, and none was found.\n  Install it with:   sudo ${command}${alternative ? `\n  ${alternative}` : ''}`,
  );
  process.exit(1);
}

const REDIS_CANDIDATES = ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/opt/homebrew/bin/redis-server'];

export function findRedis() {
  if (process.env.REDIS_SERVER) return existsSync(process.env.REDIS_SERVER) ? process.env.REDIS_SERVER : undefined;
  return REDIS_CANDIDATES.find((p) => existsSync(p));
}

export function ensureRedis() {
  return ensureProgram({
    find: findRedis,
    aptPackage: 'redis-server',
    why: 'The multi-instance proxy tests need a real redis-server',
    alternative: 'or point to one:   REDIS_SERVER=/path/to/redis-server npm test',
  });
}
