/**
 * The package as a site installs it, in a fresh folder: `<dir>/node_modules/@mediakit/elements`
 * with the real package.json (its `exports`) and dist/ compiled from src one file per module, as
 * tsc does for `npm run build`, and jose (the proxy's one dependency) beside it. Deno and Bun
 * import it by its bare name from there; the Workers and edge builds bundle it from there.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const root = fileURLToPath(new URL('../..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Makes the site folder and returns its path. */
export async function installPackage(): Promise<string> {
  const site = mkdtempSync(join(tmpdir(), 'mediakit-runtimes-'));
  const pkg = join(site, 'node_modules/@mediakit/elements');
  mkdirSync(pkg, { recursive: true });
  // The proxy and what it imports (src/api, src/server); the rest of src is the elements.
  const entryPoints = ['proxy', 'api', 'server'].flatMap((d) => sources(join(root, 'src', d)));
  await build({
    entryPoints,
    outdir: join(pkg, 'dist'),
    outbase: join(root, 'src'),
    format: 'esm',
    target: 'es2022',
    platform: 'neutral',
    logLevel: 'error',
  });
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(pkg, 'package.json'), JSON.stringify(manifest, null, 2));
  cpSync(join(root, 'node_modules/jose'), join(site, 'node_modules/jose'), { recursive: true });
  writeFileSync(
    join(site, 'package.json'),
    JSON.stringify({
      name: 'runtime-site',
      private: true,
      type: 'module',
      dependencies: { '@mediakit/elements': '*' },
    }),
  );
  cpSync(join(root, 'test/runtimes/apps'), join(site, 'apps'), { recursive: true });
  cpSync(join(root, 'test/runtimes/stores'), join(site, 'stores'), { recursive: true });
  return site;
}

export const rel = (from: string, to: string) => relative(from, to);
