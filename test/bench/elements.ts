/**
 * Page weight of each product element: the JavaScript a page loads to show the element before any
 * result (its define module's static import closure: element, kit, lit, client, job engine; never
 * three.js, the splat library, or German strings, which load later), gzip -9, from a vite
 * production build of a page with only that element. Baselines from the same run: @mux/mux-uploader and Uppy's Dashboard
 * (@uppy/core + @uppy/dashboard), each built by the same vite from a one-line entry in a
 * bench-only install in the OS temp dir.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { modelGeneratorBench } from './model-generator.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BASELINES = { '@mux/mux-uploader': '1.5.0', '@uppy/core': '6.3.1', '@uppy/dashboard': '6.0.3' };

interface ManifestEntry {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}

/** gzip -9 bytes of each entry's static closure, by entry name. */
/** One build per entry: what a page with only that element loads (a multi-entry build would share chunks between elements and count code another element needs). */
async function weigh(
  projectRoot: string,
  inputs: Record<string, string>,
): Promise<Record<string, { bytes: number; three: boolean }>> {
  const result: Record<string, { bytes: number; three: boolean }> = {};
  for (const [name, file] of Object.entries(inputs))
    Object.assign(result, await weighTogether(projectRoot, { [name]: file }));
  return result;
}

async function weighTogether(
  projectRoot: string,
  inputs: Record<string, string>,
): Promise<Record<string, { bytes: number; three: boolean }>> {
  const out = mkdtempSync(join(tmpdir(), 'mediakit-bench-elements-'));
  await build({
    configFile: false,
    root: projectRoot,
    logLevel: 'error',
    build: { outDir: out, emptyOutDir: true, manifest: true, minify: true, rolldownOptions: { input: inputs } },
  });
  const manifest = JSON.parse(readFileSync(join(out, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestEntry>;
  const closure = (key: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const i of manifest[key]?.imports ?? []) closure(i, seen);
    return seen;
  };
  const result: Record<string, { bytes: number; three: boolean }> = {};
  for (const [name, file] of Object.entries(inputs)) {
    const key = Object.keys(manifest).find(
      (k) => join(projectRoot, k) === file || k === file.replace(projectRoot + '/', ''),
    )!;
    const keys = closure(key);
    const bytes = [...keys].reduce(
      (n, k) => n + gzipSync(readFileSync(join(out, manifest[k]!.file)), { level: 9 }).byteLength,
      0,
    );
    const three = [...keys].some((k) => /three|gaussian-splats/.test(k));
    result[name] = { bytes, three };
  }
  return result;
}

function baselineProject(): string {
  const dir = join(tmpdir(), 'mediakit-bench-uploaders-' + Object.values(BASELINES).join('-'));
  if (!existsSync(join(dir, 'node_modules/@uppy/dashboard'))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"name":"bench","private":true,"type":"module"}');
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--silent', ...Object.entries(BASELINES).map(([n, v]) => `${n}@${v}`)],
      { cwd: dir, stdio: 'inherit' },
    );
  }
  writeFileSync(join(dir, 'mux.js'), "import '@mux/mux-uploader';\n");
  writeFileSync(
    join(dir, 'uppy.js'),
    "import Uppy from '@uppy/core';\nimport Dashboard from '@uppy/dashboard';\nnew Uppy().use(Dashboard, { inline: true, target: document.body });\n",
  );
  return dir;
}

export async function elementsBench(): Promise<void> {
  const components = join(root, 'src/components');
  const inputs: Record<string, string> = {};
  for (const tag of readdirSync(components)) {
    const define = join(components, tag, 'define.ts');
    if (existsSync(define)) inputs[`<${tag}>`] = define;
  }
  const ours = await weigh(root, inputs);
  const dir = baselineProject();
  const theirs = await weigh(dir, {
    'mux-uploader 1.5.0': join(dir, 'mux.js'),
    'Uppy Dashboard 6.0 (core + dashboard)': join(dir, 'uppy.js'),
  });
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const uploader = ours['<video-to-3d-uploader>']?.bytes;
  const rows = [
    ...Object.entries(theirs).map(([name, v]) => ({
      page: `baseline: ${name}`,
      'gzip -9': kb(v.bytes),
      'three.js': v.three ? 'yes' : 'no',
      'vs uploader': uploader ? (v.bytes / uploader).toFixed(2) + 'x' : '',
    })),
    ...Object.entries(ours).map(([name, v]) => ({
      page: name,
      'gzip -9': kb(v.bytes),
      'three.js': v.three ? 'yes' : 'no',
      'vs uploader': uploader ? (v.bytes / uploader).toFixed(2) + 'x' : '',
    })),
  ];
  console.log(
    '\nPage weight of each element before a result (static import closure of its define module, vite build, gzip -9)',
  );
  console.table(rows);
  await modelGeneratorBench();
}
