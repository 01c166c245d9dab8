/**
 * The browser's storage APIs as this library reaches them: each one, or undefined where the
 * browser refuses it. In a sandboxed frame without `allow-same-origin` (an opaque origin), with
 * storage blocked, or in some private modes, merely reading `localStorage` or `caches` throws a
 * SecurityError (so even `typeof caches` throws), and `indexedDB.open()` throws or fails. The
 * library then keeps what it would store in memory, for this page only, and says so once.
 *
 * Imports nothing, so stored-data.ts, stored-purge.ts, job-database.ts and the result cache all
 * read it without importing one another.
 */

/** localStorage, or undefined where the browser refuses it. */
export function local(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

/** Cache Storage, or undefined where the browser has none (insecure pages) or refuses it. */
export function cacheStorage(): CacheStorage | undefined {
  try {
    return globalThis.caches ?? undefined;
  } catch {
    return undefined;
  }
}

/** The IndexedDB factory, or undefined where the browser has none or refuses it (reading it can throw). */
export function idbFactory(): IDBFactory | undefined {
  try {
    return globalThis.indexedDB ?? undefined;
  } catch {
    return undefined;
  }
}

let warned = false;

/**
 * Says once per page that nothing is kept on this device. Once: every element and store of the
 * page meets the same refusal, and a warning per call would bury the page's own messages.
 */
export function warnNothingStored(reason: unknown): void {
  if (warned) return;
  warned = true;
  const why = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
  console.warn(
    `[mediakit] This browser keeps no data for this page (${why}). Jobs are kept in memory: reloading the page loses them, and an upload in progress.`,
  );
}
