/**
 * The choices of <headshot-studio> before spending: the checked photo, hints about it (never
 * blocking), the four styles with the API's descriptions, which slots to make, and the generate
 * button with its price. Rendering only.
 */
import { html, nothing } from 'lit';
import { LIMITS, type HeadshotStyle, type VariantSlot } from '../../api/index.js';
import type { LocalizeController } from '../shared/localize.js';
import type { SharedStrings } from '../shared/strings.js';
import type { PhotoAdvice } from './photo-checks.js';
import type { HeadshotPhoto } from './photo.js';
import type { HeadshotStrings } from './strings.js';

export interface ChoicesView {
  t: LocalizeController<HeadshotStrings & SharedStrings>;
  advice: PhotoAdvice[];
  dims: { width: number; height: number } | undefined;
  style: HeadshotStyle;
  slots: VariantSlot[];
  slotName(slot: VariantSlot): string;
  onStyle(style: HeadshotStyle): void;
  onSlot(slot: VariantSlot, on: boolean): void;
}

export interface ReadyView extends Omit<ChoicesView, 'advice' | 'dims'> {
  photo: HeadshotPhoto;
  /** The price of the chosen slots. */
  cost: number;
  /** The generate button is off (disabled, no slot, too few credits). */
  disabled: boolean;
  onNewPhoto(): void;
  onGenerate(): void;
}

/** A checked photo: its thumbnail and facts, the choices, and the generate button. */
export function renderReady(v: ReadyView) {
  const { t, photo, slots } = v;
  const { file, dims } = photo;
  return html`<div class="ready">
    <div class="photo-row">
      <img part="photo" src=${photo.url ?? nothing} alt=${t.term('hsPhotoAlt')} />
      <div class="photo-facts">
        <p class="file-name">${file?.name}</p>
        ${dims ? html`<p class="muted nums">${dims.width}×${dims.height} · ${t.f.bytes(file?.size ?? 0)}</p>` : nothing}
        <button type="button" class="link" @click=${v.onNewPhoto}>${t.term('hsNewPhoto')}</button>
      </div>
    </div>
    ${renderChoices({ ...v, advice: photo.advice, dims })}
    <div class="actions">
      <button type="button" part="generate-button" class="primary" aria-describedby="price-note" data-validity-anchor
        ?disabled=${v.disabled} @click=${v.onGenerate}>
        ${t.term('hsGenerate', { count: slots.length, cost: v.cost })}
      </button>
    </div>
  </div>`;
}

export function renderChoices(v: ChoicesView) {
  const t = v.t;
  const adviceText = (a: PhotoAdvice) =>
    a === 'small' ? t.term('hsAdviceSmall', v.dims ?? { width: 0, height: 0 }) : t.term(({ dark: 'hsAdviceDark', uneven: 'hsAdviceUneven', blurry: 'hsAdviceBlurry' } as const)[a]);
  return html`${v.advice.length
      ? html`<div class="advice" part="advice">
          <h3>${t.term('hsAdviceTitle')}</h3>
          <ul>${v.advice.map((a) => html`<li data-advice=${a}>${adviceText(a)}</li>`)}</ul>
          <p class="muted">${t.term('hsAdviceGoOn')}</p>
        </div>`
      : nothing}
    <fieldset part="styles" class="styles">
      <legend>${t.term('hsStyleLegend')}</legend>
      ${LIMITS.headshot.styles.map(
        (style) => html`<label class="choice">
          <input type="radio" name="style" value=${style} .checked=${v.style === style} @change=${() => v.onStyle(style)} />
          <span><strong>${t.term(`hsStyle_${style}`)}</strong><span class="muted">${t.term(`hsStyleDesc_${style}`)}</span></span>
        </label>`,
      )}
      <p class="muted note">${t.term('hsStyleNote')}</p>
    </fieldset>
    <fieldset part="slots" class="slots">
      <legend>${t.term('hsSlotsLegend')}</legend>
      ${LIMITS.headshot.slots.map(
        (slot) => html`<label class="choice compact">
          <input type="checkbox" value=${slot} .checked=${v.slots.includes(slot)} @change=${(e: Event) => v.onSlot(slot, (e.target as HTMLInputElement).checked)} />
          <span>${v.slotName(slot)}</span>
        </label>`,
      )}
      <p class="muted note" id="price-note">${v.slots.length ? t.term('hsPriceNote') : t.term('hsSlotsNone')}</p>
    </fieldset>`;
}
