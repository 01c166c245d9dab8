// The Deno KV store in Deno, on a KV database in a file (KV_PATH), answering store calls.
/* global Deno */
import { DenoKvStore } from '@mediakit/elements/proxy/deno-kv';
import { callStore } from './handler.js';

const store = new DenoKvStore(await Deno.openKv(Deno.env.get('KV_PATH')));
Deno.serve({ port: Number(Deno.env.get('PORT')), hostname: '127.0.0.1', onListen: () => {} }, (request) =>
  callStore(store, request),
);
