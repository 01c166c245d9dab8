/**
 * The whole of <headshot-studio> drawn from its `StudioView`: the title and price, the photo
 * intake (not beside a batch: a restored one has no photo, and a new photo starts over), the
 * checks, the choices, the error panel, the 429 countdown, the results and the live region.
 * Rendering only; the element owns the state.
 */
import { html, nothing } from 'lit';
import { renderCost } from '../shared/credits.js';
import { renderProgress } from '../shared/progress.js';
import { renderIntake, renderReady } from './choices-view.js';
import type { StudioView } from './types.js';

/** The card; `grid` (results-view.ts, loaded after the first render) draws the batch's results. */
export function renderStudio(grid: typeof import('./results-view.js') | undefined, v: StudioView) {
  const { t, status: s, photo, batch: b, topUpHref } = v;
  // A restored value's kept headshot that is gone says so above the grid, with "Start over".
  const error = photo.error ?? b.error ?? b.gone;
  const choosing = s === 'idle' || s === 'ready' || (s === 'failed' && !b.results.length);
  // The error panel's "try again": the batch, or the slot whose retry failed.
  const onRetry = photo.file
    ? () => void (b.errorSlot === undefined ? v.host.start() : v.host.retry(b.errorSlot))
    : undefined;
  return html`<section part="base" class="card" aria-labelledby="title" lang=${t.resolved} dir=${t.dir}>
      <header class="head">
        <h2 id="title">${t.term('hsTitle')}</h2>
        ${choosing ? renderCost(t, v.cost, v.remaining, topUpHref) : nothing}
      </header>
      ${photo.file || b.results.length ? nothing : renderIntake(v)}
      ${photo.checking ? html`<div class="stage"><p>${t.term('hsChecking')}</p>${renderProgress(undefined, t.term('hsChecking'))}</div>` : nothing}
      ${photo.file && !photo.checking && choosing ? renderReady(v) : nothing}
      ${error ? v.panel(error, { onChoose: () => v.intake.open(), onRetry, onRestart: () => v.startOver(false), topUpHref }) : nothing}
      ${v.waitSeconds ? html`<p class="notice" part="wait">${t.term('waitingRetry', { seconds: v.waitSeconds })}</p>` : nothing}
      ${b.results.length ? grid?.renderResults(v) : nothing}
      ${v.announcer}
    </section>`;
}
