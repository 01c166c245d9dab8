/**
 * The English strings every element shares on first load (file intake, costs, progress, keeping).
 * Each element adds its own dictionary beside its class; words only a later part needs come with it
 * (field mode's, the error panel's, why a job ended); other languages: src/translations/.
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
  waitingRetry: (p: { seconds: number }, f: Formatter) =>
    `The service is busy. Trying again by itself in ${f.unit(p.seconds, 'second')}.`,
  noCharge: 'Nothing was charged.',
};

export type SharedStrings = typeof sharedStrings;
