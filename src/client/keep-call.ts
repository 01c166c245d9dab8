/**
 * The request of `MediaClient.keep()` (`POST {endpoint}/results`): a finished job's file, named by
 * its handle, or the bytes of an image only this page holds. Loaded with the first result kept.
 */
import type { KeepSource } from './client-types.js';
import type { SendInit } from './fetch-retry.js';

/** The request for `source`, sent with the Idempotency-Key `key` (a retry stores the file once). */
export function keepInit(source: KeepSource, key: string, signal: AbortSignal | undefined): SendInit {
  return 'job' in source
    ? {
        method: 'POST',
        body: JSON.stringify({ job: source.job, file: source.file }),
        headers: { 'content-type': 'application/json' },
        key,
        signal,
      }
    : {
        method: 'POST',
        body: source.blob,
        headers: {
          'content-type': source.blob.type,
          'x-mediakit-filename': source.name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64),
        },
        key,
        signal,
      };
}
