/**
 * Why a job failed or expired, in the element's language, from its record's error code. The
 * record's `message` (the API's English sentence) is for developers and never shown.
 */
import type { JobRecord } from '../../jobs/job-store.js';
import type { LocalizeController } from './localize.js';
import type { SharedStrings } from './strings.js';

/** The sentence for a failed or expired job's `record.error` (a generic one for the API's own failures, or none given). */
export function jobErrorText(t: LocalizeController<SharedStrings>, error: JobRecord['error']): string {
  switch (error?.code) {
    case 'interrupted':
      return t.term('jobInterrupted');
    case 'video_gone':
      return t.term('jobVideoGone');
    case 'expired':
      return t.term('jobExpired');
    case 'not_found':
      return t.term('jobNotFound');
    case 'cancelled':
      return t.term('jobCancelled');
    default:
      return t.term('jobFailed');
  }
}
