/**
 * Results kept on this device by job (Cache Storage), so a reload shows a scene or model with no
 * download, and a job whose links expired still shows until the browser evicts it. Quota aware:
 * before storing, the oldest results go until the new one fits in half of what is free. Keyed by
 * scope (endpoint and hashed subject), so another user's session deletes them and
 * clearStoredData() finds them (src/client/stored-data.ts owns the names).
 *
 * Where the browser refuses Cache Storage (an opaque-origin sandboxed frame, blocked storage),
 * nothing is kept: `get` finds nothing, `put` says false, and the element downloads the result
 * again when it shows it again. Nothing here throws.
 */
import { cacheStorage } from '../../client/device-storage.js';
import { RESULT_CACHE as CACHE, resultUrl as keyUrl } from '../../client/stored-data.js';

const STAMP = 'x-mediakit-stored-at';

/** Cache Storage where this page may keep results (a page, not a worker without `location`). */
const storage = () => (typeof location !== 'undefined' ? cacheStorage() : undefined);

export const resultCache = {
  available(): boolean {
    return storage() !== undefined;
  },

  async get(scope: string, id: string): Promise<Blob | undefined> {
    const caches = storage();
    if (!caches) return undefined;
    try {
      const hit = await (await caches.open(CACHE)).match(keyUrl(scope, id));
      return hit ? await hit.blob() : undefined;
    } catch {
      return undefined;
    }
  },

  /** Stores a result; false when it does not fit (it is then simply not kept). */
  async put(scope: string, id: string, blob: Blob): Promise<boolean> {
    const caches = storage();
    if (!caches) return false;
    try {
      const cache = await caches.open(CACHE);
      if (navigator.storage?.estimate) {
        const { usage = 0, quota = 0 } = await navigator.storage.estimate();
        let free = quota - usage;
        if (blob.size > quota / 2) return false;
        if (blob.size > free / 2) {
          const keys = await cache.keys();
          const dated = await Promise.all(
            keys.map(async (k) => ({
              k,
              at: Number((await cache.match(k))?.headers.get(STAMP) ?? 0),
              size: Number((await cache.match(k))?.headers.get('content-length') ?? 0),
            })),
          );
          dated.sort((a, b) => a.at - b.at);
          for (const d of dated) {
            if (blob.size <= free / 2) break;
            await cache.delete(d.k);
            free += d.size;
          }
          if (blob.size > free / 2) return false;
        }
      }
      await cache.put(
        keyUrl(scope, id),
        new Response(blob, {
          headers: {
            'content-type': blob.type || 'application/octet-stream',
            'content-length': String(blob.size),
            [STAMP]: String(Date.now()),
          },
        }),
      );
      return true;
    } catch {
      return false;
    }
  },

  async delete(scope: string, id: string): Promise<void> {
    const caches = storage();
    if (!caches) return;
    try {
      await (await caches.open(CACHE)).delete(keyUrl(scope, id));
    } catch {
      // Refused or gone: nothing is kept under that key either way.
    }
  },
};
