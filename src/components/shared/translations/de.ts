/** German for the strings every element shares. Loaded the first time an element resolves to `de`. */
import type { ErrorParams } from '../../../api/index.js';
import type { Formatter } from '../format.js';
import { registerTranslation } from '../localize.js';
import type { SharedStrings } from '../strings.js';

const credits = (n: number, f: Formatter) => `${f.number(n)} ${f.plural(n) === 'one' ? 'Credit' : 'Credits'}`;

const de: SharedStrings = {
  credits: (p, f) => credits(p.n, f),
  costLine: (p, f) => `Kostet ${credits(p.cost, f)}` + (p.left === undefined ? '' : ` · noch ${credits(p.left, f)}`),
  costNotEnough: (p, f) => `Benötigt ${credits(p.cost, f)}; diese Sitzung hat noch ${credits(p.left, f)}.`,
  timeLeft: (p, f) => `noch etwa ${f.roughDuration(p.seconds)}`,
  elapsed: (p, f) => `${f.clock(p.seconds)} vergangen`,
  rate: (p, f) => `${f.bytes(p.bytesPerSecond)}/s`,
  sentOf: (p, f) => `${f.bytes(p.loaded)} von ${f.bytes(p.total)}`,
  chooseFile: 'Datei auswählen',
  chooseAnother: 'Andere Datei auswählen',
  dropHere: 'oder hierher ziehen',
  pasteHint: 'Sie können auch eine Datei einfügen, solange dieses Feld den Fokus hat.',
  dropActive: 'Loslassen, um diese Datei zu verwenden',
  tryAgain: 'Erneut versuchen',
  topUp: 'Credits aufladen',
  cancel: 'Abbrechen',
  dismiss: 'Schließen',
  download: 'Herunterladen',
  startOver: 'Neu beginnen',
  waitingRetry: (p, f) => `Der Dienst ist ausgelastet. Neuer Versuch automatisch in ${f.unit(p.seconds, 'second')}.`,
  noCharge: 'Es wurde nichts berechnet.',
};

registerTranslation('de', de);
