/**
 * The playground's result store: kept results in the browser's Cache Storage, so what a visitor
 * kept in the playground is still there after a reload and after the Service Worker restarts
 * (the sandbox behind it starts afresh; the kept files do not). Streams in and out: `cache.put`
 * takes the stream as it comes, and a range is a slice of the stored Blob.
 */
import { checkKey, keptMetaOf, type KeptRange, type ResultStore } from '../proxy/keep/result-store.js';

const META = 'x-mediakit-kept-meta';
const BYTES = 'x-mediakit-kept-bytes';

export function cacheResultStore(cacheName = 'mediakit-playground-results'): ResultStore {
  const open = () => caches.open(cacheName);
  const url = (key: string) => `https://mediakit-playground.invalid/results/${checkKey(key)}`;
  const read = async (key: string) => {
    const response = await (await open()).match(url(key));
    if (!response) return null;
    const meta = keptMetaOf(JSON.parse(response.headers.get(META) ?? 'null'));
    if (!meta) return null;
    return { response, meta, bytes: Number(response.headers.get(BYTES) ?? 0) };
  };
  return {
    async put(key, body, meta) {
      const cache = await open();
      // Stored under a temporary name first, then under the key with its length: a cut stream leaves nothing under the key.
      const temporary = url(key) + '.partial';
      try {
        await cache.put(temporary, new Response(body));
        const blob = await (await cache.match(temporary))!.blob();
        await cache.put(
          url(key),
          new Response(blob, { headers: { [META]: JSON.stringify(meta), [BYTES]: String(blob.size) } }),
        );
        return { bytes: blob.size };
      } finally {
        await cache.delete(temporary);
      }
    },
    async get(key: string, range?: KeptRange) {
      const found = await read(key);
      if (!found) return null;
      const blob = await found.response.blob();
      const part = range ? blob.slice(range.start, range.end === undefined ? undefined : range.end + 1) : blob;
      return { body: part.stream() as ReadableStream<Uint8Array>, meta: found.meta, bytes: blob.size };
    },
    async head(key) {
      const found = await read(key);
      return found && { meta: found.meta, bytes: found.bytes };
    },
    async delete(key) {
      await (await open()).delete(url(key));
    },
  };
}
