import type { ModelStats } from '../api/index.js';
import type { JobRecord } from '../jobs/job-store.js';

/** The four moments of a job, dispatched by JobController on its host element. */
export type JobEventType = 'mk-job-created' | 'mk-job-progress' | 'mk-job-succeeded' | 'mk-job-failed';

/** What a job event says beside the record. */
export interface JobEventExtras {
  /** The job ended while the page was closed or before it was reloaded (the first answer after a reload). */
  whileAway: boolean;
  /** A failed job whose charge was refunded (every job that was created and then failed). */
  refunded: boolean;
  /** A succeeded 3D job's result: the GLB's download URL (absolute; a proxy link that expires, see `job.output.links_expire_at`), its statistics and its seed. */
  model?: ModelResult;
}

/** What a succeeded 3D model job made. */
export interface ModelResult {
  url: string;
  stats: ModelStats;
  seed: number;
}

/** A job was created (or adopted), moved, succeeded, or failed/expired; `detail` is its record. */
export class JobEvent extends Event {
  readonly detail: JobRecord & JobEventExtras;

  constructor(type: JobEventType, record: JobRecord, extras: Partial<JobEventExtras> = {}) {
    super(type, { bubbles: true, composed: true });
    this.detail = { ...record, whileAway: extras.whileAway ?? false, refunded: extras.refunded ?? false, ...(extras.model ? { model: extras.model } : {}) };
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-job-created': JobEvent;
    'mk-job-progress': JobEvent;
    'mk-job-succeeded': JobEvent;
    'mk-job-failed': JobEvent;
  }
}
