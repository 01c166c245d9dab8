// Bun: `bun bun.js` in a folder whose node_modules holds @mediakit/elements. Kept results go to
// the file store.
/* global Bun */
import { createProxy, fileResultStore } from '@mediakit/elements/proxy';
import { siteOptions } from './site.js';

const proxy = createProxy({
  ...siteOptions(Bun.env),
  results: { store: fileResultStore({ dir: Bun.env.RESULTS_DIR }) },
});

Bun.serve({ port: Number(Bun.env.PORT), hostname: '127.0.0.1', fetch: proxy.fetch });
console.log('listening');
