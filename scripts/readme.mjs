// The README's code examples, compiled: every ```ts, ```tsx and ```js block of README.md becomes a
// module in .github/readme-examples/ (NN.ts or NN.tsx), type-checked by `npm run typecheck` through
// tsconfig.readme.json, which maps the package's import names to src. Names an example only
// mentions (a file, a user's session store) are declared in .github/readme-examples/prelude.d.ts.
// `node scripts/readme.mjs` writes them; `--check` fails when they are stale.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, '.github/readme-examples');
const check = process.argv.includes('--check');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/^```(ts|tsx|js)\n([\s\S]*?)^```$/gm)];
const want = new Map();
blocks.forEach(([, lang, code], i) => {
  const name = `${String(i + 1).padStart(2, '0')}.${lang === 'tsx' ? 'tsx' : 'ts'}`;
  want.set(
    name,
    `// From README.md, extracted by scripts/readme.mjs: edit the README, not this file.\nexport {};\n${code}`,
  );
});
const stale = [];
mkdirSync(dir, { recursive: true });
for (const [name, text] of want) {
  const file = join(dir, name);
  if (existsSync(file) && readFileSync(file, 'utf8') === text) continue;
  stale.push(name);
  if (!check) writeFileSync(file, text);
}
for (const name of readdirSync(dir)) {
  if (/^\d+\.tsx?$/.test(name) && !want.has(name)) {
    stale.push(name);
    if (!check) rmSync(join(dir, name));
  }
}
if (check && stale.length) {
  console.error(`README examples are stale (${stale.join(', ')}): run node scripts/readme.mjs.`);
  process.exit(1);
}
console.log(`${want.size} README examples${stale.length && !check ? ` (updated ${stale.join(', ')})` : ''}`);
