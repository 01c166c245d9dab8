/**
 * `JobStore`: the jobs of this browser in IndexedDB (idb-keyval, in a database of its own), so a
 * reload, a crash or a lost response never loses one. Records are scoped by proxy endpoint and
 * session subject: two sites, or two users of one browser, never see each other's jobs.
 *
 * A record is written before the creating request is sent (kind, Idempotency-Key, a summary, the
 * request itself), gets its handle after the 202, and every poll's status, progress and output.
 * Other subjects' records go when a new subject's session arrives (src/client/stored-data.ts);
 * old ones, finished or not, go in `prune()`.
 *
 * Where the browser refuses IndexedDB (an opaque-origin sandboxed frame, blocked storage, some
 * private modes), the same API keeps the records in this page's memory (src/client/job-database.ts):
 * everything works until a reload, which loses them. `storageAvailable()` says which.
 */
import type { ModelJobInput } from '../client/media-client.js';
import { jobDatabase, type JobDatabase } from '../client/job-database.js';
import { recordKey } from '../client/stored-data.js';
import { isTerminal } from './job-status.js';
import type { JobSnapshot } from '../events/job-events.js';

export { storageAvailable } from '../client/job-database.js';
export type { EngineErrorCode, JobKind, JobRecordError, JobSnapshot, JobStatus } from '../events/job-events.js';

/** A job as this browser keeps it: what its events say, and the request until the 202 arrives. */
export interface JobRecord extends JobSnapshot {
  /** The request, kept only until the 202 arrives so it can be sent again with the same key. */
  request?: Blob | ModelJobInput;
}

export { TERMINAL, isTerminal } from './job-status.js';

/**
 * The orphan time: a record still `creating` (a stored upload never sent, a job whose handle never
 * came) this long after its last write is deleted, with its video. A day, because the sandbox
 * replays an Idempotency-Key for 24 hours (src/sandbox/idempotency.ts; the spec names no window):
 * past that, a resend may be a new, charged job rather than the lost one.
 */
export const ORPHAN_TTL_MS = 24 * 3600 * 1000;

export interface JobStoreOptions {
  /** IndexedDB database name (in memory where IndexedDB is refused). Default `mediakit-jobs`. */
  database?: string;
  /** How long finished jobs, and jobs nobody polled, are kept. Default 7 days. */
  keepFinishedMs?: number;
}

const keyOf = recordKey;

export class JobStore {
  readonly keepFinishedMs: number;
  readonly #db: JobDatabase;

  constructor(options: JobStoreOptions = {}) {
    this.#db = jobDatabase(options.database);
    this.keepFinishedMs = options.keepFinishedMs ?? 7 * 24 * 3600 * 1000;
  }

  /** Whether the records outlive this page: false where the browser refuses IndexedDB and they live in memory. */
  persistent(): Promise<boolean> {
    return this.#db.persistent();
  }

  get(scope: string, id: string): Promise<JobRecord | undefined> {
    return this.#db.get<JobRecord>(keyOf(scope, id));
  }

  put(record: JobRecord): Promise<void> {
    return this.#db.set(keyOf(record.scope, record.id), record);
  }

  /** Read-modify-write in one transaction; `change` returns the new record or undefined to keep it. */
  async patch(
    scope: string,
    id: string,
    change: (record: JobRecord) => JobRecord | undefined,
  ): Promise<JobRecord | undefined> {
    let result: JobRecord | undefined;
    await this.#db.update<JobRecord | undefined>(keyOf(scope, id), (old) => {
      result = old ? (change(old) ?? old) : undefined;
      return result;
    });
    return result;
  }

  delete(scope: string, id: string): Promise<void> {
    return this.#db.del(keyOf(scope, id));
  }

  /** This scope's jobs, newest first. */
  async list(scope: string): Promise<JobRecord[]> {
    const all = await this.#db.entries<JobRecord>();
    return all
      .filter(([k, v]) => v && typeof k === 'string' && k.startsWith(scope + '\n'))
      .map(([, v]) => v)
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  /**
   * Deletes, in every scope: finished jobs older than `keepFinishedMs`; records still `creating`
   * untouched for ORPHAN_TTL_MS; and jobs nobody polled for `keepFinishedMs` (a user who never came
   * back: only their own session may poll them, so nothing else ever finishes them).
   */
  async prune(now = Date.now()): Promise<number> {
    let n = 0;
    for (const [k, v] of await this.#db.entries<JobRecord>()) {
      const stale =
        !v ||
        (v.finishedAt !== undefined && now - v.finishedAt > this.keepFinishedMs) ||
        (v.status === 'creating' && now - v.updatedAt > ORPHAN_TTL_MS) ||
        (!isTerminal(v.status) && now - v.updatedAt > this.keepFinishedMs);
      if (stale) {
        await this.#db.del(k);
        n++;
      }
    }
    return n;
  }
}
