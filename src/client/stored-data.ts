/**
 * What this library keeps on the device, under which keys, and how it lets it go.
 *
 * - Job records in IndexedDB (`JobStore`: database `mediakit-jobs`, or the one a JobStore was
 *   given), keyed `<scope>\n<id>`; a cut upload's video stays in its record until it is sent.
 * - Finished scenes, models and thumbnails in Cache Storage (`mediakit-results`), keyed by a
 *   same-origin URL `/__mediakit-results/<scope>/<id>` that is never fetched.
 *
 * A scope is the proxy endpoint and a SHA-256 of the session token's `sub` (`<endpoint>#<hash>`):
 * the subject itself (an email, a user id) is never stored. On a shared computer nobody's data
 * stays longer than needed: when a session for another subject arrives, MediaClient deletes the
 * endpoint's other subjects' records and results before it hands the session out; unfinished
 * records expire (`JobStore.prune`, ORPHAN_TTL_MS); `clearStoredData()` removes it all on logout.
 */
import { clear, createStore, delMany, keys, type UseStore } from 'idb-keyval';
import { SessionManager } from './session.js';

export const JOB_DATABASE = 'mediakit-jobs';
export const RESULT_CACHE = 'mediakit-results';
const RESULT_PATH = '/__mediakit-results/';

/** Every JobStore database this page opened, so a purge reaches the ones with custom names too. */
const databases = new Map<string, UseStore>();

/** The idb-keyval store of a job database: one connection per database per page. */
export function jobDatabase(name = JOB_DATABASE): UseStore {
  let db = databases.get(name);
  if (!db) databases.set(name, (db = createStore(name, 'jobs')));
  return db;
}

export const scopeOf = (endpoint: string, subjectHash: string) => `${endpoint}#${subjectHash}`;
export const recordKey = (scope: string, id: string) => `${scope}\n${id}`;
export const resultUrl = (scope: string, id: string) => new URL(`${RESULT_PATH}${encodeURIComponent(scope)}/${encodeURIComponent(id)}`, location.origin).href;

const endpointOf = (scope: string) => scope.slice(0, scope.lastIndexOf('#'));
const scopeOfKey = (key: IDBValidKey) => (typeof key === 'string' && key.includes('\n') ? key.slice(0, key.indexOf('\n')) : undefined);

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
  const stores = [...databases.values()];
  if (!databases.has(JOB_DATABASE)) {
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

/**
 * Deletes the job records (stored uploads included) and cached results of every other subject of
 * `scope`'s endpoint: a session for a new subject means the previous user of this browser is gone.
 * Other endpoints' data is left alone (their own sessions decide).
 */
export function dropOtherSubjects(scope: string): Promise<void> {
  const endpoint = endpointOf(scope);
  return dropWhere((s) => s !== scope && endpointOf(s) === endpoint);
}

/**
 * Deletes everything this library stored on this device, for every user and endpoint: job records
 * with any stored uploads (the default database and every JobStore database opened in this page)
 * and cached results. Also forgets the session tokens held in this page, so the next call fetches
 * a session for whoever is signed in then. Call it when a user logs out, before the next one
 * signs in; safe to call at any time, more than once, and on a page that stored nothing. Jobs
 * already running upstream go on, but this browser no longer lists or resumes them.
 */
export async function clearStoredData(): Promise<void> {
  SessionManager.forgetAll();
  const work: Promise<unknown>[] = (await knownDatabases()).map((db) => clear(db));
  if (typeof caches !== 'undefined') work.push(caches.delete(RESULT_CACHE));
  await Promise.all(work);
}
