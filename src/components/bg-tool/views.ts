/**
 * The card of <bg-tool> under its title, from top to bottom: the drop zone and the address field
 * while there is no image; the check; the picture (the original, then the comparison); the options
 * and the run button; the 429 countdown; the error panel. Rendering only; the element owns the state.
 */
import { html, nothing } from 'lit';
import { imageLimits, limitsLine } from '../shared/limits.js';
import type { BgView } from './types.js';

/** The card's body; `views` (image-views.ts, loaded after the first render) draws the image, its result and the options. */
export function renderBody(v: BgView, views: typeof import('./image-views.js') | undefined) {
  const { t, image } = v;
  const { source, checking } = image;
  const shown = source && !checking;
  // A result shown without its original (a value set from outside) is left by "Use another image".
  return html`${source || v.result || v.restoring ? nothing : renderIntake(v)}
    ${checking ? html`<p>${t.term('bgChecking')}</p>` : nothing}
    ${v.result ? views?.renderResult(v, v.result) : shown ? views?.renderBefore(v) : nothing}
    ${shown ? views?.renderOptions(v) : nothing}
    ${v.waitSeconds ? html`<p class="notice" part="wait">${t.term('waitingRetry', { seconds: v.waitSeconds })}</p>` : nothing}
    ${
      v.error
        ? v.panel.render(t, v.error, {
            onChoose: v.choose,
            onRetry: source ? v.start : v.restore,
            onRestart: v.reset,
            topUpHref: v.topUpHref,
            detail: v.savedFacts,
          })
        : nothing
    }`;
}

function renderIntake(v: BgView) {
  const { t, intake } = v;
  return html`<div part="drop-zone" class="drop ${intake.dragging ? 'dragging' : ''}" data-validity-anchor>
      <svg viewBox="0 0 24 24" aria-hidden="true"><rect x="3" y="4" width="18" height="16" rx="2" fill="none" stroke="currentColor" stroke-width="1.6"/><circle cx="9" cy="10" r="2" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M4 18l5-5 4 4 3-3 4 4" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/></svg>
      ${intake.render(t.term('bgChoose'), { describedBy: 'limits' })}
      <p class="muted">${intake.dragging ? t.term('dropActive') : t.term('dropHere')}</p>
      ${limitsLine(t.term('bgLimits', imageLimits(t.f)))}
    </div>
    <div class="url-row">
      <label for="url">${t.term('bgUrlLabel')}</label>
      <div class="row">
        <input id="url" part="url-input" type="url" inputmode="url" autocomplete="off" placeholder="https://" .value=${v.url.text}
          aria-invalid=${v.url.invalid ? 'true' : 'false'} aria-describedby=${v.url.invalid ? 'url-error' : nothing} ?disabled=${v.disabled}
          @input=${(e: Event) => v.url.type((e.target as HTMLInputElement).value)}
          @keydown=${(e: KeyboardEvent) => e.key === 'Enter' && (e.preventDefault(), v.useUrl())} />
        <button type="button" class="secondary" ?disabled=${v.disabled || !v.url.text.trim()} @click=${v.useUrl}>${t.term('bgUrlUse')}</button>
      </div>
      ${v.url.invalid ? html`<p class="invalid" id="url-error">${t.term('bgUrlInvalid')}</p>` : nothing}
    </div>`;
}
