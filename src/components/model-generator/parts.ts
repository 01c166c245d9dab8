/**
 * Pieces of <model-generator>'s template that need no element state: the quality choice, the
 * description field, the statistics table, and the history list and its cards.
 */
import { html, nothing } from 'lit';
import { LIMITS, type ModelMode, type ModelQuality, type ModelStats } from '../../api/index.js';
import type { JobRecord } from '../../jobs/job-store.js';
import type { LocalizeController } from '../shared/localize.js';
import type { ModelGeneratorStrings } from './strings.js';
import type { PhotoFitStrings } from '../shared/photo-fit-strings.js';
import type { SharedStrings } from '../shared/strings.js';

/** The element's dictionaries (types.ts has the same `Strings`; that module imports this one). */
type Strings = ModelGeneratorStrings & SharedStrings & PhotoFitStrings;

type T = LocalizeController<Strings>;

/** Typical time of a job by quality (the spec: "30-60+ seconds"), plus the reference image in text mode. */
export function typicalSeconds(quality: ModelQuality, mode: ModelMode): number {
  return { fast: 30, standard: 45, high: 60 }[quality] + (mode === 'text' ? 15 : 0);
}

export function renderQuality(
  t: T,
  quality: ModelQuality,
  mode: ModelMode,
  disabled: boolean,
  onChange: (q: ModelQuality) => void,
) {
  const label = { fast: 'mgQualityFast', standard: 'mgQualityStandard', high: 'mgQualityHigh' } as const;
  return html`<fieldset class="quality" part="quality" ?disabled=${disabled}>
    <legend>${t.term('mgQuality')}</legend>
    ${LIMITS.model.qualities.map((q) => {
      const s = LIMITS.model.qualitySettings[q];
      return html`<label class="choice">
        <input type="radio" name="quality" value=${q} .checked=${quality === q} ?disabled=${disabled} @change=${() => onChange(q)} aria-describedby=${`q-${q}`} />
        <span><strong>${t.term(label[q])}</strong>
          <span class="muted" id=${`q-${q}`}>${t.term('mgQualityFacts', { texture: s.textureSize, steps: s.steps, seconds: typicalSeconds(q, mode) })}</span></span>
      </label>`;
    })}
  </fieldset>`;
}

const STAT_ROWS: [keyof ModelStats, keyof ModelGeneratorStrings][] = [
  ['triangles', 'mgStatTriangles'],
  ['vertices', 'mgStatVertices'],
  ['meshes', 'mgStatMeshes'],
  ['materials', 'mgStatMaterials'],
  ['textures', 'mgStatTextures'],
  ['maxTextureSize', 'mgStatMaxTexture'],
  ['bytes', 'mgStatBytes'],
  ['animations', 'mgStatAnimations'],
];

/** output.stats as a table; every number through Intl (`data-value` keeps the raw one). */
export function renderStats(t: T, stats: ModelStats) {
  const f = t.f;
  const show = (k: keyof ModelStats, v: number) =>
    k === 'bytes' ? f.bytes(v) : k === 'maxTextureSize' ? t.term('mgPixels', { n: v }) : f.number(v);
  return html`<table part="stats" class="stats">
    <caption>${t.term('mgStats')}</caption>
    <tbody>
      ${STAT_ROWS.map(([k, label]) => html`<tr><th scope="row">${t.term(label as 'mgStatTriangles')}</th><td data-stat=${k} data-value=${stats[k]}>${show(k, stats[k])}</td></tr>`)}
    </tbody>
  </table>`;
}

/** One history card: the first photo (a cached JPEG) or the prompt, quality, status, seed. No viewer. */
export function renderCard(t: T, r: JobRecord, thumb: string | undefined, disabled: boolean, onShow: () => void) {
  const status = {
    queued: 'mgStatusQueued',
    processing: 'mgStatusProcessing',
    succeeded: 'mgStatusSucceeded',
    failed: 'mgStatusFailed',
    expired: 'mgStatusExpired',
    creating: 'mgStatusCreating',
  } as const;
  const quality = { fast: 'mgQualityFast', standard: 'mgQualityStandard', high: 'mgQualityHigh' } as const;
  const prompt = typeof r.summary['prompt'] === 'string' ? r.summary['prompt'] : '';
  const what = prompt || t.term('mgPhotoJob', { count: Number(r.summary['images'] ?? 1) });
  const seed = (r.job as { seed?: number } | undefined)?.seed;
  const q = (r.summary['quality'] as keyof typeof quality | undefined) ?? 'standard';
  return html`<li class="card-item" part="history-card" data-status=${r.status}>
    ${thumb ? html`<img src=${thumb} alt="" />` : html`<span class="card-glyph" aria-hidden="true">${prompt ? '“' : '▣'}</span>`}
    <span class="card-text">
      <span class="card-what">${what}</span>
      <span class="muted">${t.term(quality[q] ?? 'mgQualityStandard')} · ${t.term(status[r.status])}${seed !== undefined ? html` · ${t.term('mgSeed')} <span class="nums">${seed}</span>` : nothing}</span>
    </span>
    <button type="button" class="secondary" aria-label=${t.term('mgShowLabel', { what })} ?disabled=${disabled} @click=${onShow}>${t.term('mgShow')}</button>
  </li>`;
}

/** The recent models (`part="history"`), open while the form is shown; nothing when there are none. */
export function renderHistory(
  t: T,
  list: readonly JobRecord[],
  thumbs: Readonly<Record<string, string>>,
  open: boolean,
  disabled: boolean,
  onShow: (r: JobRecord) => void,
) {
  if (!list.length) return nothing;
  return html`<details class="history" part="history" ?open=${open}>
    <summary>${t.term('mgRecent')}</summary>
    <ul>${list.map((r) => renderCard(t, r, thumbs[r.id], disabled, () => onShow(r)))}</ul>
  </details>`;
}

/** The description field with its counter (bold in the last 20 characters, red when over). */
export function renderPrompt(t: T, prompt: string, disabled: boolean, onInput: (value: string) => void) {
  const max = LIMITS.model.maxPromptChars;
  const length = [...prompt].length;
  const left = max - length;
  return html`<div class="prompt-field">
    <label for="prompt">${t.term('mgPromptLabel')}</label>
    <textarea id="prompt" part="prompt" rows="4" .value=${prompt} aria-describedby="prompt-hint counter" aria-invalid=${left < 0 ? 'true' : 'false'}
      ?disabled=${disabled} @input=${(e: Event) => onInput((e.target as HTMLTextAreaElement).value)}></textarea>
    <div class="prompt-meta">
      <span class="muted" id="prompt-hint">${t.term('mgPromptHint', { min: LIMITS.model.minPromptChars, max })}</span>
      <span part="counter" id="counter" class="counter nums ${left < 0 ? 'over' : left <= 20 ? 'near' : ''}">${t.term('mgCounter', { length, max })}${left <= 20 ? html`<span class="sr-only">, ${t.term('mgCharsLeft', { left })}</span>` : nothing}</span>
    </div>
  </div>`;
}
