// The layers of src/ as `npm run lint` holds them: ESLint's import-x/no-restricted-paths refuses an
// import across a row of the "may import" table (README "Layout"; the rows are `layers` in
// eslint.config.js). Circles: circles.test.ts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const root = new URL('../..', import.meta.url).pathname;
const RULE = 'import-x/no-restricted-paths';

/** One module of each folder that an import can name (the rule only judges imports it can resolve). */
const SAMPLE: Record<string, string> = {
  api: 'api/index.js',
  server: 'server/node.js',
  events: 'events/index.js',
  internal: 'internal/localize.js',
  client: 'client/media-client.js',
  jobs: 'jobs/index.js',
  viewers: 'viewers/shared/viewer-error.js',
  translations: 'translations/languages.js',
  components: 'components/shared/strings.js',
  proxy: 'proxy/index.js',
  sandbox: 'sandbox/index.js',
  dev: 'dev/stack.js',
  playground: 'playground/index.js',
  elements: 'elements/bg-tool.js',
  react: 'react/bg-tool.js',
  types: 'types/react-jsx.js',
};

/** The rows, as eslint.config.js states them (a JavaScript file without types: imported by its URL). */
const config = new URL('../../eslint.config.js', import.meta.url).href;
const rows = ((await import(config)) as { layers: Record<string, string[]> }).layers;
/** The folders a row may name: whole folders, or one file of a folder (`translations/languages.ts`). */
const allows = (layer: string, folder: string) =>
  folder === layer || rows[layer]!.some((a) => a === folder || SAMPLE[folder]!.replace(/\.js$/, '.ts') === a);

const eslint = new ESLint({ cwd: root });

/** Lints a file that would sit at src/<layer>/<name> and imports `imports` (src/-relative), type-only or not. */
async function restricted(layer: string, imports: string[], typeOnly = false): Promise<string[]> {
  const code = imports
    .map((m, i) => `import ${typeOnly ? 'type ' : ''}* as m${i} from '../${m}';\nexport { m${i} };`)
    .join('\n');
  const [result] = await eslint.lintText(code + '\n', { filePath: join(root, 'src', layer, 'layer-probe.ts') });
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

describe('layers: npm run lint refuses an import across the table', () => {
  it('the table has a row for every folder of src/ and names only folders that exist', () => {
    assert.deepEqual(Object.keys(rows).sort(), Object.keys(SAMPLE).sort());
    for (const [layer, allowed] of Object.entries(rows))
      for (const a of allowed) assert.ok(a.split('/')[0]! in SAMPLE, `${layer} names ${a}`);
  });

  for (const layer of Object.keys(SAMPLE)) {
    it(`src/${layer}: every folder outside its row is refused, every folder in it passes`, async () => {
      const forbidden = Object.keys(SAMPLE).filter((f) => !allows(layer, f));
      const allowed = Object.keys(SAMPLE).filter((f) => allows(layer, f));
      const refused = await restricted(
        layer,
        forbidden.map((f) => SAMPLE[f]!),
      );
      assert.equal(refused.length, forbidden.length, refused.join('\n'));
      for (const m of refused) assert.match(m, new RegExp(`src/${layer} may import`));
      assert.deepEqual(
        await restricted(
          layer,
          allowed.map((f) => SAMPLE[f]!),
        ),
        [],
      );
    });
  }

  it('a type-only import across the table is refused too', async () => {
    const refused = await restricted('translations', ['components/shared/strings.js'], true);
    assert.equal(refused.length, 1);
    assert.match(refused[0]!, /src\/translations may import api, internal/);
  });

  it('the CLI fails on a file in src/internal that imports src/translations, and passes without it', () => {
    const probe = join(root, 'src/internal/layer-probe.ts');
    const run = () =>
      spawnSync(process.execPath, [join(root, 'node_modules/eslint/bin/eslint.js'), probe], {
        cwd: root,
        encoding: 'utf8',
      });
    try {
      writeFileSync(probe, "export { languages } from '../translations/languages.js';\n");
      const wrong = run();
      assert.equal(wrong.status, 1, wrong.stdout + wrong.stderr);
      assert.match(wrong.stdout, /no-restricted-paths/);
      assert.match(wrong.stdout, /src\/internal may import api/);
      writeFileSync(probe, "export { ApiError } from '../api/index.js';\n");
      const right = run();
      assert.equal(right.status, 0, right.stdout + right.stderr);
    } finally {
      rmSync(probe, { force: true });
    }
  });
});
