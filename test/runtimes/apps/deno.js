// Deno: `deno run --allow-net --allow-env --allow-read --allow-write deno.js` in a folder whose
// node_modules holds @mediakit/elements (npm install). Kept results go to the file store.
/* global Deno */
import { createProxy, fileResultStore } from '@mediakit/elements/proxy';
import { siteOptions } from './site.js';

const env = Deno.env.toObject();
const proxy = createProxy({
  ...siteOptions(env),
  results: { store: fileResultStore({ dir: env.RESULTS_DIR }) },
});

Deno.serve({ port: Number(env.PORT), hostname: '127.0.0.1', onListen: () => console.log('listening') }, proxy.fetch);
