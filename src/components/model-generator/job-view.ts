/**
 * <model-generator>'s template while a job is on screen: progress (with elapsed time and, in
 * prompt mode, the reference image as soon as the API returns it), the result (viewer, turntable,
 * seed, statistics, download, same again / variation, where keeping it stands), of a job or of a
 * kept model (a value set from outside), or the failure with its refund.
 */
import { html, nothing } from 'lit';
import { ref } from 'lit/directives/ref.js';
import { COSTS } from '../../api/index.js';
import { safeUrl } from '../../internal/safe-url.js';
import { jobErrorText } from '../shared/job-error.js';
import { renderProgress } from '../shared/progress.js';
import { isSavedFileGone } from '../shared/saved-file-gone.js';
import { renderStats } from './parts.js';
import type { JobView } from './types.js';

import { errorStyles } from '../shared/error-panel.styles.js';
import { viewerFrame } from '../shared/styles.js';
import { jobViewStyles } from './job-view.styles.js';

/** The error panel's rules (a failed job), the viewer's frame and the job view's own (last: they refine both). */
export const styles = [errorStyles, viewerFrame, jobViewStyles];

export function renderJobView(c: JobView) {
  if (c.status === 'succeeded') return renderSucceeded(c);
  if (c.status === 'failed') return renderFailed(c);
  return renderRunning(c);
}

function renderRunning(c: JobView) {
  const { t, record: r } = c;
  const running = r && (r.status === 'queued' || r.status === 'processing');
  const processing = r?.status === 'processing';
  const percent = r ? Math.round(r.progress) : 0;
  if (processing) c.announce.progress(percent / 100, (p) => t.term('mgMilestone', { percent: p }));
  const title =
    c.status === 'sending'
      ? t.term('mgCreating')
      : c.status === 'resending'
        ? t.term('mgResending')
        : r?.status === 'queued'
          ? t.term('mgQueued')
          : t.term('mgProcessing');
  return html`<div class="stage">
    <p><strong>${title}</strong> ${processing ? html`<span class="nums">${t.f.percent(percent / 100)}</span>` : nothing}</p>
    ${renderProgress(processing ? percent / 100 : undefined, processing ? t.term('mgProcessingValue', { percent }) : title, t.term('mgProcessing'))}
    ${r ? html`<p class="muted nums">${t.term('elapsed', { seconds: (Date.now() - r.createdAt) / 1000 })}${c.prompt ? html` · “${c.prompt}”` : nothing}</p>` : nothing}
    ${c.waitSeconds ? html`<p class="notice" part="wait">${t.term('waitingRetry', { seconds: c.waitSeconds })}</p>` : nothing}
    ${
      c.result.reference(r) && c.absolute(c.result.reference(r)!)
        ? html`<figure class="reference" part="reference"><img src=${c.absolute(c.result.reference(r)!)} alt=${t.term('mgReferenceAlt', { prompt: c.prompt })} /><figcaption class="muted">${t.term('mgReference')}: ${t.term('mgReferenceNote')}</figcaption></figure>`
        : nothing
    }
    ${running ? html`<p class="notice">${t.term('mgCloseOk')}</p>` : nothing}
    ${c.status === 'sending' ? html`<div class="actions"><button type="button" part="cancel-button" class="secondary" ?disabled=${c.disabled} @click=${c.onCancel}>${t.term('cancel')}</button></div>` : nothing}
  </div>`;
}

function renderSucceeded(c: JobView) {
  const { t, result } = c;
  const { download, turntable, poster, seed, stats, images } = c.model ?? { images: 1 };
  const what = c.prompt || t.term('mgModelFromPhotos', { count: images });
  // A value's kept model that is gone: the panel says so (not "ready"), beside what the value still has.
  const gone = isSavedFileGone(result.error);
  return html`<div class="result">
    ${gone ? nothing : html`<h3 class="result-title" tabindex="-1">${c.away ? t.term('mgSucceededAway') : t.term('mgSucceeded')}</h3>`}
    <div class="result-grid">
      <div class="result-main">
        ${
          result.error
            ? c.panel.render(t, result.error, { onRetry: () => result.clear(), onRestart: c.onEdit })
            : safeUrl(result.url)
              ? html`<glb-viewer part="viewer" loading="eager" src=${result.url} alt=${t.term('mgModelAlt', { what })} lang=${t.resolved}></glb-viewer>`
              : html`<div class="viewer-wait" part="viewer">${renderProgress(undefined, t.term('mgLoadingModel'))}<p class="muted">${t.term('mgLoadingModel')}</p></div>`
        }
        ${result.cached ? html`<p class="muted">${t.term('mgCached')}</p>` : nothing}
      </div>
      <div class="result-side">
        ${
          turntable
            ? html`<figure class="turntable"><video ${ref(c.turntable)} part="turntable" src=${turntable} poster=${poster ?? nothing} muted loop playsinline controls preload="metadata" aria-label=${t.term('mgTurntableLabel')}></video>
              <figcaption class="muted">${t.term('mgTurntable')}</figcaption></figure>`
            : nothing
        }
        ${seed !== undefined ? html`<p part="seed" class="seed"><span class="muted">${t.term('mgSeed')}</span> <strong class="nums">${seed}</strong><br /><span class="muted">${t.term('mgSeedHint')}</span></p>` : nothing}
      </div>
    </div>
    ${stats ? renderStats(t, stats) : nothing}
    <div class="actions">
      ${download && !gone ? html`<a class="button primary" part="download" href=${download} download="model.glb">${t.term('mgDownload')}</a>` : nothing}
      ${
        c.canAgain
          ? html`<button type="button" part="again-button" class="secondary" ?disabled=${c.disabled} @click=${() => c.onAgain(false)}>${t.term('mgSameAgain', { cost: COSTS.modelJob })}</button>
            <button type="button" part="variation-button" class="secondary" ?disabled=${c.disabled} @click=${() => c.onAgain(true)}>${t.term('mgVariation', { cost: COSTS.modelJob })}</button>`
          : nothing
      }
      <button type="button" class="link" ?disabled=${c.disabled} @click=${c.onEdit}>${t.term('mgEdit')}</button>
    </div>
    ${c.keep}
  </div>`;
}

function renderFailed(c: JobView) {
  const { t } = c;
  const r = c.record!;
  // Not the kit's provider panel: that one says "nothing was charged", but this job was charged and refunded
  // (unless this session cannot see it: a value's job another user started answers 404).
  return html`<div class="failed">
    <div part="error" class="error" role="alert" data-reason="job_failed">
      <svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 7v6M12 16.5v.5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>
      <div class="error-text">
        <h3 class="error-title">${t.term('mgFailed')}</h3>
        <span class="error-hint">${t.term('mgFailedHint')}</span>
        ${r.error ? html`<span class="error-detail">${jobErrorText(t, r.error)}</span>` : nothing}
        ${r.handle && r.error?.code !== 'not_found' ? html`<span class="refund" part="refund">${t.term('mgRefunded', { cost: COSTS.modelJob })}</span>` : nothing}
      </div>
      <div class="actions">
        ${c.canAgain ? html`<button type="button" part="retry-button" class="primary" ?disabled=${c.disabled} @click=${() => c.onAgain(true)}>${t.term('mgTryAgain', { cost: COSTS.modelJob })}</button>` : nothing}
        <button type="button" class="secondary" ?disabled=${c.disabled} @click=${c.onEdit}>${t.term('mgEdit')}</button>
      </div>
    </div>
  </div>`;
}
