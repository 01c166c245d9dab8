import { requirePeers } from './peers.js';

// The implementation imports sharp, @gltf-transform/core and mediabunny (optional peers): check
// for them first, so a missing one is a message saying what to install, not a link error.
await requirePeers(
  'The mediakit sandbox (@mediakit/elements/sandbox, also used by @mediakit/elements/dev and mediakit-sandbox)',
);
const implementation = await import('./create-sandbox.js');
const { nodePlatform } = await import('./node-platform.js');

/** Creates a sandbox of the media API on Node: `{ fetch(request) }`, a Web-standard handler. */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  return implementation.createSandboxOn(nodePlatform(), options);
}
import type { Sandbox, SandboxOptions } from './create-sandbox.js';
export type { Sandbox, SandboxOptions } from './create-sandbox.js';
export { SANDBOX_PEERS } from './peers.js';
export type { ArtifactOptions } from './job-routes.js';
export type { RateLimitOptions } from './rate-limit.js';
export type { LedgerEntry, FaultKind } from './accounts.js';
export { serve, nodeListener, connectMiddleware, toRequest, writeResponse, type FetchHandler } from '../server/node.js';
