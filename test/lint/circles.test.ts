// No import circle in src/, type-only imports counted: `npm run lint` runs madge with .madgerc.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import madge from 'madge';

const root = new URL('../..', import.meta.url).pathname;

describe('circles: madge with type imports counted', () => {
  const madgerc = JSON.parse(readFileSync(join(root, '.madgerc'), 'utf8'));

  it('finds a circle made only of `import type`', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mk-madge-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport interface A { b?: B }\n");
      writeFileSync(join(dir, 'b.ts'), "import type { A } from './a.js';\nexport interface B { a?: A }\n");
      const graph = await madge(dir, { ...madgerc, tsConfig: join(root, 'tsconfig.json') });
      assert.deepEqual(graph.circular(), [['a.ts', 'b.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds none in src/', async () => {
    const graph = await madge(join(root, 'src'), { ...madgerc, tsConfig: join(root, 'tsconfig.json') });
    assert.deepEqual(graph.circular(), []);
  });

  it('npm run lint runs it', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    assert.match(pkg.scripts.lint, /madge --circular src/);
  });
});
