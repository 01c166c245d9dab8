import { registerTranslation } from '../shared/localize.js';
import type { BadgeStrings } from './strings.js';

const de: BadgeStrings = {
  cbLabel: 'Credits',
  cbSessionLeft: (p, f) => `noch ${p.n} ${f.plural(p.count) === 'one' ? 'Credit' : 'Credits'}`,
  cbAccountLeft: (p, f) => `${p.n} ${f.plural(p.count) === 'one' ? 'Credit' : 'Credits'} im Konto`,
  cbSessionTitle: 'Credits, die diese Sitzung noch ausgeben kann',
  cbAccountTitle: 'Kontostand der Website',
  cbLoading: 'Credits werden geladen …',
  cbOffline: 'offline',
  cbOfflineTitle: 'Offline: Das ist der zuletzt bekannte Stand; er wird aktualisiert, sobald die Verbindung wieder da ist.',
  cbError: 'Credits nicht verfügbar',
  cbRetry: 'Erneut laden',
  cbLow: 'knapp',
  cbLowSay: (p, f) => `Die Credits werden knapp: noch ${f.number(p.n)}.`,
};

registerTranslation('de', de);
