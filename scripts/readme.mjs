// The README's code examples, compiled: every ```ts, ```tsx and ```js block of README.md becomes a
// module in .github/readme-examples/ (NN.ts or NN.tsx), type-checked by `npm run typecheck` through
// tsconfig.readme.json, which maps the package's import names to src. Names an example only
// mentions (a file, a user's session store) are declared in .github/readme-examples/prelude.d.ts.
// `node scripts/readme.mjs` writes them; `--check` fails when they are stale.
//
// A ```js or ```jsx block whose first line is `// test/apps/<app>/<path>` is that example app's
// file, word for word (the recipes under "In a CMS"): it must equal the file (which the app's
// journey runs, scripts/apps.mjs), and tsconfig.readme.json checks that file where it stands, as
// JavaScript (checkJs) against the package's types.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, '.github/readme-examples');
const check = process.argv.includes('--check');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const APP_FILE = /^\/\/ (test\/apps\/[A-Za-z0-9_-]+\/[A-Za-z0-9_./[\]-]+\.jsx?)\n/;
const blocks = [...readme.matchAll(/^```(ts|tsx|js)\n([\s\S]*?)^```$/gm)].filter(([, , code]) => !APP_FILE.test(code));
const appBlocks = [...readme.matchAll(/^```(js|jsx)\n([\s\S]*?)^```$/gm)]
  .map(([, , code]) => [APP_FILE.exec(code)?.[1], code])
  .filter(([path]) => path);
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
// The example apps' files the README shows: the same text as the app's file, which
// tsconfig.readme.json type-checks where it stands (each must be in its "include").
const differ = [];
const unchecked = [];
const readmeConfig = readFileSync(join(root, 'tsconfig.readme.json'), 'utf8');
for (const [path, code] of appBlocks) {
  const file = join(root, path);
  if (!existsSync(file) || readFileSync(file, 'utf8') !== code) differ.push(path);
  if (!readmeConfig.includes(JSON.stringify(path))) unchecked.push(path);
}
if (unchecked.length) {
  console.error(
    `tsconfig.readme.json's "include" must list the example app files the README shows: ${unchecked.join(', ')}.`,
  );
  process.exit(1);
}
if (differ.length) {
  console.error(
    `README code blocks differ from the example app files they name (${differ.join(', ')}): the README shows the app's code word for word; copy one into the other.`,
  );
  process.exit(1);
}
if (check && stale.length) {
  console.error(`README examples are stale (${stale.join(', ')}): run node scripts/readme.mjs.`);
  process.exit(1);
}
console.log(
  `${want.size} README examples, ${appBlocks.length} example app files${stale.length && !check ? ` (updated ${stale.join(', ')})` : ''}`,
);
