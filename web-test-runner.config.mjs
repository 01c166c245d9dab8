// Browser tests in Debian's Chromium through playwright-core (no browser download), TypeScript
// through esbuild with our tsconfig (Lit decorators need it), and the sandbox mounted in the test
// server itself at /sandbox, so tests talk real HTTP to it. Run through scripts/test.mjs, which
// registers tsx so this file can import the TypeScript sandbox.
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { CHROMIUM_ARGS, findChromium } from './scripts/chromium.mjs';
import { createSandbox } from './src/sandbox/index.ts';
import { connectMiddleware } from './src/sandbox/node-server.ts';

const sandbox = createSandbox({ speed: 60, artifacts: { turntableFrames: 12, turntableSize: 128 } });

/** Koa middleware around the connect one: the sandbox answers /sandbox/*, the test server the rest. */
function mount(prefix, handler) {
  const middleware = connectMiddleware(prefix, handler);
  return (ctx, next) =>
    new Promise((resolve, reject) => {
      const path = ctx.path;
      if (path !== prefix && !path.startsWith(prefix + '/')) return resolve(next());
      ctx.respond = false;
      ctx.res.once('finish', resolve);
      ctx.res.once('close', resolve);
      middleware(ctx.req, ctx.res, () => reject(new Error('unreachable')));
    });
}

export default {
  nodeResolve: { exportConditions: ['browser', 'development'] },
  concurrency: 2,
  testsFinishTimeout: 180_000,
  testFramework: { config: { timeout: 20_000 } },
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath: process.env.CHROME_PATH ?? findChromium(), args: CHROMIUM_ARGS },
    }),
  ],
  middleware: [mount('/sandbox', (r) => sandbox.fetch(r))],
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) })],
};
