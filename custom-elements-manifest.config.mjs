// custom-elements.json is generated from the elements' JSDoc (`npm run analyze`), never written by
// hand; CI fails when it is stale. Server-side folders hold no elements and stay out.
export default {
  globs: ['src/**/*.ts'],
  exclude: ['src/sandbox/**', 'src/proxy/**', 'src/server/**', 'src/dev/**', 'src/api/**', 'src/**/*.test.ts'],
  litelement: true,
  outdir: '.',
};
