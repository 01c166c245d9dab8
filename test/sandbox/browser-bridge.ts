/**
 * The contract suite against the sandbox in a browser (issue 23): the browser build of the sandbox
 * (src/sandbox/browser) runs in a real Chromium page, and this object stands in for it in Node, so
 * the same test files (and their real HTTP through ./harness.ts) reach it. Each request crosses
 * into the page whole (bytes in base64) and the page's `sandbox.fetch` answers it.
 * Set MEDIAKIT_SANDBOX_PLATFORM=browser to run a test file this way (scripts/test.mjs does, for
 * the files in its BROWSER_CONTRACT list).
 */
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.mjs';
import type { SandboxOptions } from '../../src/sandbox/index.js';

const ENTRY = fileURLToPath(new URL('../../src/sandbox/browser/index.ts', import.meta.url));

/** `entry` bundled for a browser page as one ES module. */
export async function browserBundle(entry: string): Promise<string> {
  const r = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    // @gltf-transform/core's NodeIO imports node:fs lazily; the browser platform never makes one.
    external: ['node:*'],
  });
  return r.outputFiles[0]!.text;
}

let bundle: Promise<string> | undefined;
/** The browser sandbox as one ES module (built once per process). */
function sandboxBundle(): Promise<string> {
  bundle ??= browserBundle(ENTRY);
  return bundle;
}

export interface BrowserSandbox {
  fetch(request: Request): Promise<Response>;
  idle(): Promise<void>;
  close(): Promise<void>;
}

interface Wire {
  status: number;
  headers: [string, string][];
  body: string;
}

export async function startBrowserSandbox(options: SandboxOptions): Promise<BrowserSandbox> {
  const code = await sandboxBundle();
  const server: Server = createServer((req, res) => {
    if (req.url === '/sandbox.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(code);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>sandbox</title>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const browser: Browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  const page: Page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(origin + '/');
  // Functions (fetchImage) cannot cross into the page; the rest of the options are plain data.
  const { fetchImage: _ignored, ...plain } = options;
  await page.evaluate(
    async ({ url, opts }) => {
      const mod = await import(url);
      (globalThis as any).sandbox = mod.createBrowserSandbox(opts);
    },
    { url: origin + '/sandbox.js', opts: plain },
  );
  return {
    async fetch(request) {
      const body = request.body ? Buffer.from(await request.arrayBuffer()).toString('base64') : null;
      const wire: Wire = await page.evaluate(
        async ({ url, method, headers, body }) => {
          const bytes = body === null ? null : Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
          const response: Response = await (globalThis as any).sandbox.fetch(
            new Request(url, { method, headers, body: bytes }),
          );
          const out = new Uint8Array(await response.arrayBuffer());
          let binary = '';
          for (let i = 0; i < out.length; i += 0x8000) binary += String.fromCharCode(...out.subarray(i, i + 0x8000));
          return { status: response.status, headers: [...response.headers], body: btoa(binary) };
        },
        { url: request.url, method: request.method, headers: [...request.headers], body },
      );
      if (errors.length) throw new Error('the browser sandbox page failed: ' + errors.join('; '));
      const noBody = wire.status === 204 || wire.status === 304 || request.method === 'HEAD';
      return new Response(noBody ? null : Buffer.from(wire.body, 'base64'), {
        status: wire.status,
        headers: wire.headers,
      });
    },
    idle: () => page.evaluate(() => (globalThis as any).sandbox.idle()),
    async close() {
      await browser.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
