/**
 * What a viewer says and marks outside its canvas: the hint until the first frame (or the poster),
 * the error in the element's language, and the custom states (`:state(loading|loaded|failed)`: the
 * family's words, README "The family's words").
 */
import { html } from 'lit';
import type { LocalizeController } from '../../internal/localize.js';
import type { ViewerStrings } from './viewer-strings.js';

export type ViewerStatus = 'idle' | 'loading' | 'loaded' | 'failed';

/**
 * The error's words: English keeps the detailed `message`; other languages, or a page that set
 * `strings` (`ownStrings`), say what happened by the error's code.
 */
export function errorText(
  t: LocalizeController<ViewerStrings>,
  code: string,
  message: string,
  ownStrings: boolean,
): string {
  if (t.resolved === 'en' && !ownStrings) return message;
  if (code === 'network') return t.term('vwErrNetwork');
  if (code.startsWith('http_')) return t.term('vwErrHttp', { status: Number(code.slice(5)) });
  if (code === 'unsupported_format') return t.term('vwErrFormat');
  if (code === 'webgl_unavailable') return t.term('vwErrWebgl');
  if (code === 'timeout') return t.term('vwErrTimeout');
  return t.term('vwErrCorrupt');
}

/** The hint shown until the first frame when there is no poster: loading, or nothing to show yet. */
export function renderHint(t: LocalizeController<ViewerStrings>, kind: 'model' | 'scene', alt: string, src: string) {
  const label = alt || t.term(kind === 'model' ? 'vwModel' : 'vwScene');
  const text = src ? t.term('vwLoading', { label }) : t.term(kind === 'model' ? 'vwEmptyModel' : 'vwEmptyScene');
  return html`<div part="hint" class="hint" aria-hidden="true">
    <svg viewBox="0 0 24 24" width="32" height="32" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round">
      <path d="M12 2.75 20.25 7.5v9L12 21.25 3.75 16.5v-9L12 2.75Z" />
      <path d="M3.75 7.5 12 12.25l8.25-4.75M12 12.25v9" />
    </svg>
    <span>${text}</span>
  </div>`;
}

/** Sets the custom state of `status` on the element and clears the others. */
export function setViewerStates(internals: ElementInternals, status: ViewerStatus): void {
  for (const s of ['loading', 'loaded', 'failed'] as const) {
    try {
      if (s === status) internals.states.add(s);
      else internals.states.delete(s);
    } catch {
      // Browsers without CustomStateSet: the states are a styling nicety only.
    }
  }
}
