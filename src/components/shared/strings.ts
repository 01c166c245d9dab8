/**
 * The English strings every element shares (file intake, costs, progress, why a job ended). Each
 * element adds its own dictionary beside its class; other languages: src/translations/.
 */
import type { Formatter } from '../../internal/format.js';

const credits = (n: number, f: Formatter) => `${f.number(n)} ${f.plural(n) === 'one' ? 'credit' : 'credits'}`;

export const sharedStrings = {
  credits: (p: { n: number }, f: Formatter) => credits(p.n, f),
  costLine: (p: { cost: number; left?: number | undefined }, f: Formatter) =>
    `Costs ${credits(p.cost, f)}` + (p.left === undefined ? '' : ` · ${credits(p.left, f)} left`),
  costNotEnough: (p: { cost: number; left: number }, f: Formatter) =>
    `Needs ${credits(p.cost, f)}; this session has ${credits(p.left, f)} left.`,
  timeLeft: (p: { seconds: number }, f: Formatter) => `about ${f.roughDuration(p.seconds)} left`,
  elapsed: (p: { seconds: number }, f: Formatter) => `${f.clock(p.seconds)} elapsed`,
  rate: (p: { bytesPerSecond: number }, f: Formatter) => `${f.bytes(p.bytesPerSecond)}/s`,
  sentOf: (p: { loaded: number; total: number }, f: Formatter) => `${f.bytes(p.loaded)} of ${f.bytes(p.total)}`,
  chooseFile: 'Choose a file',
  chooseAnother: 'Choose another file',
  dropHere: 'or drop it here',
  pasteHint: 'You can also paste a file while this box has focus.',
  dropActive: 'Drop to use this file',
  tryAgain: 'Try again',
  topUp: 'Get more credits',
  cancel: 'Cancel',
  dismiss: 'Dismiss',
  download: 'Download',
  startOver: 'Start over',
  keepSaving: 'Saving the result…',
  keepSaved: 'Saved.',
  keepFailed: 'The result could not be saved. It is still shown here: try again.',
  keepRetry: 'Save again',
  fieldCreate: 'Create',
  fieldOpen: 'Open',
  fieldReplace: 'Replace',
  fieldRemove: 'Remove',
  fieldDone: 'Done',
  fieldEmpty: 'Nothing made yet.',
  fieldRunning: 'In progress. It goes on while you edit.',
  fieldNotSaved: 'Made, but not saved.',
  noStorageUpload: 'This browser keeps no data for this page: reloading it will lose the upload.',
  waitingRetry: (p: { seconds: number }, f: Formatter) =>
    `The service is busy. Trying again by itself in ${f.unit(p.seconds, 'second')}.`,
  noCharge: 'Nothing was charged.',
  jobInterrupted: 'The upload was interrupted before the video could be kept on this device. Choose it again.',
  jobVideoGone:
    'The upload was interrupted, and the browser no longer has the copy of the video it kept to send it again. Choose it again.',
  jobExpired: 'The provider removed this result after its retention period. Start a new job to get it again.',
  jobNotFound: 'The service no longer knows this job (or it belongs to another session). Start a new job.',
  jobCancelled: 'The upload was stopped before the job was created.',
  jobFailed: 'The service could not finish this job.',
};

export type SharedStrings = typeof sharedStrings;
