/**
 * Why a job failed or expired, in the element's language, from its record's error code. The
 * record's `message` (the API's English sentence) is for developers and never shown.
 */
import type { JobRecord } from '../../jobs/job-store.js';
import { addEnglish, type LocalizeController } from './localize.js';
import type { SharedStrings } from './strings.js';

/** Why a job ended, in English (the shipped languages have them in src/translations). */
export const jobStrings = {
  jobInterrupted: 'The upload was interrupted before the video could be kept on this device. Choose it again.',
  jobVideoGone:
    'The upload was interrupted, and the browser no longer has the copy of the video it kept to send it again. Choose it again.',
  jobExpired: 'The provider removed this result after its retention period. Start a new job to get it again.',
  jobNotFound: 'The service no longer knows this job (or it belongs to another session). Start a new job.',
  jobCancelled: 'The upload was stopped before the job was created.',
  jobFailed: 'The service could not finish this job.',
};

export type JobStrings = typeof jobStrings;

addEnglish(jobStrings);

/** The sentence for a failed or expired job's `record.error` (a generic one for the API's own failures, or none given). */
export function jobErrorText(localize: LocalizeController<SharedStrings>, error: JobRecord['error']): string {
  const t = localize as unknown as LocalizeController<JobStrings>;
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
