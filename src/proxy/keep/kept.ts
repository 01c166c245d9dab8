/**
 * What the kept-results modules share: the answer a keep gives (`Kept`), what they work with
 * (`KeepDeps`), a kept result's URL, and the store call that turns a store failure into a 503 in
 * words (the site gets a log line; the page never sees the store's own message).
 */
import type { Ctx } from '../context.js';
import { messageOf, refuse } from '../edge/respond.js';
import type { ProxyOptions } from '../options.js';
import type { ResolvedResults } from '../settings.js';
import type { ByteLedgers } from '../state/state-store.js';
import type { Binding } from '../tokens/handles.js';
import type { Sessions } from '../tokens/session.js';
import type { KeptMeta } from './result-store.js';

/** What a keep answers, and what the page stores. */
export interface Kept {
  id: string;
  url: string;
  type: string;
  bytes: number;
  name: string;
}

/** What keeping, reading and removing kept results work with. */
export interface KeepDeps {
  ctx: Ctx;
  results: ResolvedResults;
  ledgers: ByteLedgers;
  sessions: Sessions;
  authorize: ProxyOptions['authorize'];
}

export const NO_RESULT = 'There is no kept result at this address.';

/** Bytes in words for messages: `612 MB`, `1.5 GB`, `300 KB`. */
export function bytesText(n: number): string {
  if (n >= 1e9) return `${Number((n / 1e9).toFixed(n >= 1e10 ? 0 : 1))} GB`;
  if (n >= 1e6) return `${Math.round(n / 1e6)} MB`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} KB`;
  return `${n} bytes`;
}

/** Whether `who` may act on what `owner` kept: every subject of its scope, else its subject alone. */
export function sameOwner(owner: Binding, who: Binding): boolean {
  return owner.scope !== undefined ? who.scope === owner.scope : who.subject === owner.subject;
}

/** A kept result's URL: the store's own public one only where anyone may read it, else the proxy's path. */
export function urlOf(deps: KeepDeps, id: string, name: string, storeUrl: string | undefined): string {
  return storeUrl !== undefined && deps.results.access === 'public'
    ? storeUrl
    : `${deps.ctx.basePath}/results/${id}/${name}`;
}

/** The answer for a result the store already holds. */
export function keptOf(deps: KeepDeps, id: string, found: { meta: KeptMeta; bytes: number; url?: string }): Kept {
  return {
    id,
    url: urlOf(deps, id, found.meta.name, found.url),
    type: found.meta.type,
    bytes: found.bytes,
    name: found.meta.name,
  };
}

/** A result store call; a failure is a 503 in words (and a log line for the site). */
export async function storeCall<T>(deps: KeepDeps, op: Promise<T>): Promise<T> {
  try {
    return await op;
  } catch (err) {
    deps.ctx.log('error', `the result store failed: ${messageOf(err)}`);
    refuse('unavailable', 'Kept results cannot be reached right now. Try again in a moment.', 5);
  }
}
