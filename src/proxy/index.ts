export {
  createProxy,
  type Proxy,
  type ProxyOptions,
  type AuthorizeResult,
  type RateLimit,
  type ProxyLogEvent,
  type RemoteImagesPolicy,
  type ResultAccess,
  type ResultOwner,
  type ResultsOptions,
} from './create-proxy.js';
export {
  fileResultStore,
  type FileResultStoreOptions,
  type ResultStore,
  type KeptMeta,
  type KeptRange,
} from './keep/result-store.js';
export { toNodeHandler } from './node.js';
export { MemoryStore, type ProxyStore } from './state/state-store.js';
export { RedisStore, type RedisEvalClient } from './state/redis-store.js';
export type { SessionClaims } from './tokens/tokens.js';
export type { SecretOption, SecretEntry } from './tokens/secrets.js';
