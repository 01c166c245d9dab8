/**
 * The rarely needed half of stored-data.ts, loaded only when a user changes or logs out: finds
 * and deletes job records and cached results by scope.
 */
import { clear, delMany, keys, type UseStore } from 'idb-keyval';
import { jobDatabase, openedDatabases } from './job-database.js';
import { SessionManager } from './session.js';
import { JOB_DATABASE, RESULT_CACHE, RESULT_PATH } from './stored-names.js';

const endpointOf = (scope: string) => scope.slice(0, scope.lastIndexOf('#'));
const scopeOfKey = (key: IDBValidKey) =>
  typeof key === 'string' && key.includes('\n') ? key.slice(0, key.indexOf('\n')) : undefined;

function scopeOfResult(url: string): string | undefined {
  const { pathname } = new URL(url);
  if (!pathname.startsWith(RESULT_PATH)) return undefined;
  try {
    return decodeURIComponent(pathname.slice(RESULT_PATH.length).split('/')[0]!);
  } catch {
    return undefined;
  }
}

/**
 * The job databases to touch: those opened in this page, and the default one where it exists
 * (opening it would create it, and a page that only logs out should leave no empty database).
 */
async function knownDatabases(): Promise<UseStore[]> {
  if (typeof indexedDB === 'undefined') return [];
  const stores = [...openedDatabases.values()];
  if (!openedDatabases.has(JOB_DATABASE)) {
    const existing = indexedDB.databases ? await indexedDB.databases().catch(() => undefined) : undefined;
    if (!existing || existing.some((d) => d.name === JOB_DATABASE)) stores.push(jobDatabase());
  }
  return stores;
}

async function dropWhere(match: (scope: string) => boolean): Promise<void> {
  const records = (await knownDatabases()).map(async (db) => {
    const doomed = (await keys(db)).filter((k) => {
      const scope = scopeOfKey(k);
      return scope !== undefined && match(scope);
    });
    if (doomed.length) await delMany(doomed, db);
  });
  const results = (async () => {
    if (typeof caches === 'undefined' || !(await caches.has(RESULT_CACHE))) return;
    const cache = await caches.open(RESULT_CACHE);
    for (const request of await cache.keys()) {
      const scope = scopeOfResult(request.url);
      if (scope !== undefined && match(scope)) await cache.delete(request);
    }
  })();
  const failed = (await Promise.allSettled([...records, results])).find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

/** Deletes the job records (stored uploads included) and cached results of every other subject of `scope`'s endpoint. */
export function dropOtherSubjects(scope: string): Promise<void> {
  const endpoint = endpointOf(scope);
  return dropWhere((s) => s !== scope && endpointOf(s) === endpoint);
}

/** clearStoredData(): forgets the page's tokens and the last-subject markers (`markerPrefix` in `store`), empties every known job database and deletes the result cache. */
export async function clearAll(store: Storage | undefined, markerPrefix: string): Promise<void> {
  SessionManager.forgetAll();
  try {
    for (const key of Object.keys(store ?? {})) if (key.startsWith(markerPrefix)) store!.removeItem(key);
  } catch {
    // Refused storage holds no markers.
  }
  const work: Promise<unknown>[] = (await knownDatabases()).map((db) => clear(db));
  if (typeof caches !== 'undefined') work.push(caches.delete(RESULT_CACHE));
  await Promise.all(work);
}
