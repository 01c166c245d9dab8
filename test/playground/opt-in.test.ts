// The playground is opt-in (issue 23): no entry a site imports for the elements reaches
// src/playground, and the playground's own entry does. Checked on the source graph with esbuild's
// metafile (scripts/size.mjs checks the built files and the CDN build).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function inputsOf(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [root + entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    logLevel: 'silent',
    // Only our own graph matters here.
    packages: 'external',
    tsconfig: root + 'tsconfig.json',
  });
  return Object.keys(result.metafile.inputs);
}

describe('the playground loads only when a page asks for it', () => {
  const entries = [
    'src/index.ts',
    'src/define.ts',
    'src/cdn.ts',
    ...readdirSync(root + 'src/elements')
      .filter((f) => f.endsWith('.ts'))
      .map((f) => 'src/elements/' + f),
  ];

  it('no element entry reaches src/playground', async () => {
    for (const entry of entries) {
      const reached = (await inputsOf(entry)).filter((p) => p.startsWith('src/playground/'));
      assert.deepEqual(reached, [], `${entry} reaches ${reached.join(', ')}`);
    }
  });

  it('the playground entry is the playground (the check above can see it)', async () => {
    const inputs = await inputsOf('src/playground/index.ts');
    assert.ok(inputs.includes('src/playground/index.ts'));
    assert.ok(inputs.includes('src/playground/codec.ts'));
  });
});
