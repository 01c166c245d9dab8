// ESLint (flat config): `npm run lint` runs it with Prettier's check; `npm run format` fixes what both can.
// Syntax-only rules (no type information), so a full run stays quick on a small machine; `tsc` does the type checking.
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { configs as litConfigs } from 'eslint-plugin-lit';
import { configs as wcConfigs } from 'eslint-plugin-wc';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

// The elements extend these (src/internal/mk-element.ts and the shared bases), not LitElement itself:
// the lit and wc rules must know them to treat the subclasses as elements.
const elementBaseClasses = ['MkElement', 'ClientElement', 'ViewerElement', 'ProductElement'];

/**
 * What each folder of src/ may import from src/ besides itself: the "may import" table of README
 * "Layout", row by row. The browser layers never import proxy/, sandbox/, server/ or dev/; the
 * server layers never import browser layers. `translations/languages.ts` (the shipped languages'
 * loaders, every language a lazy import()) is the one file of translations/ the viewers import.
 */
export const layers = {
  api: [],
  server: [],
  events: ['api'],
  internal: ['api'],
  client: ['api', 'events'],
  jobs: ['api', 'client', 'events'],
  viewers: ['api', 'internal', 'events', 'translations/languages.ts'],
  translations: ['api', 'internal'],
  components: ['api', 'client', 'jobs', 'events', 'internal', 'viewers', 'translations'],
  proxy: ['api', 'server'],
  sandbox: ['api', 'server'],
  dev: ['api', 'proxy', 'sandbox', 'server'],
  playground: ['api', 'proxy', 'sandbox', 'client'],
  elements: ['components', 'viewers', 'events'],
  react: ['elements'],
  types: ['elements', 'events'],
};

/** The restricted-paths zone of one row: the folder may import itself and the folders named, nothing else of src/. */
function layerZone(layer, allowed) {
  return {
    target: `./src/${layer}`,
    from: './src',
    except: [layer, ...allowed].map((folder) => `./${folder}`),
    message: `src/${layer} may import ${allowed.length ? allowed.join(', ') : 'nothing of src/'} (README "Layout").`,
  };
}

export default defineConfig(
  {
    // Build output, generated files and the example apps (each in its own framework's toolchain,
    // importing the packed package) are not linted.
    ignores: [
      'dist/',
      'cdn/',
      'storybook-static/',
      'coverage/',
      '**/node_modules/',
      'custom-elements.json',
      '.github/readme-examples/', // written from README.md by scripts/readme.mjs, type-checked there
      'test/apps/',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  litConfigs['flat/recommended'],
  wcConfigs['flat/recommended'],
  {
    settings: {
      lit: { elementBaseClasses },
      wc: { elementBaseClasses },
    },
  },
  {
    plugins: { 'import-x': importX },
    settings: {
      // Imports name the emitted `.js` (NodeNext): resolve them to the `.ts` source beside it.
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'], '.mjs': ['.mts', '.mjs'] },
          conditionNames: ['types', 'import', 'default'],
        }),
      ],
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
    },
    rules: {
      // A cycle is an error. Type-only imports (`import type`, or every specifier `type`) do not count
      // here; `npm run lint` also runs madge (.madgerc), which counts them. A dynamic import() counts.
      // Packages in node_modules are not followed.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // The layers (README "Layout"): one zone per row, each naming the folders of src/ its folder may
      // import; every other folder of src/ is refused, type-only imports and import() included.
      'import-x/no-restricted-paths': [
        'error',
        { zones: Object.entries(layers).map(([layer, allowed]) => layerZone(layer, allowed)) },
      ],
    },
  },
  {
    // The library, the demo and the stories run in the browser (no-undef only checks .js and .mjs files:
    // typescript-eslint turns it off for TypeScript, whose compiler checks names itself).
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Node code: the servers, the sandbox, the scripts, the tests and the tool configs.
    files: [
      'src/proxy/**',
      'src/sandbox/**',
      'src/server/**',
      'src/dev/**',
      'scripts/**',
      'test/**',
      '*.config.{js,mjs,ts}',
      '.storybook/main.ts',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    rules: {
      // The proxy's path check, the dev server's src check, the log escaper and safeUrl match control
      // characters on purpose (to refuse or escape them): the rule only flags such deliberate regexes.
      'no-control-regex': 'off',
      // `_`-prefixed parameters keep a signature; `const { key: _omit, ...rest } = o` drops a key.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // The sandbox's platform-free core and its browser platform (issue 23) also run in a Service
    // Worker: nothing of Node's. Node's own files are listed here; everything else must stay free.
    files: ['src/sandbox/**'],
    ignores: [
      'src/sandbox/index.ts',
      'src/sandbox/cli.ts',
      'src/sandbox/peers.ts',
      'src/sandbox/node-platform.ts',
      'src/sandbox/remote-fetch.ts',
      'src/sandbox/artifacts/{background,headshot,image-tool,reference,relief,glb-stats,scene,turntable,ffmpeg}.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'sharp', '**/server/*', '**/node-platform.js', '**/remote-fetch.js', '**/ffmpeg.js'],
              message:
                'The sandbox core runs in browsers too: put Node-only code behind SandboxPlatform (platform.ts).',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'Buffer', message: 'The sandbox core runs in browsers too: use Uint8Array and src/api/bytes.ts.' },
        { name: 'process', message: 'The sandbox core runs in browsers too.' },
      ],
    },
  },
  {
    files: ['test/**'],
    languageOptions: { globals: { ...globals.mocha } },
    rules: {
      // Tests read API responses' JSON ad hoc; typing each body would add nothing the assertions do not check.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
