/**
 * What a viewer shows around its canvas: the poster slot or a hint until the first frame, the
 * progress bar, the error in the element's language, the notices (a thinned or a streaming scene)
 * and the polite live region that announces the stages.
 */
import { html, nothing } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import type { LocalizeController } from '../../internal/localize.js';
import { styleProps } from '../../internal/style-props.js';
import type { Thinned } from './viewer-renderer.js';
import type { ViewerStrings } from './viewer-strings.js';

export type ViewerStatus = 'idle' | 'loading' | 'loaded' | 'error';

/** The viewer's state that its view reads. */
export interface ViewerViewState {
  status: ViewerStatus;
  progress: number | undefined;
  /** Which words describe what the viewer shows. */
  kind: 'model' | 'scene';
  alt: string;
  src: string;
  /** A new canvas after a context was given back: a canvas keeps its lost context for good. */
  canvasGeneration: number;
  hasPoster: boolean;
  thinned: Thinned | undefined;
  streamed: Thinned | undefined;
  errorMessage: string;
  errorCode: string;
  /** The page set `strings`: the error is said by its code, in those words. */
  ownStrings: boolean;
  onPosterChange(e: Event): void;
}

export function renderViewer(t: LocalizeController<ViewerStrings>, v: ViewerViewState) {
  const label = v.alt || t.term(v.kind === 'model' ? 'vwModel' : 'vwScene');
  const pct = v.progress === undefined ? undefined : Math.round(v.progress * 100);
  // The error itself is announced by its role=alert; stages only here.
  const announce =
    v.status === 'loading'
      ? t.term('vwLoading', { label })
      : v.status === 'loaded'
        ? t.term('vwLoaded', { label })
        : '';
  const waiting = v.status === 'idle' || v.status === 'loading';
  return html`<div part="base" class="base">
      ${keyed(v.canvasGeneration, html`<canvas part="canvas" tabindex="0" role="img" aria-label=${t.term('vwCanvas', { label })}></canvas>`)}
      <slot name="poster" ?hidden=${v.status === 'loaded' || !!v.streamed} @slotchange=${v.onPosterChange}></slot>
      ${waiting && !v.hasPoster && !v.streamed ? renderHint(t, v) : nothing}
      ${
        v.status === 'loading'
          ? html`<div part="progress" class="progress" role="progressbar" aria-label=${t.term('vwLoading', { label })} aria-valuemin="0" aria-valuemax="100" aria-valuenow=${pct ?? nothing}>
            <div class="bar" style=${styleProps({ inlineSize: `${pct ?? 30}%` })}></div>
          </div>`
          : nothing
      }
      ${v.status === 'error' ? html`<div part="error" class="error" role="alert">${errorText(t, v)}</div>` : nothing}
      ${v.status === 'loaded' && v.thinned ? html`<div part="notice" class="notice" role="status">${t.term('vwThinned', v.thinned)}</div>` : nothing}
      ${
        v.status === 'loading' && v.streamed
          ? html`<div part="notice streaming" class="notice">${t.term('vwStreaming', { percent: pct ?? 0, ...v.streamed })}</div>`
          : nothing
      }
      <div class="sr-only" aria-live="polite">${announce}</div>
    </div>`;
}

/** English keeps the detailed message; other languages say what happened by the error's code. */
function errorText(t: LocalizeController<ViewerStrings>, v: ViewerViewState): string {
  if (t.resolved === 'en' && !v.ownStrings) return v.errorMessage;
  const code = v.errorCode;
  if (code === 'network') return t.term('vwErrNetwork');
  if (code.startsWith('http_')) return t.term('vwErrHttp', { status: Number(code.slice(5)) });
  if (code === 'unsupported_format') return t.term('vwErrFormat');
  if (code === 'webgl_unavailable') return t.term('vwErrWebgl');
  if (code === 'timeout') return t.term('vwErrTimeout');
  return t.term('vwErrCorrupt');
}

function renderHint(t: LocalizeController<ViewerStrings>, v: ViewerViewState) {
  const label = v.alt || t.term(v.kind === 'model' ? 'vwModel' : 'vwScene');
  const text = v.src ? t.term('vwLoading', { label }) : t.term(v.kind === 'model' ? 'vwEmptyModel' : 'vwEmptyScene');
  return html`<div part="hint" class="hint" aria-hidden="true">
      <svg viewBox="0 0 24 24" width="32" height="32" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round">
        <path d="M12 2.75 20.25 7.5v9L12 21.25 3.75 16.5v-9L12 2.75Z" />
        <path d="M3.75 7.5 12 12.25l8.25-4.75M12 12.25v9" />
      </svg>
      <span>${text}</span>
    </div>`;
}
