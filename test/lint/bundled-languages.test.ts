/**
 * An app that bundles an element with Vite ships the element's languages. The package marks its
 * modules free of side effects except those listed in package.json's `sideEffects`; the module
 * that hands the twelve shipped languages to the localizer (src/components/shared/localize.ts)
 * only re-exports besides that call, so a bundler drops it unless it is listed, and the element
 * then speaks English under `lang="de"` with German numbers (Storybook's static build did).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;

describe('a bundled app keeps the shipped languages', () => {
  it(
    'Vite bundling <bg-tool> from the package emits its German dictionary as a lazy chunk',
    { timeout: 120_000 },
    async () => {
      const { build } = await import('vite');
      const dir = mkdtempSync(join(tmpdir(), 'mk-bundled-languages-'));
      try {
        writeFileSync(
          join(dir, 'main.js'),
          `import ${JSON.stringify(join(root, 'src/components/bg-tool/define.ts'))};\n`,
        );
        writeFileSync(
          join(dir, 'index.html'),
          '<!doctype html><bg-tool></bg-tool><script type="module" src="./main.js"></script>',
        );
        await build({
          root: dir,
          configFile: false,
          logLevel: 'silent',
          build: { outDir: join(dir, 'out'), minify: false, write: true },
        });
        const assets = readdirSync(join(dir, 'out', 'assets'));
        const texts = assets
          .filter((f) => f.endsWith('.js'))
          .map((f) => readFileSync(join(dir, 'out', 'assets', f), 'utf8'));
        assert.ok(
          texts.some((t) => t.includes('Hintergrund entfernen')),
          `no chunk holds bg-tool's German strings (chunks: ${assets.join(', ')})`,
        );
        assert.ok(
          texts.some((t) => t.includes('إزالة الخلفية')),
          "no chunk holds bg-tool's Arabic strings",
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
