/**
 * The card of <model-generator>, from top to bottom: its title and cost (before a job); the form
 * before a job, or the job shown; the error panel; the notice (a cancelled send); the recent
 * models. Rendering only; the element owns the state.
 */
import { html, nothing } from 'lit';
import { COSTS } from '../../api/index.js';
import type { AnnouncerController } from '../shared/announcer.js';
import { renderCost } from '../shared/credits.js';
import { renderFormView } from './form-view.js';
import { renderHistory } from './parts.js';
import type { ModelJobsController } from './jobs.js';
import type { FormView, JobView } from './types.js';

type FormInput = 'mode' | 'prompt' | 'quality' | 'seed' | 'removeBackground';
type JobViewModule = typeof import('./job-view.js');

/**
 * Everything the card under the title is drawn from: the form, or the job shown (`run` gives the
 * rest of its view), then the error, the notice and the recent models.
 */
export interface BodyView
  extends Omit<FormView, FormInput>, Pick<JobView, 'panel' | 'keep' | 'onCancel' | 'onAgain' | 'onEdit'> {
  /** The element's input properties, as the form shows them. */
  input: Pick<FormView, FormInput>;
  run: ModelJobsController;
  error: unknown;
  notice: string;
  topUpHref: string | undefined;
  reset(): void;
}

/** The whole card: the title, the cost before a job, the body, the live region. */
export function renderCard(v: BodyView & { announce: AnnouncerController }, jobView: JobViewModule | undefined) {
  const { t } = v;
  return html`<section part="base" class="card" aria-labelledby="title" lang=${t.resolved} dir=${t.dir}>
    <header class="head">
      <h2 id="title">${t.term('mgTitle')}</h2>
      ${v.run.showing ? nothing : renderCost(t, COSTS.modelJob, v.credits, v.topUpHref)}
    </header>
    ${renderBody(v, jobView)}
    ${v.announce.render()}
  </section>`;
}

/** The card's body; `jobView` (job-view.ts, loaded after the first render) draws the job shown. */
export function renderBody(v: BodyView, jobView: JobViewModule | undefined) {
  const { t, run } = v;
  const form = !run.showing;
  return html`${form ? renderFormView({ ...v, ...v.input }) : jobView?.renderJobView({ ...v, ...run.view() })}
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
    ${renderHistory(t, run.history.recent(run.record?.id), run.result.thumbs, form, v.disabled, (r) => run.open(r.id))}`;
}
