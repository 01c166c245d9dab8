import { registerTranslation } from '../../internal/localize.js';
import type { ViewerStrings } from './viewer-strings.js';

const de: ViewerStrings = {
  vwModel: '3D-Modell',
  vwScene: 'Gaussian-Splat-Szene',
  vwEmptyModel: 'Noch kein Modell',
  vwEmptyScene: 'Noch keine Szene',
  vwLoading: (p) => `${p.label} wird geladen …`,
  vwLoaded: (p) => `${p.label} geladen`,
  vwCanvas: (p) => `${p.label}. Ziehen oder mit den Pfeiltasten drehen, + und - zum Zoomen.`,
  vwErrNetwork: 'Die Datei konnte nicht geladen werden. Prüfen Sie die Verbindung und versuchen Sie es erneut.',
  vwErrHttp: (p) => `Die Datei konnte nicht geladen werden (der Server antwortete ${p.status}).${p.status === 403 ? ' Der Link ist vielleicht abgelaufen.' : ''}`,
  vwErrFormat: 'Dieser Dateityp kann hier nicht angezeigt werden.',
  vwErrCorrupt: 'Diese Datei ist beschädigt oder nicht, was sie vorgibt zu sein.',
  vwErrWebgl: 'Dieser Browser kann kein 3D anzeigen (WebGL ist nicht verfügbar).',
  vwErrTimeout: 'Das Anzeigen hat zu lange gedauert; die Datei ist für dieses Gerät vielleicht zu groß.',
};

registerTranslation('de', de);
