/**
 * Whether a job's status is its end. Its own module so an element's first load can ask without
 * the job store's storage code (IndexedDB), which comes with the job engine.
 */
import type { JobStatus } from '../events/job-events.js';

export const TERMINAL: readonly JobStatus[] = ['succeeded', 'failed', 'expired'];
export const isTerminal = (status: JobStatus) => TERMINAL.includes(status);
