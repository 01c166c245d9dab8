/**
 * The results of <headshot-studio>: a 2x2 grid, one cell per requested slot with its meaning and
 * its state (making, succeeded, or failed in our words with "retry this one": the service's own
 * message is for developers and stays in `headshots`), what the answer charged, and the actions on
 * the batch. Rendering only; the element owns the state.
 */
import { html, nothing } from 'lit';
import { headshotCharge } from '../../api/index.js';
import { safeUrl } from '../../internal/safe-url.js';
import { renderProgress } from '../shared/progress.js';
import type { SlotView } from './batch.js';
import type { StudioView } from './types.js';

export { resultStyles } from './results-view.styles.js';

/** The grid of the batch, what it charged, and the actions on it ("change style or versions": back to the choices, same photo). */
export function renderResults(v: StudioView) {
  const { t, batch } = v;
  const results = batch.results;
  const ok = results.filter((r) => r.status === 'succeeded' && !r.loading).length;
  const working = v.status === 'sending';
  const busy = working || v.off;
  const allFailed = !working && ok === 0;
  return html`<div class="results-wrap">
    <h3 class="results-title" tabindex="-1">${working && ok === 0 ? t.term('hsWorking') : allFailed ? t.term('hsAllFailed') : t.term('hsReady', { ok, total: results.length })}</h3>
    ${
      batch.last && !allFailed
        ? html`<p class="muted nums" part="charged">${t.term('hsCharged', { charged: batch.last.charged, left: batch.last.remaining })}${batch.chargedTotal !== batch.last.charged ? html` · ${t.term('hsChargedTotal', { charged: batch.chargedTotal })}` : nothing}</p>`
        : !batch.last && batch.chargedTotal
          ? html`<p class="muted nums" part="charged">${t.term('hsChargedTotal', { charged: batch.chargedTotal })}</p>`
          : nothing
    }
    ${allFailed ? html`<p class="notice" part="charged">${t.term('noCharge')}</p>` : nothing}
    <ul class="grid" part="results" role="list">${results.map((r) => renderSlot(v, r))}</ul>
    <div class="actions">
      ${ok > 0 ? html`<button type="button" part="download download-all" class="secondary" ?disabled=${busy} @click=${() => void v.host.downloadAll()}>${t.term('hsDownloadAll')}</button>` : nothing}
      <button type="button" class="secondary" ?disabled=${busy} @click=${() => v.startOver(true)}>${t.term('hsMakeMore')}</button>
      <button type="button" class="link" ?disabled=${busy} @click=${() => v.startOver(false)}>${t.term('hsNewPhoto')}</button>
    </div>
    ${v.keep}
  </div>`;
}

/** Where a restored headshot's kept file is gone: the panel above the grid says so in words. */
const GONE_ICON = html`<svg class="icon" viewBox="0 0 24 24"><rect x="3" y="4" width="18" height="16" rx="2" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M4 20L20 4" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>`;

function renderSlot(v: StudioView, r: SlotView) {
  const t = v.t;
  // Retrying is charged: not while disabled, nor with too few credits left for one. It needs the selfie, which a restored value has not.
  const retryOff = v.off || (v.remaining ?? Infinity) < headshotCharge(1);
  const canRetry = !!v.photo.file;
  const name = t.term(`hsSlot${r.slot}`);
  const state = r.loading ? 'loading' : r.status;
  const chosen = v.batch.chosen === r.slot && r.status === 'succeeded';
  return html`<li part="result ${state}" class="slot ${state} ${chosen ? 'chosen' : ''}" data-slot=${r.slot} aria-busy=${r.loading ? 'true' : 'false'}>
    <div class="shot">
      ${
        r.loading
          ? html`<div class="placeholder">${renderProgress(undefined, t.term('hsWorkingSlot'), `${name}: ${t.term('hsWorkingSlot')}`)}<p class="muted">${t.term('hsWorkingSlot')}</p></div>`
          : r.status === 'succeeded'
            ? html`<img src=${safeUrl(r.url) ?? nothing} width=${r.width ?? nothing} height=${r.height ?? nothing} alt=${t.term('hsSlotImgAlt', { slot: name, style: t.term(`hsStyle_${v.batch.style}`) })}
                ?hidden=${!!r.gone} @error=${() => v.batch.pictureFailed(r)} />${r.gone ? html`<div class="placeholder failed-box" aria-hidden="true">${GONE_ICON}</div>` : nothing}`
            : html`<div class="placeholder failed-box">
              <svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 7v6M12 16.5v.5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>
              <p><strong>${t.term('hsSlotFailed')}</strong></p>
              ${canRetry ? html`<p class="muted">${t.term('hsSlotFailedHint')}</p>` : nothing}
            </div>`
      }
      ${chosen ? html`<span class="badge">✓ ${t.term('hsChosen')}</span>` : nothing}
    </div>
    <h4 id=${`name-${r.slot}`} tabindex="-1">${name}</h4>
    <div class="actions">
      ${
        !r.loading && r.status === 'succeeded'
          ? html`<button type="button" part="choose-result" class=${chosen ? 'primary' : 'secondary'} ?disabled=${v.off} aria-pressed=${chosen ? 'true' : 'false'} aria-describedby=${`name-${r.slot}`} @click=${() => v.host.choose(r.slot)}>
              ${chosen ? t.term('hsChosen') : t.term('hsChooseThis')}
            </button>
            ${safeUrl(r.url) && !r.gone ? html`<a part="download" class="button secondary" href=${r.url} download=${v.batch.fileName(r.slot)} aria-describedby=${`name-${r.slot}`}>${t.term('hsDownloadOne')}</a>` : nothing}`
          : nothing
      }
      ${
        !r.loading && r.status === 'failed' && canRetry
          ? html`<button type="button" part="retry-button" class="secondary" ?disabled=${retryOff}
            aria-describedby=${`name-${r.slot}`} @click=${() => void v.host.retry(r.slot)}>${t.term('hsRetryOne', { cost: headshotCharge(1) })}</button>`
          : nothing
      }
    </div>
  </li>`;
}
