// custom-elements.json is generated from the elements' JSDoc (`npm run analyze`), never written by
// hand; CI fails when it is stale. Server-side folders hold no elements and stay out.
export default {
  globs: ['src/**/*.ts'],
  exclude: [
    'src/sandbox/**',
    'src/proxy/**',
    'src/server/**',
    'src/dev/**',
    'src/api/**',
    'src/**/*.test.ts',
    'src/elements/**',
    'src/react/**',
    'src/types/**',
    'src/cdn.ts',
  ],
  litelement: true,
  // package.json's customElements names the package's copy (dist/custom-elements.json, dist paths,
  // written by scripts/build.mjs): the analyzer must not point it back at this one.
  packagejson: false,
  outdir: '.',
  // The glob's order follows the file system's, which differs between checkouts: sort the modules
  // so the manifest is the same on every machine (CI compares it byte for byte).
  plugins: [
    {
      name: 'mediakit-sort-modules',
      packageLinkPhase({ customElementsManifest }) {
        customElementsManifest.modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      },
    },
  ],
};
