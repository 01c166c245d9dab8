// Finds a Chromium for the browser tests: $CHROME_PATH, then Debian's /usr/bin/chromium. When there
// is none, system.mjs installs Debian's (never a Playwright download: those fail on machines
// without internet) or says exactly what to run.
import { existsSync } from 'node:fs';
import { ensureProgram } from './system.mjs';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

export function findChromium() {
  if (process.env.CHROME_PATH) {
    if (existsSync(process.env.CHROME_PATH)) return process.env.CHROME_PATH;
    throw new Error(`CHROME_PATH is set to ${process.env.CHROME_PATH}, which does not exist.`);
  }
  return CANDIDATES.find((p) => existsSync(p));
}

export function ensureChromium() {
  return ensureProgram({
    find: findChromium,
    aptPackage: 'chromium',
    why: 'The browser tests need Chromium',
    alternative: 'or point to one:   CHROME_PATH=/path/to/chrome npm test',
  });
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
