export { createSandbox, type Sandbox, type SandboxOptions } from './create-sandbox.js';
export type { ArtifactOptions } from './job-routes.js';
export type { RateLimitOptions } from './rate-limit.js';
export type { LedgerEntry, FaultKind } from './accounts.js';
export { serve, nodeListener, connectMiddleware, toRequest, writeResponse, type FetchHandler } from '../server/node.js';
