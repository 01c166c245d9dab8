/**
 * The first view of <video-to-3d-uploader> (the drop zone) and the filming tips: all a visitor
 * sees before choosing a video, so they load with the element.
 */
import { html } from 'lit';
import type { FileIntakeController } from '../shared/file-intake.js';
import { limitsLine, videoLimits } from '../shared/limits.js';
import type { UploaderView } from './types.js';

type T = UploaderView['t'];

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
