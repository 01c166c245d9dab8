// Deno: `deno run --unstable-kv --allow-net --allow-env --allow-read --allow-write deno.js` in a
// folder whose node_modules holds @mediakit/elements (npm install). Budgets live in Deno KV (on
// Deno Deploy shared by every instance); kept results go to the file store.
/* global Deno */
import { createProxy, fileResultStore } from '@mediakit/elements/proxy';
import { DenoKvStore } from '@mediakit/elements/proxy/deno-kv';
import { siteOptions } from './site.js';

const env = Deno.env.toObject();
const proxy = createProxy({
  ...siteOptions(env),
  store: new DenoKvStore(await Deno.openKv(env.KV_PATH)),
  results: { store: fileResultStore({ dir: env.RESULTS_DIR }) },
});

Deno.serve({ port: Number(env.PORT), hostname: '127.0.0.1', onListen: () => {} }, proxy.fetch);
