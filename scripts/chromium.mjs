// Finds a Chromium for the browser tests: $CHROME_PATH, then Debian's /usr/bin/chromium. When there
// is none and we are root with apt, installs Debian's chromium (never a Playwright download: those
// fail on machines without internet). Otherwise says exactly what to run.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

export function findChromium() {
  if (process.env.CHROME_PATH) {
    if (existsSync(process.env.CHROME_PATH)) return process.env.CHROME_PATH;
    throw new Error(`CHROME_PATH is set to ${process.env.CHROME_PATH}, which does not exist.`);
  }
  return CANDIDATES.find((p) => existsSync(p));
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  const command = 'apt-get update && apt-get install -y --no-install-recommends chromium';
  if (isRoot && hasApt) {
    console.log(`[mediakit] No Chromium found for the browser tests: installing Debian's (${command})…`);
    const r = spawnSync('sh', ['-c', command], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    const after = findChromium();
    if (r.status === 0 && after) return after;
  }
  console.error(
    `[mediakit] The browser tests need Chromium and none was found.\n` +
      `  Install it with:   sudo ${command}\n` +
      `  or point to one:   CHROME_PATH=/path/to/chrome npm test`,
  );
  process.exit(1);
}

/** Flags that work headless as root here (shared/notes/ENVIRONMENT.md), SwiftShader WebGL included. */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
