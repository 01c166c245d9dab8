/**
 * The views of <video-to-3d-uploader> after the first one (checking, ready, the upload, the job,
 * the scene, the outcome) and the list of recent scenes. The element loads this module when it
 * leaves `idle` or has recent scenes to list, not with the page: a visitor who never chooses a
 * video never downloads it (nor their styles, `styles`).
 */
import { html, nothing } from 'lit';
import { COSTS, type VideoJob } from '../../api/index.js';
import type { JobRecord } from '../../jobs/job-store.js';
import { safeUrl } from '../../internal/safe-url.js';
import { isSavedFileGone } from '../shared/saved-file-gone.js';
import { jobErrorText } from '../shared/job-error.js';
import { renderProgress } from '../shared/progress.js';
import { renderConverting, renderFit } from './fit-view.js';
import { addEnglish } from '../shared/localize.js';
import { viewStrings } from './view-strings.js';
import type { UploaderView } from './types.js';

import { errorStyles } from '../shared/error-panel.styles.js';
import { viewerFrame } from '../shared/styles.js';
import { viewStyles } from './views.styles.js';

/** The error panel's rules (a failed job), the scene viewer's frame and the views' own (last: they refine both). */
export const styles = [errorStyles, viewerFrame, viewStyles];
export { refusalDetail, renderInterrupted } from './fit-view.js';

addEnglish(viewStrings);

/** The phase's view (every phase but `idle`, which the element draws itself). */
export function renderPhase(v: UploaderView) {
  const t = v.t;
  switch (v.status) {
    case 'checking':
      return html`<div class="checking"><p>${t.term('vtChecking')}</p>${renderProgress(undefined, t.term('vtChecking'))}<p class="muted">${v.video.file?.name}</p></div>`;
    case 'ready':
      return renderReady(v);
    case 'converting':
      return renderConverting(v);
    case 'uploading':
    case 'resending':
      return renderUploading(v, v.status === 'resending');
    case 'queued':
    case 'processing':
      return renderProcessing(v, v.record!);
    case 'succeeded':
      return renderSucceeded(v);
    case 'failed':
      return renderFailed(v, v.record!);
    case 'expired':
      return html`<div class="expired"><p>${t.term('vtExpired')}</p>${v.scene?.url ? renderViewer(v) : nothing}
        <div class="actions"><button type="button" class="primary" @click=${v.reset}>${t.term('vtStartAnother')}</button></div></div>`;
  }
  return nothing;
}

const ADVICE = {
  dark: 'vtAdviceDark',
  bright: 'vtAdviceBright',
  blurry: 'vtAdviceBlurry',
  cut: 'vtAdviceCut',
} as const;

function renderReady(v: UploaderView) {
  const t = v.t;
  const { file, thumb, advice } = v.video;
  const c = v.video.checked!;
  const f = t.f;
  return html`<div class="ready">
    <div class="preview">
      ${thumb ? html`<img part="thumbnail" src=${thumb} alt=${t.term('vtThumbAlt', { name: file?.name ?? '' })} />` : html`<div part="thumbnail" class="thumb-empty" aria-hidden="true"></div>`}
      <div class="facts-wrap">
        <p class="file-name">${file?.name}</p>
        <dl class="facts" part="facts">
          <div><dt>${t.term('vtFactDuration')}</dt><dd>${f.clock(c.durationSeconds)}</dd></div>
          <div><dt>${t.term('vtFactResolution')}</dt><dd>${t.f.dims(c.width, c.height)}</dd></div>
          <div><dt>${t.term('vtFactSize')}</dt><dd>${f.bytes(c.bytes)}</dd></div>
          <div><dt>${t.term('vtFactFormat')}</dt><dd>${c.container.toUpperCase()}</dd></div>
        </dl>
        ${v.video.skipped ? html`<p class="notice" role="note" data-skipped>${t.term('vtSkippedChecks', { codec: v.video.skipped })}</p>` : nothing}
      </div>
    </div>
    ${
      advice.length
        ? html`<div class="advice" part="advice">
          <h3>${t.term('vtAdviceTitle')}</h3>
          <ul>${advice.map((a) => html`<li data-advice=${a}>${t.term(ADVICE[a])}</li>`)}</ul>
          <p class="muted">${t.term('vtAdviceGoOn')}</p>
        </div>`
        : nothing
    }
    ${v.video.fit ? renderFit(v) : nothing}
    ${v.video.noStorage ? html`<p class="notice" role="note">${t.term('noStorageUpload')}</p>` : nothing}
    <div class="actions">
      <button type="button" part="primary-button" class="primary" ?disabled=${v.confirmOff} @click=${v.start}>${t.term(v.video.fit ? 'vtConvertConfirm' : 'vtConfirm', { cost: COSTS.videoJob })}</button>
      ${v.intake.render(t.term('chooseAnother'), { primary: false })}
    </div>
  </div>`;
}

/**
 * The upload, or its resend after a reload (the bytes come from the poller that sends it). A
 * resend has no cancel button: its video is kept on this device and the job may already exist
 * upstream (the first upload's answer was lost), so a cancel could neither promise "nothing
 * charged" nor stop the next visit from sending it again.
 */
function renderUploading(v: UploaderView, resend: boolean) {
  const { t, upload: u } = v;
  const fraction = u && u.total > 0 ? u.loaded / u.total : 0;
  const percent = Math.round(fraction * 100);
  if (u) v.announce.progress(fraction, (p) => t.term('vtUploadMilestone', { percent: p }));
  const left = u?.secondsLeft !== undefined ? t.term('timeLeft', { seconds: u.secondsLeft }) : '';
  const sent = u ? t.term('sentOf', { loaded: u.loaded, total: u.total }) : '';
  const name = resend ? String(v.record?.summary['name'] ?? '') : (v.video.file?.name ?? '');
  // Before the first bytes of a resend (or after one that failed and waits for the next visit), no amount is known.
  const value =
    !u && resend
      ? t.term('vtResendingShort')
      : t.term(resend ? 'vtResendValue' : 'vtUploadValue', { percent, sent, left });
  return html`<div class="stage">
    <p><strong>${t.term(resend ? 'vtResendingShort' : 'vtUploading')}</strong> <span class="muted">${name}</span></p>
    ${renderProgress(u ? fraction : undefined, value)}
    ${u ? html`<p class="muted nums">${sent}${u.bytesPerSecond > 0 ? html` · ${t.term('rate', { bytesPerSecond: u.bytesPerSecond })}` : nothing}${left ? html` · ${left}` : nothing}</p>` : nothing}
    ${resend ? html`<p class="notice">${t.term('vtResending')}</p>` : nothing}
    ${v.waitSeconds ? html`<p class="notice" part="wait">${t.term('waitingRetry', { seconds: v.waitSeconds })}</p>` : nothing}
    ${resend ? nothing : html`<div class="actions"><button type="button" part="cancel-button" class="secondary" @click=${v.cancel}>${t.term('cancel')}</button></div>`}
  </div>`;
}

function renderProcessing({ t }: UploaderView, r: JobRecord) {
  const queued = r.status === 'queued';
  const percent = Math.round(r.progress);
  return html`<div class="stage">
    <p><strong>${queued ? t.term('vtQueued') : t.term('vtProcessing')}</strong> ${queued ? nothing : html`<span class="nums">${t.f.percent(percent / 100)}</span>`}</p>
    ${renderProgress(queued ? undefined : percent / 100, queued ? t.term('vtQueued') : t.term('vtProcessingValue', { percent }))}
    <p class="muted nums">${t.term('elapsed', { seconds: (Date.now() - r.createdAt) / 1000 })}${r.summary['name'] ? html` · ${r.summary['name']}` : nothing}</p>
    <p class="notice">${t.term('vtCloseOk')}</p>
  </div>`;
}

function renderSucceeded(v: UploaderView) {
  const t = v.t;
  const output = (v.record?.job as VideoJob | undefined)?.output;
  // The kept PLY once there is one (it does not expire); the zip only from the job's links.
  const ply = v.results.value?.asset?.url ?? output?.ply_url;
  // A value's kept scene that is gone: the panel says so (not "ready"), with the video's name.
  const gone = isSavedFileGone(v.scene?.error);
  return html`<div class="result">
    ${gone ? nothing : html`<h3 class="result-title" tabindex="-1">${v.scene?.away ? t.term('vtSucceededAway') : t.term('vtSucceeded')}</h3>`}
    ${renderViewer(v)}
    ${v.scene?.cached ? html`<p class="muted">${t.term('vtCached')}</p>` : nothing}
    <div class="actions">
      ${ply && safeUrl(ply) && !gone ? html`<a class="button primary" part="download download-ply" href=${ply} download>${t.term('vtDownloadPly')}</a>` : nothing}
      ${output && safeUrl(output.archive_url) ? html`<a class="button secondary" part="download download-zip" href=${output.archive_url} download>${t.term('vtDownloadZip')}</a>` : nothing}
      <button type="button" class="secondary" @click=${v.reset}>${t.term('vtStartAnother')}</button>
    </div>
    ${v.results.render(t)}
  </div>`;
}

function renderViewer(v: UploaderView) {
  const { t, scene } = v;
  if (scene?.error)
    return v.panel.render(t, scene.error, {
      onRetry: v.retryScene,
      onRestart: v.reset,
      detail: isSavedFileGone(scene.error) ? v.results.value?.name || undefined : undefined,
    });
  if (!scene?.url)
    return html`<div class="viewer-wait" part="viewer">${renderProgress(undefined, t.term('vtLoadingScene'))}<p class="muted">${t.term('vtLoadingScene')}</p></div>`;
  // The job's first frame is measured from the host (PhaseTimingsController, endOn mk-viewer-loaded).
  const name = String(v.record?.summary['name'] ?? v.results.value?.name ?? '');
  return html`<splat-viewer part="viewer" loading="eager" src=${scene.url} alt=${t.term('vtSceneAlt', { name })} lang=${t.resolved}></splat-viewer>`;
}

function renderFailed({ t, tryAnother }: UploaderView, r: JobRecord) {
  // Its own panel, not the kit's provider error: that one says "nothing was charged", and here
  // the charge was made and refunded. An upload cut by a reload that cannot be sent again (no
  // handle ever came) asks for its video again.
  const again = !r.handle && (r.error?.code === 'interrupted' || r.error?.code === 'video_gone');
  return html`<div part="error" class="error failed" role="alert">
    <svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 7v6M12 16.5v.5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>
    <div class="error-text">
      <strong class="error-title">${t.term('vtFailed')}</strong>
      <span class="error-hint">${jobErrorText(t, r.error)}</span>
      ${r.handle && r.error?.code !== 'not_found' ? html`<span class="refund" part="refund">${t.term('vtRefunded', { cost: COSTS.videoJob })}</span>` : nothing}
    </div>
    <div class="actions"><button type="button" class="primary" @click=${tryAnother}>${t.term(again ? 'vtChoose' : 'vtTryAnother')}</button></div>
  </div>`;
}

const LABEL = {
  queued: 'vtStatusQueued',
  processing: 'vtStatusProcessing',
  succeeded: 'vtStatusSucceeded',
  failed: 'vtStatusFailed',
  expired: 'vtStatusExpired',
  creating: 'vtStatusCreating',
} as const;

/** The recent scenes (`part="history"`), open while nothing else is shown. */
export function renderHistory(
  t: UploaderView['t'],
  list: readonly JobRecord[],
  open: boolean,
  onOpen: (id: string) => void,
) {
  const when = new Intl.DateTimeFormat(t.resolved, { dateStyle: 'medium', timeStyle: 'short' });
  return html`<details class="history" part="history" ?open=${open}>
    <summary>${t.term('vtRecent')}</summary>
    <ul>
      ${list.map(
        (r) => html`<li>
          <span class="h-name">${r.summary['name'] ?? r.id.slice(0, 8)}</span>
          <span class="muted">${when.format(r.createdAt)} · ${t.term(LABEL[r.status])}</span>
          <button type="button" class="link" aria-label=${`${t.term('vtOpen')}: ${r.summary['name'] ?? ''}`} @click=${() => onOpen(r.id)}>${t.term('vtOpen')}</button>
        </li>`,
      )}
    </ul>
  </details>`;
}
