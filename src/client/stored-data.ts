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
 *
 * Where the browser refuses storage (src/client/device-storage.ts), records live in the page's
 * memory and results are not kept; the same rules apply to what memory holds.
 */
import { local } from './device-storage.js';
import { RESULT_PATH } from './stored-names.js';

// The names themselves sit in stored-names.ts, which stored-purge.ts and job-database.ts import
// (importing them from here made a circle through the import() below).
export { JOB_DATABASE, RESULT_CACHE, RESULT_PATH } from './stored-names.js';

const LAST_SUBJECT = 'mediakit-subject ';
const purge = () => import('./stored-purge.js');

export const scopeOf = (endpoint: string, subjectHash: string) => `${endpoint}#${subjectHash}`;
export const recordKey = (scope: string, id: string) => `${scope}\n${id}`;
export const resultUrl = (scope: string, id: string) =>
  new URL(`${RESULT_PATH}${encodeURIComponent(scope)}/${encodeURIComponent(id)}`, location.origin).href;

/**
 * A session for `subjectHash` arrived at `endpoint`: when it is not the subject this browser last
 * saw there (or that is unknown), the endpoint's other subjects' records and results are deleted
 * (the previous user of this browser is gone). Other endpoints' data is left alone.
 */
export async function subjectArrived(endpoint: string, subjectHash: string): Promise<void> {
  const store = local();
  try {
    if (store?.getItem(LAST_SUBJECT + endpoint) === subjectHash) return;
  } catch {
    // Unreadable: purge to be safe.
  }
  await (await purge()).dropOtherSubjects(scopeOf(endpoint, subjectHash));
  try {
    store?.setItem(LAST_SUBJECT + endpoint, subjectHash);
  } catch {
    // Full or refused: the next page purges again, which is safe.
  }
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
  await (await purge()).clearAll(local(), LAST_SUBJECT);
}
