/**
 * The rarely needed half of stored-data.ts, loaded only when a user changes or logs out: finds
 * and deletes job records and cached results by scope. Where the browser refuses storage, it
 * finds the records in memory and no cache, and says nothing: there is nothing else to delete.
 */
import { cacheStorage, idbFactory } from './device-storage.js';
import { jobDatabase, openedDatabases, type JobDatabase } from './job-database.js';
import { SessionManager } from './session.js';
import { CONVERTED_DIR, JOB_DATABASE, RESULT_CACHE, RESULT_PATH } from './stored-names.js';

/** `work`'s answer, or `otherwise` where the browser refuses the storage: it then holds nothing of ours. */
async function unlessRefused<T>(work: Promise<T>, otherwise: T): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof DOMException && err.name === 'SecurityError') return otherwise;
    throw err;
  }
}

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
async function knownDatabases(): Promise<JobDatabase[]> {
  // Those opened in this page, in IndexedDB or in memory.
  const stores = [...openedDatabases.values()];
  const factory = idbFactory();
  if (factory && !openedDatabases.has(JOB_DATABASE)) {
    let existing: IDBDatabaseInfo[] | undefined;
    try {
      existing = await factory.databases?.();
    } catch {
      // Refused (it throws where IndexedDB is: an opaque origin, blocked storage): nothing can
      // have been stored there, and opening it would only warn that nothing is stored.
      return stores;
    }
    // Without databases() (older browsers) it may exist: open it.
    if (!existing || existing.some((d) => d.name === JOB_DATABASE)) stores.push(jobDatabase());
  }
  return stores;
}

async function dropWhere(match: (scope: string) => boolean): Promise<void> {
  const records = (await knownDatabases()).map(async (db) => {
    const doomed = (await db.keys()).filter((k) => {
      const scope = scopeOfKey(k);
      return scope !== undefined && match(scope);
    });
    if (doomed.length) await db.delMany(doomed);
  });
  const results = (async () => {
    const caches = cacheStorage();
    if (!caches || !(await unlessRefused(caches.has(RESULT_CACHE), false))) return;
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

/** clearStoredData(): forgets the page's tokens and the last-subject markers (`markerPrefix` in `store`), empties every known job database, deletes the result cache and the converted videos. */
export async function clearAll(store: Storage | undefined, markerPrefix: string): Promise<void> {
  SessionManager.forgetAll();
  try {
    for (const key of Object.keys(store ?? {})) if (key.startsWith(markerPrefix)) store!.removeItem(key);
  } catch {
    // Refused storage holds no markers.
  }
  const work: Promise<unknown>[] = (await knownDatabases()).map((db) => db.clear());
  const caches = cacheStorage();
  if (caches) work.push(unlessRefused(caches.delete(RESULT_CACHE), false));
  work.push(dropConvertedVideos());
  await Promise.all(work);
}

/** Deletes the converted videos kept in the origin's private file system (none where there is no such file system). */
async function dropConvertedVideos(): Promise<void> {
  try {
    const root = await navigator.storage.getDirectory();
    await root.removeEntry(CONVERTED_DIR, { recursive: true });
  } catch {
    // No private file system, storage refused, or nothing converted: nothing to delete.
  }
}
