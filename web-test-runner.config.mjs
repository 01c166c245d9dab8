// Browser tests in Debian's Chromium through playwright-core (no browser download), TypeScript
// through esbuild with our tsconfig (Lit decorators need it), and the sandbox mounted in the test
// server itself (the proxy at /mediakit, the sandbox at /sandbox: the same stack as `npm start`),
// so tests talk real HTTP to both. Run through scripts/test.mjs, which registers tsx so this file
// can import the TypeScript stack.
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { CHROMIUM_ARGS, findChromium } from './scripts/chromium.mjs';
import { createDevStack } from './src/dev/index.ts';

const stack = createDevStack({ sandbox: { speed: 60, artifacts: { turntableFrames: 12, turntableSize: 128 } }, budget: 10_000 });

/** Koa middleware around the connect one: the stack answers /mediakit/* and /sandbox/*, the test server the rest. */
function mount(middleware) {
  return (ctx, next) =>
    new Promise((resolve, reject) => {
      const path = ctx.path;
      if (!['/mediakit', '/sandbox'].some((p) => path === p || path.startsWith(p + '/'))) return resolve(next());
      ctx.respond = false;
      ctx.res.once('finish', resolve);
      ctx.res.once('close', resolve);
      middleware(ctx.req, ctx.res, (err) => reject(err ?? new Error('unreachable')));
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
  middleware: [mount(stack.middleware)],
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) })],
};
