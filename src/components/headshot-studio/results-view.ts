/**
 * The results of <headshot-studio>: a 2x2 grid, one cell per requested slot with its meaning and
 * its state (making, succeeded, failed with the service's message and "retry this one"), what the
 * answer charged, and the actions on the batch. Rendering only; the element owns the state.
 */
import { html, nothing } from 'lit';
import { headshotCharge, type HeadshotStyle, type VariantSlot } from '../../api/index.js';
import type { HeadshotSlot } from '../../events/headshots-ready.js';
import type { LocalizeController } from '../shared/localize.js';
import type { SharedStrings } from '../shared/strings.js';
import type { HeadshotStrings } from './strings.js';
import { safeUrl } from '../../internal/safe-url.js';

export interface SlotView extends HeadshotSlot {
  /** A request for this slot is out. */
  loading: boolean;
  url?: string;
}

export interface ResultsView {
  t: LocalizeController<HeadshotStrings & SharedStrings>;
  results: SlotView[];
  style: HeadshotStyle;
  working: boolean;
  chosen: VariantSlot | undefined;
  /** What the last answer charged and left (from the response). */
  last: { charged: number; remaining: number } | undefined;
  chargedTotal: number;
  retryAllowed: boolean;
  slotName(slot: VariantSlot): string;
  fileName(slot: VariantSlot): string;
  onChoose(slot: VariantSlot): void;
  onRetry(slot: VariantSlot): void;
  onDownloadAll(): void;
  onAgain(): void;
  onReset(): void;
}

export function renderResults(v: ResultsView) {
  const t = v.t;
  const ok = v.results.filter((r) => r.status === 'succeeded' && !r.loading).length;
  const working = v.working;
  const allFailed = !working && ok === 0;
  return html`<div class="results-wrap">
    <h3 class="results-title" tabindex="-1">${working && ok === 0 ? t.term('hsWorking') : allFailed ? t.term('hsAllFailed') : t.term('hsReady', { ok, total: v.results.length })}</h3>
    ${v.last && !allFailed ? html`<p class="muted nums" part="charged">${t.term('hsCharged', { charged: v.last.charged, left: v.last.remaining })}${v.chargedTotal !== v.last.charged ? html` · ${t.term('hsChargedTotal', { charged: v.chargedTotal })}` : nothing}</p>` : nothing}
    ${allFailed ? html`<p class="notice" part="charged">${t.term('noCharge')}</p>` : nothing}
    <ul class="grid" part="results" role="list">${v.results.map((r) => renderSlot(v, r))}</ul>
    <div class="actions">
      ${ok > 0 ? html`<button type="button" part="download-all" class="secondary" ?disabled=${working} @click=${v.onDownloadAll}>${t.term('hsDownloadAll')}</button>` : nothing}
      <button type="button" class="secondary" ?disabled=${working} @click=${v.onAgain}>${t.term('hsMakeMore')}</button>
      <button type="button" class="link" ?disabled=${working} @click=${v.onReset}>${t.term('hsNewPhoto')}</button>
    </div>
  </div>`;
}

function renderSlot(v: ResultsView, r: SlotView) {
  const t = v.t;
  const name = v.slotName(r.slot);
  const state = r.loading ? 'loading' : r.status;
  const chosen = v.chosen === r.slot && r.status === 'succeeded';
  return html`<li part="result ${state}" class="slot ${state} ${chosen ? 'chosen' : ''}" data-slot=${r.slot} aria-busy=${r.loading ? 'true' : 'false'}>
    <div class="shot">
      ${r.loading
        ? html`<div class="placeholder"><div class="meter indeterminate" role="progressbar" aria-label=${`${name}: ${t.term('hsWorkingSlot')}`}><div></div></div><p class="muted">${t.term('hsWorkingSlot')}</p></div>`
        : r.status === 'succeeded'
          ? html`<img src=${safeUrl(r.url) ?? nothing} width=${r.width ?? nothing} height=${r.height ?? nothing} alt=${t.term('hsSlotImgAlt', { slot: name, style: t.term(`hsStyle_${v.style}`) })} />`
          : html`<div class="placeholder failed-box">
              <svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 7v6M12 16.5v.5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>
              <p><strong>${t.term('hsSlotFailed')}</strong></p>
              <p class="muted">${t.term('hsSlotFailedHint')}</p>
            </div>`}
      ${chosen ? html`<span class="badge">✓ ${t.term('hsChosen')}</span>` : nothing}
    </div>
    <h4 id=${`name-${r.slot}`} tabindex="-1">${name}</h4>
    <div class="actions">
      ${!r.loading && r.status === 'succeeded'
        ? html`<button type="button" part="choose-result" class=${chosen ? 'primary' : 'secondary'} aria-pressed=${chosen ? 'true' : 'false'} aria-describedby=${`name-${r.slot}`} @click=${() => v.onChoose(r.slot)}>
              ${chosen ? t.term('hsChosen') : t.term('hsChooseThis')}
            </button>
            ${safeUrl(r.url) ? html`<a part="download-button" class="button secondary" href=${r.url} download=${v.fileName(r.slot)} aria-describedby=${`name-${r.slot}`}>${t.term('hsDownloadOne')}</a>` : nothing}`
        : nothing}
      ${!r.loading && r.status === 'failed'
        ? html`<button type="button" part="retry-button" class="secondary" ?disabled=${!v.retryAllowed}
            aria-describedby=${`name-${r.slot}`} @click=${() => v.onRetry(r.slot)}>${t.term('hsRetryOne', { cost: headshotCharge(1) })}</button>`
        : nothing}
    </div>
  </li>`;
}
