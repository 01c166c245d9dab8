import type { JobRecord } from '../jobs/job-store.js';

/** The four moments of a job, dispatched by JobController on its host element. */
export type JobEventType = 'mk-job-created' | 'mk-job-progress' | 'mk-job-succeeded' | 'mk-job-failed';

/** A job was created (or adopted), moved, succeeded, or failed/expired; `detail` is its record. */
export class JobEvent extends Event {
  readonly detail: JobRecord;

  constructor(type: JobEventType, record: JobRecord) {
    super(type, { bubbles: true, composed: true });
    this.detail = record;
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
