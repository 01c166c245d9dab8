/**
 * The card of <model-generator> under its title, from top to bottom: the form before a job, or the
 * job shown; the error panel; the notice (a cancelled send); the recent models. Rendering only; the
 * element owns the state.
 */
import { html, nothing } from 'lit';
import { renderFormView } from './form-view.js';
import { renderJobView } from './job-view.js';
import { renderHistory } from './parts.js';
import type { BodyView } from './types.js';

export function renderBody(v: BodyView) {
  const { t, run } = v;
  const form = !run.showing;
  return html`${form ? renderFormView({ ...v, ...v.input }) : renderJobView({ ...v, ...run.view() })}
    ${
      v.error
        ? v.panel.render(t, v.error, {
            onChoose: () => v.photos.intake.open(),
            onRetry: v.start,
            onRestart: v.reset,
            topUpHref: v.topUpHref,
          })
        : nothing
    }
    ${v.notice ? html`<p class="notice" role="status">${v.notice}</p>` : nothing}
    ${renderHistory(t, run.history.recent(run.record?.id), run.result.thumbs, form, v.disabled, (r) => run.adopt(r.id))}`;
}
