// Size budgets: what a page downloads before anything is lazy, per entry point of the built package.
// Each entry is bundled on its own by Vite (minified, as a site's build would) from dist/; the
// entry chunk and every chunk it imports statically are gzipped at level 9 and summed. Lazy chunks
// (three.js, the splat library, German strings) are reported beside it, not counted.
// Fails when an entry with a budget is over it. Run after `npm run build`.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { elements } from './entries.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const KiB = 1024;

/**
 * Budgets in KiB of gzip: each row is what the entry measured when it last changed, plus 0.3 KiB
 * (or the weight it had before results-that-last, issue 33's bar, where that is lower), lowered
 * whenever a change makes the entry lighter. A budget is raised only with its reason in
 * README.md's "Page weight" paragraphs, which keep each row's history (git keeps the rest).
 *
 * What a product element needs on first load, and why it cannot wait: the idle card (its view,
 * the shared look, the file intake and the limits line), the session and the credits, and the
 * value's holder (a value set reads back at once; the value's events). Everything later loads when
 * it is needed: the checks of a value set from outside with the first one, the job engine as a
 * job element connects (the uploader's with its first video), what checks and sends an input and
 * makes its value with the first input chosen, each later view with its own styles, the error
 * panel, field mode, the camera, the converter, reading a value's kept image, and keeping a result.
 */
const BUDGETS = {
  'client (MediaClient, JobPoller from the root)': 9.9,
  'video-to-3d-uploader.js': 26.0,
  'bg-tool.js': 27.8,
  'credit-badge.js': 17.4,
  'headshot-studio.js': 30.8,
  'model-generator.js': 36.5,
  'glb-viewer.js': 13.8,
  'splat-viewer.js': 14,
  'the five product elements on one page': 54.0,
  'define.js (every tag)': 59.1,
};

if (!existsSync(join(root, 'dist/index.js'))) {
  console.error('size: no dist/ (run npm run build first)');
  process.exit(1);
}
const { build } = await import('vite');
const dir = join(tmpdir(), 'mediakit-size');
mkdirSync(dir, { recursive: true });

const entries = [
  [
    'client (MediaClient, JobPoller from the root)',
    `import { MediaClient, JobPoller } from ${JSON.stringify(join(root, 'dist/index.js'))};\nconsole.log(MediaClient, JobPoller);`,
  ],
  ...elements().map(({ tag }) => [`${tag}.js`, `import ${JSON.stringify(join(root, 'dist/elements', `${tag}.js`))};`]),
  [
    'the five product elements on one page',
    ['video-to-3d-uploader', 'headshot-studio', 'model-generator', 'bg-tool', 'credit-badge']
      .map((tag) => `import ${JSON.stringify(join(root, 'dist/elements', `${tag}.js`))};`)
      .join('\n'),
  ],
  ['define.js (every tag)', `import ${JSON.stringify(join(root, 'dist/define.js'))};`],
];

const rows = [];
let over = 0;
for (const [name, source] of entries) {
  const file = join(dir, `${name.replace(/[^a-z0-9]+/gi, '-')}.js`);
  writeFileSync(file, source + '\n');
  const result = await build({
    configFile: false,
    root: dir,
    logLevel: 'silent',
    publicDir: false,
    build: { write: false, target: 'es2022', minify: true, modulePreload: false, rolldownOptions: { input: file } },
  });
  const output = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
  const chunks = new Map(output.filter((o) => o.type === 'chunk').map((c) => [c.fileName, c]));
  const entry = [...chunks.values()].find((c) => c.isEntry);
  const initial = new Set();
  const visit = (c) => {
    if (initial.has(c.fileName)) return;
    initial.add(c.fileName);
    for (const i of c.imports) if (chunks.has(i)) visit(chunks.get(i));
  };
  visit(entry);
  // The playground (issue 23) is opt-in: no element, first load or lazy, may reach it.
  const playground = [...chunks.values()].flatMap((c) => c.moduleIds).filter((id) => id.includes('/dist/playground/'));
  if (playground.length) {
    console.error(`size: ${name} reaches the playground (${playground[0]}); it must load only when a page imports it.`);
    over++;
  }
  const gz = (c) => gzipSync(c.code, { level: 9 }).length;
  const initialBytes = [...initial].reduce((n, f) => n + gz(chunks.get(f)), 0);
  const lazyBytes = [...chunks.values()].filter((c) => !initial.has(c.fileName)).reduce((n, c) => n + gz(c), 0);
  const budget = BUDGETS[name];
  const ok = budget === undefined || initialBytes <= budget * KiB;
  if (!ok) over++;
  rows.push([
    name,
    (initialBytes / KiB).toFixed(1),
    budget === undefined ? '-' : `${budget}`,
    ok ? (budget === undefined ? '' : 'ok') : 'OVER',
    (lazyBytes / KiB).toFixed(1),
  ]);
}

// The CDN build: mediakit-elements.js and every chunk it can load, statically or lazily, hold
// nothing of the playground (whose own files are cdn/playground.js, playground-sw.js, chunks/playground-*).
if (existsSync(join(root, 'cdn/mediakit-elements.js'))) {
  const seen = new Set();
  const walk = (file) => {
    // Missing: the decoders' asm.js fallback, left out of the CDN build on purpose.
    if (seen.has(file) || !existsSync(join(root, 'cdn', file))) return;
    seen.add(file);
    const code = readFileSync(join(root, 'cdn', file), 'utf8');
    if (/playground/i.test(code)) {
      console.error(`size: cdn/${file} (loaded by cdn/mediakit-elements.js) mentions the playground.`);
      over++;
    }
    for (const [, spec] of code.matchAll(/["'](\.{1,2}\/[^"']+\.js)["']/g))
      walk(join(dirname(file), spec).replace(/\\/g, '/'));
  };
  walk('mediakit-elements.js');
  rows.push(['cdn/mediakit-elements.js and its chunks: no playground', `${seen.size} files`, '-', 'ok', '-']);
}

const head = ['entry', 'first load KiB gz', 'budget KiB', '', 'lazy chunks KiB gz'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) => '| ' + r.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
console.log([line(head), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...rows.map(line)].join('\n'));
if (over) {
  console.error(`\nsize: ${over} entr${over === 1 ? 'y is' : 'ies are'} over budget.`);
  process.exit(1);
}
