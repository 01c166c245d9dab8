/**
 * Creating a job: the life of one creating request, from the record written before its first
 * byte to the 202 that gives the job its handle. A refusal leaves no record; a request that may
 * have created the job upstream (the answer was lost, or the upload had finished) keeps it, so
 * `resume()` sends it again with the same Idempotency-Key and gets that job, charged once.
 */
import { ApiError } from '../api/index.js';
import type { CreateOptions, MediaClient, ModelJobInput } from '../client/media-client.js';
import type { UploadFeed } from './job-listeners.js';
import { applyCreated } from './job-records.js';
import type { JobRecord, JobRecordError, JobStore } from './job-store.js';

/** Requests bigger than this are written to IndexedDB beside the upload rather than before it. */
const KEEP_BESIDE_BYTES = 16 * 1024 * 1024;

/** What sending needs from its poller. */
export interface SendContext {
  client: MediaClient;
  store: JobStore;
  uploads: UploadFeed;
  /** Tells this tab's listeners of a record (not stored, not posted). */
  notify(record: JobRecord): void;
  /** Changes a stored record and tells this tab and the others. */
  update(scope: string, id: string, change: (r: JobRecord) => JobRecord): Promise<JobRecord | undefined>;
}

/**
 * Sends a job's creating request with the record's Idempotency-Key, writing the record (and its
 * request, for a resend after a reload) before the first byte goes out, and records the 202.
 * `kept`: the record and its request are in the store already (a resend), so nothing is written
 * before sending.
 */
export async function sendJob(
  context: SendContext,
  record: JobRecord,
  options: CreateOptions = {},
  kept = false,
): Promise<JobRecord> {
  const { client, store, uploads, notify, update } = context;
  let uploaded = false;
  let created = false;
  const call: CreateOptions = {
    ...options,
    idempotencyKey: record.idempotencyKey,
    beforeSend: async () => {
      const { request, ...light } = record;
      if (kept) {
        // A resend: record and video are in the store. Writing them again would first drop the
        // video (see below), so a reload in that window would lose it, for 500 MB written twice.
      } else if (request instanceof Blob && request.size > KEEP_BESIDE_BYTES) {
        // A big video is written to IndexedDB beside the upload, not before it: storing 500 MB
        // first delayed the first uploaded byte by 2.7 s (npm run bench -- upload). Until it is
        // in, a reload cannot resend it (resume() then ends it failed, `interrupted`, and says so).
        await store.put(light);
        void store
          .patch(record.scope, record.id, (r) => (r.status === 'creating' && !r.handle ? { ...r, request } : r))
          .catch((err: unknown) =>
            console.warn('[mediakit] could not keep the video for a resend after a reload', err),
          );
      } else {
        await store.put(record);
      }
      notify(record);
    },
    onProgress: (p) => {
      if (p.total > 0 && p.loaded >= p.total) uploaded = true;
      uploads.report(record.id, p);
      options.onProgress?.(p);
    },
  };
  try {
    const job =
      record.kind === 'video'
        ? (await client.createVideoJob(record.request as Blob, call)).data
        : (await client.createModelJob(record.request as ModelJobInput, call)).data;
    created = true;
    return (await update(record.scope, record.id, (r) => applyCreated(r, job))) ?? record;
  } catch (err) {
    // Keep the record when the job may exist upstream (the answer was lost, or the upload had
    // finished before a cancel): resume() sends it again with the same key and gets that job.
    const maybeCreated = err instanceof ApiError ? err.status === 0 || err.status >= 502 : uploaded;
    if (!maybeCreated) {
      await store.delete(record.scope, record.id);
      // An API refusal keeps its code and its English message (for developers); anything else is a cancel.
      const error: JobRecordError =
        err instanceof ApiError ? { code: err.code, message: err.message } : { code: 'cancelled' };
      notify({ ...record, status: 'failed', error });
    }
    throw err;
  } finally {
    // Its listeners now follow the record; a job still being created has no upload in flight.
    uploads.end(record.id, created);
  }
}
