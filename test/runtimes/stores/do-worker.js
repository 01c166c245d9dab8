// The Durable Object store in workerd: the Worker re-exports ProxyStoreObject (bound as
// MEDIAKIT_STORE) and answers store calls through DurableObjectStore.
import { DurableObjectStore } from '@mediakit/elements/proxy/durable-object';
import { callStore } from './handler.js';

export { ProxyStoreObject } from '@mediakit/elements/proxy/durable-object';

export default {
  fetch: (request, env) => callStore(new DurableObjectStore(env.MEDIAKIT_STORE), request),
};
