// `npm test`: node tests (api, proxy, sandbox) with node's test runner, then browser tests
// (client, jobs, components, viewers, browser) in real Chromium with @web/test-runner, then one
// summary line. `--node` or `--browser` runs one half; other arguments filter test files by path.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensureChromium } from './chromium.mjs';
import { ensureRedis } from './system.mjs';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const only = args.find((a) => a === '--node' || a === '--browser');
const filters = args.filter((a) => !a.startsWith('--'));

const NODE_DIRS = ['test/api', 'test/lint', 'test/proxy', 'test/sandbox', 'test/ssr', 'test/playground'];
const BROWSER_DIRS = ['test/client', 'test/jobs', 'test/components', 'test/viewers', 'test/browser'];

function collect(dirs) {
  const out = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of entries) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.test.ts')) out.push(relative(root, p));
    }
  };
  for (const d of dirs) walk(join(root, d));
  return out.filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
}

function run(cmd, argv, env = {}) {
  return new Promise((resolve) => {
    let text = '';
    const child = spawn(cmd, argv, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const s of [child.stdout, child.stderr]) {
      s.on('data', (c) => {
        text += c;
        (s === child.stdout ? process.stdout : process.stderr).write(c);
      });
    }
    child.on('close', (code) => resolve({ code: code ?? 1, text }));
  });
}

const totals = { passed: 0, failed: 0, skipped: 0 };
let failedRun = false;

/** Runs test files with node's test runner and adds their counts to the totals. */
async function nodeTests(files, env, concurrency) {
  const r = await run(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, ...files],
    env,
  );
  const num = (label) => Number(new RegExp(`ℹ ${label} (\\d+)`).exec(r.text)?.[1] ?? 0);
  totals.passed += num('pass');
  totals.failed += num('fail') + num('cancelled');
  totals.skipped += num('skipped') + num('todo');
  if (r.code !== 0) failedRun = true;
}

if (only !== '--browser') {
  const files = collect(NODE_DIRS);
  if (files.length) {
    // The multi-instance proxy tests run two proxies on a real Redis: $REDIS_URL (CI starts one) or a private redis-server.
    const env = files.some((f) => f.includes('redis')) && !process.env.REDIS_URL ? { REDIS_SERVER: ensureRedis() } : {};
    // The playground's layout and worker tests drive Chromium from Node (playwright-core).
    if (files.some((f) => f.startsWith('test/playground/') && !f.endsWith('opt-in.test.ts')))
      env.CHROME_PATH = ensureChromium();
    console.log(`\n[mediakit] node tests: ${files.length} files`);
    await nodeTests(files, env, 2);
  }
}

// The contract suite again, against the sandbox's browser build in Chromium (issue 23: one sandbox,
// two platforms; test/sandbox/browser-bridge.ts). Node-only files (the CLI, the dev stack, temp-file
// spooling and the process's memory) are not in the list.
const BROWSER_CONTRACT = [
  'test/sandbox/headshot.test.ts',
  'test/sandbox/image-tool.test.ts',
  'test/sandbox/model.test.ts',
  'test/sandbox/rules.test.ts',
  'test/sandbox/security.test.ts',
  'test/sandbox/fuzz.test.ts',
  'test/sandbox/video.test.ts',
];

if (only !== '--browser') {
  const files = BROWSER_CONTRACT.filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
  if (files.length) {
    const chrome = ensureChromium();
    console.log(`\n[mediakit] contract tests on the browser sandbox: ${files.length} files in ${chrome}`);
    await nodeTests(files, { MEDIAKIT_SANDBOX_PLATFORM: 'browser', CHROME_PATH: chrome }, 1);
  }
}

if (only !== '--node') {
  const files = collect(BROWSER_DIRS);
  if (files.length) {
    const chrome = ensureChromium();
    console.log(`\n[mediakit] browser tests: ${files.length} files in ${chrome}`);
    const bin = join(root, 'node_modules/@web/test-runner/dist/bin.js');
    const r = await run(
      process.execPath,
      ['--import', 'tsx', bin, '--config', 'web-test-runner.config.mjs', ...files],
      { CHROME_PATH: chrome },
    );
    const m = [...r.text.matchAll(/(\d+) passed, (\d+) failed(?:, (\d+) skipped)?/g)].at(-1);
    if (m) {
      totals.passed += Number(m[1]);
      totals.failed += Number(m[2]);
      totals.skipped += Number(m[3] ?? 0);
    }
    if (r.code !== 0 || !m) failedRun = true;
  }
}

const failed = failedRun && totals.failed === 0 ? 1 : totals.failed;
console.log(`\ntotal: ${totals.passed} passed, ${failed} failed, ${totals.skipped} skipped`);
process.exit(failedRun ? 1 : 0);
