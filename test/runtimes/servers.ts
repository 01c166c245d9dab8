/**
 * The proxy in each runtime's own binary, from the recipes in ./apps, in a site folder that holds
 * the package (./package.ts): Deno and Bun import it by name, Workers and the edge runtime get it
 * bundled by esbuild as their build tools do (wrangler: ESM, the `workerd`/`worker`/`browser`
 * conditions, `node:*` left to nodejs_compat).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { root } from './package.js';

export interface SiteEnv {
  MEDIA_API_URL: string;
  MEDIA_KEYS: string;
  MEDIAKIT_SECRET: string;
  RESULTS_DIR?: string;
  KV_PATH?: string;
  R2_ENDPOINT?: string;
  R2_BUCKET?: string;
  R2_ACCESS_KEY_ID?: string;
  R2_SECRET_ACCESS_KEY?: string;
}

export interface Running {
  url: string;
  /** What the runtime printed (the proxy's log), for a failure's message. */
  output(): string;
  close(): Promise<void>;
}

export type RuntimeName = 'workerd' | 'deno' | 'bun' | 'edge-runtime';

const bin = (name: string) => join(root, 'node_modules/.bin', name);

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

/** Waits until `url` answers HTTP at all (any status). */
async function reachable(url: string, child: ChildProcess | undefined, output: () => string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child && child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${output()}`);
    try {
      await (await fetch(url)).arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} never answered:\n${output()}`);
}

async function spawnServer(
  cmd: string,
  args: (port: number) => string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Running> {
  const port = await freePort();
  let output = '';
  const child = spawn(cmd, args(port), {
    cwd,
    env: { ...process.env, ...env, PORT: String(port), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const url = `http://127.0.0.1:${port}`;
  await reachable(url, child, () => output);
  return {
    url,
    output: () => output,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function bundle(site: string, entry: string, out: string, options: Parameters<typeof build>[0] = {}) {
  await build({
    entryPoints: [join(site, entry)],
    outfile: join(site, out),
    absWorkingDir: site,
    bundle: true,
    target: 'es2022',
    logLevel: 'error',
    ...options,
  });
  return join(site, out);
}

export async function start(runtime: RuntimeName, site: string, env: SiteEnv): Promise<Running> {
  const vars = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>;
  if (runtime === 'deno')
    return spawnServer(
      bin('deno'),
      () => ['run', '--unstable-kv', '--allow-net', '--allow-env', '--allow-read', '--allow-write', 'apps/deno.js'],
      site,
      vars,
    );
  if (runtime === 'bun') return spawnServer(bin('bun'), () => ['apps/bun.js'], site, vars);
  if (runtime === 'edge-runtime') {
    const script = await bundle(site, 'apps/edge.js', 'edge.bundle.js', {
      format: 'iife',
      platform: 'browser',
      conditions: ['edge-light', 'worker', 'browser'],
      // Reached only inside fileResultStore and the Node adapter, which an edge function never calls.
      external: ['node:*'],
      define: { 'process.env': JSON.stringify(vars) },
    });
    return spawnServer(bin('edge-runtime'), (port) => ['--listen', script, '--port', String(port)], site, {});
  }
  const script = await bundle(site, 'apps/worker.js', 'worker.bundle.js', {
    format: 'esm',
    // 'browser': package.json browser maps apply (the AWS SDK picks its fetch-based runtime config by one).
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    // Node's modules, with or without the node: prefix, are workerd's under nodejs_compat (as wrangler leaves them).
    external: ['node:*', ...builtinModules],
    // The site's own dependency (the AWS SDK for R2), from this project's node_modules.
    nodePaths: [join(root, 'node_modules')],
  });
  const { Miniflare } = await import('miniflare');
  const port = await freePort();
  const mf = new Miniflare({
    modules: true,
    scriptPath: script,
    modulesRoot: site,
    compatibilityDate: '2026-05-01',
    compatibilityFlags: ['nodejs_compat'],
    bindings: vars,
    durableObjects: { MEDIAKIT_STORE: 'ProxyStoreObject' },
    host: '127.0.0.1',
    port,
  });
  const url = (await mf.ready).origin;
  return { url, output: () => '(printed to the test output)', close: () => mf.dispose() };
}

/** A store made in its runtime (./stores), its methods answered over HTTP. */
export async function startStore(kind: 'durable-object' | 'deno-kv', site: string): Promise<Running> {
  if (kind === 'deno-kv')
    return spawnServer(
      bin('deno'),
      () => [
        'run',
        '--unstable-kv',
        '--allow-net',
        '--allow-env',
        '--allow-read',
        '--allow-write',
        'stores/deno-kv-server.js',
      ],
      site,
      { KV_PATH: join(site, `kv-${Date.now()}.sqlite`) },
    );
  const script = await bundle(site, 'stores/do-worker.js', 'do-worker.bundle.js', {
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    external: ['node:*'],
  });
  const { Miniflare } = await import('miniflare');
  const mf = new Miniflare({
    modules: true,
    scriptPath: script,
    modulesRoot: site,
    compatibilityDate: '2026-05-01',
    compatibilityFlags: ['nodejs_compat'],
    durableObjects: { MEDIAKIT_STORE: 'ProxyStoreObject' },
    host: '127.0.0.1',
    port: await freePort(),
  });
  const url = (await mf.ready).origin;
  return { url, output: () => '(printed to the test output)', close: () => mf.dispose() };
}
