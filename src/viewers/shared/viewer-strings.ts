/**
 * The viewers' words as the elements' dictionaries have them (English here, the other languages in
 * src/translations/, loaded on first use), through the same LocalizeController: the label, the empty hint, loading and loaded, the
 * canvas description, a sentence per error code, the notice of a thinned scene, and the progress of a scene shown while it downloads. The detailed
 * English message of an error (viewer-messages.ts) stays in `mk-viewer-failed`'s detail for developers.
 */
import type { Formatter } from '../../internal/format.js';

export const viewerStrings = {
  vwModel: '3D model',
  vwScene: 'Gaussian-splat scene',
  vwEmptyModel: 'No model yet',
  vwEmptyScene: 'No scene yet',
  vwLoading: (p: { label: string }) => `Loading ${p.label}…`,
  vwLoaded: (p: { label: string }) => `${p.label} loaded`,
  vwCanvas: (p: { label: string }) => `${p.label}. Drag or use the arrow keys to turn, + and - to zoom.`,
  vwErrNetwork: 'The file could not be downloaded. Check the connection and try again.',
  vwErrHttp: (p: { status: number }) =>
    `The file could not be downloaded (the server answered ${p.status}).${p.status === 403 ? ' The link may have expired.' : ''}`,
  vwErrFormat: 'This file type cannot be shown here.',
  vwErrCorrupt: 'This file is damaged or not what it claims to be.',
  vwErrWebgl: 'This browser cannot show 3D (WebGL is not available).',
  vwErrTimeout: 'The file took too long to show; it may be too large for this device.',
  vwThinned: (p: { shown: number; total: number }, f: Formatter) =>
    `Showing ${f.number(p.shown)} of ${f.number(p.total)} splats: the scene is larger than this device's budget (splat-budget).`,
  vwStreaming: (p: { percent: number; shown: number; total: number }, f: Formatter) =>
    `Loading ${f.percent(p.percent / 100)} · ${f.number(p.shown)} of ${f.number(p.total)} splats on screen`,
};

export type ViewerStrings = typeof viewerStrings;
