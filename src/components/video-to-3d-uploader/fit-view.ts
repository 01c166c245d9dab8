/**
 * The views of a video made to fit: what will be done to it, the trim range over its
 * filmstrip, the conversion's progress, the refusal's device advice and the note of a conversion a
 * reload stopped. Part of the lazy views chunk (views.ts), with their English strings.
 */
import { html, nothing } from 'lit';
import { LIMITS } from '../../api/index.js';
import { addEnglish } from '../shared/localize.js';
import { itemsLine } from '../shared/limits.js';
import { renderProgress } from '../shared/progress.js';
import type { AdvisedRefusal } from './fit.js';
import { fitStrings } from './fit-strings.js';
import type { UploaderView } from './types.js';

addEnglish(fitStrings);

type T = UploaderView['t'];

/** What is done to the chosen video before it is sent (`part="fit"`), with the trim range when it is over 3 minutes. */
export function renderFit(v: UploaderView) {
  const { t } = v;
  const plan = v.video.fit!.plan;
  const f = t.f;
  const scaled = plan.target.width !== plan.width || plan.target.height !== plan.height;
  return html`<div class="fit" part="fit">
    <h3>${t.term('vtFitTitle')}</h3>
    <ul>
      ${scaled ? html`<li data-fit="resolution">${t.term('vtFitScale', { from: f.dims(plan.width, plan.height), to: f.dims(plan.target.width, plan.target.height) })}</li>` : nothing}
      ${plan.reasons.includes('too_long') ? html`<li data-fit="too_long">${t.term('vtFitTrim', { length: f.clock(plan.durationSeconds) })}</li>` : nothing}
      ${plan.reasons.includes('too_large') ? html`<li data-fit="too_large">${t.term('vtFitSize', { max: f.bytes(LIMITS.video.maxBytes) })}</li>` : nothing}
      <li data-fit="audio">${t.term('vtFitAudio')}</li>
      <li data-fit="output">${t.term('vtFitOutput')}</li>
    </ul>
    ${plan.reasons.includes('too_long') ? renderTrim(v) : nothing}
  </div>`;
}

/**
 * Two range inputs over a filmstrip: each is a native slider (arrow keys move a second, Page Up
 * and Down ten), labelled, with its time as aria-valuetext in m:ss. Moving one past 3 minutes from
 * the other moves the other along.
 */
function renderTrim(v: UploaderView) {
  const { t } = v;
  const plan = v.video.fit!.plan;
  const f = t.f;
  const d = Math.floor(plan.durationSeconds);
  const { start, end } = plan.trim;
  const pct = (s: number) => `${(100 * s) / Math.max(1, plan.durationSeconds)}%`;
  const on = (which: 'start' | 'end') => (e: Event) => {
    const n = Number((e.target as HTMLInputElement).value);
    const now = plan.trim;
    v.setTrim(which === 'start' ? n : now.start, which === 'end' ? n : now.end, which);
  };
  return html`<fieldset class="trim" part="trim">
    <legend>${t.term('vtTrimLegend')}</legend>
    <div class="strip-wrap">
      <div class="filmstrip" part="filmstrip" aria-hidden="true">
        ${v.video.fit!.strip.map((src) => html`<img src=${src} alt="" />`)}
      </div>
      <div class="window" aria-hidden="true" style="inset-inline-start:${pct(start)};inline-size:${pct(end - start)}"></div>
    </div>
    <div class="trim-inputs">
      <label
        >${t.term('vtTrimStart')}
        <input type="range" name="trim-start" min="0" max=${d} step="1" .value=${String(Math.round(start))}
          aria-valuetext=${f.clock(start)} @input=${on('start')} @change=${on('start')} />
        <output class="nums">${f.clock(start)}</output></label
      >
      <label
        >${t.term('vtTrimEnd')}
        <input type="range" name="trim-end" min="0" max=${d} step="1" .value=${String(Math.round(end))}
          aria-valuetext=${f.clock(end)} @input=${on('end')} @change=${on('end')} />
        <output class="nums">${f.clock(end)}</output></label
      >
    </div>
    <p class="muted nums" aria-live="polite">${t.term('vtTrimSummary', { start: f.clock(start), end: f.clock(end), length: f.clock(end - start) })}</p>
  </fieldset>`;
}

/** The conversion (`part="converting"`): frames done, percent, time left and a cancel that costs nothing. */
export function renderConverting(v: UploaderView) {
  const { t } = v;
  const p = v.video.fit!.converting!;
  const percent = Math.round(p.fraction * 100);
  v.announce.progress(p.fraction, (n) => t.term('vtConvertMilestone', { percent: n }));
  const frames = t.term('vtConvertFrames', { frames: p.frames, total: p.totalFrames });
  const left = p.secondsLeft !== undefined ? t.term('timeLeft', { seconds: p.secondsLeft }) : '';
  return html`<div class="stage" part="converting">
    <p><strong>${t.term('vtConverting')}</strong> <span class="muted">${v.video.file?.name}</span></p>
    ${v.video.restarted ? html`<p class="notice" role="status" data-restarted>${t.term('vtConvertRestarted', { name: v.video.restarted })}</p>` : nothing}
    ${renderProgress(p.fraction, t.term('vtConvertValue', { percent, frames: p.frames, total: p.totalFrames }))}
    ${itemsLine([t.f.percent(percent / 100), frames, left], 'muted nums')}
    <p class="notice">${t.term('vtConvertFree')}</p>
    <div class="actions"><button type="button" part="cancel-button" class="secondary" @click=${v.cancel}>${t.term('cancel')}</button></div>
  </div>`;
}

/** The device advice under a refusal a conversion could not lift here (undefined for any other error). */
export function refusalDetail(t: T, error: unknown): string | undefined {
  const e = error as Partial<AdvisedRefusal> | undefined;
  if (!e?.deviceAdvice) return undefined;
  return [
    e.cannot === 'encode' ? t.term('vtCannotEncode') : t.term('vtCannotDecode', { codec: e.codec ?? '' }),
    t.term('vtDeviceAdvice'),
    e.deviceAdvice === 'iphone' ? t.term('vtDeviceAdviceIphone') : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** A reload stopped the conversion of `name`: said once, in the drop zone's place. */
export function renderInterrupted(t: T, name: string) {
  return html`<p class="notice" role="status" data-interrupted>${t.term('vtConvertInterrupted', { name })}</p>`;
}
