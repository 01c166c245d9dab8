/**
 * The card of <video-to-3d-uploader>: its title and cost, the first view (the drop zone) or the
 * phase's view (views.ts, loaded with the first video or job), the error panel, the notice, the
 * filming tips and the recent scenes. The drop zone and the tips are all a visitor sees before
 * choosing a video, so they load with the element. Rendering only; the element owns the state.
 */
import { html, nothing } from 'lit';
import { COSTS } from '../../api/index.js';
import { renderCost } from '../shared/credits.js';
import type { FileIntakeController } from '../shared/file-intake.js';
import { limitsLine, videoLimits } from '../shared/limits.js';
import type { UploaderJobs } from './jobs.js';
import type { UploaderView } from './types.js';

type T = UploaderView['t'];

/** Everything the card is drawn from: the phase's view (the job's parts read from `jobs`), and what is around it. */
export interface CardView extends Omit<UploaderView, 'record' | 'upload' | 'waitSeconds' | 'scene'> {
  /** The job flow: the job shown, its engine once loaded, the recent scenes. */
  jobs: UploaderJobs;
  error: unknown;
  notice: string;
  credits: number | undefined;
  topUpHref: string | undefined;
  /** The views after `idle` (views.ts) once loaded; asking starts the load, so only what needs them asks. */
  views(): typeof import('./views.js') | undefined;
}

export function renderCard(v: CardView) {
  const { t, status: s, intake, views, error, jobs } = v;
  const run = jobs.run;
  const record = jobs.record;
  const recent = jobs.history.recent(record?.id);
  const phase = s !== 'idle' || recent.length ? views() : undefined;
  const view: UploaderView = {
    ...v,
    record,
    upload: run?.jobs.upload,
    waitSeconds: run?.request.waitSeconds ?? 0,
    scene: run?.scene,
  };
  return html`<section part="base" class="card" aria-labelledby="title" lang=${t.resolved} dir=${t.dir}>
    <header class="head">
      <h2 id="title">${t.term('vtTitle')}</h2>
      ${s === 'idle' || s === 'ready' || s === 'checking' ? renderCost(t, COSTS.videoJob, v.credits, v.topUpHref) : nothing}
    </header>
    ${s === 'idle' ? renderIdle(t, intake) : phase?.renderPhase(view)}
    ${error ? v.panel.render(t, error, { detail: views()?.refusalDetail(t, error), onChoose: () => intake.open(), onRetry: v.start, onRestart: v.reset, topUpHref: v.topUpHref }) : nothing}
    ${s === 'idle' && v.video.interrupted ? views()?.renderInterrupted(t, v.video.interrupted) : nothing}
    ${v.notice ? html`<p class="notice" role="status">${v.notice}</p>` : nothing}
    ${s === 'idle' || s === 'ready' ? renderTips(t) : nothing}
    ${recent.length ? phase?.renderHistory(t, recent, s === 'idle', (id) => jobs.open(id)) : nothing}
    ${v.announce.render()}
  </section>`;
}

export function renderIdle(t: T, intake: FileIntakeController) {
  return html`<div part="drop-zone" class="drop ${intake.dragging ? 'dragging' : ''}">
    <svg viewBox="0 0 24 24" aria-hidden="true"><path fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round" d="M3 7.5A1.5 1.5 0 0 1 4.5 6h9A1.5 1.5 0 0 1 15 7.5v9a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 3 16.5zM15 10.5l5.2-3a.5.5 0 0 1 .8.4v8.2a.5.5 0 0 1-.8.4l-5.2-3"/></svg>
    ${intake.render(t.term('vtChoose'), { describedBy: 'limits' })}
    <p class="muted">${intake.dragging ? t.term('dropActive') : t.term('dropHere')}</p>
    ${limitsLine(t.term('vtLimits', videoLimits(t.f)))}
  </div>`;
}

export function renderTips(t: T) {
  return html`<details class="tips" part="tips">
    <summary>${t.term('vtTipsTitle')}</summary>
    <ul>
      <li>${t.term('vtTip1')}</li>
      <li>${t.term('vtTip2')}</li>
      <li>${t.term('vtTip3')}</li>
      <li>${t.term('vtTip4')}</li>
    </ul>
  </details>`;
}
