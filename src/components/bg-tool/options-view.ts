/**
 * The options of <bg-tool>, the spec's parameters of POST /api/v1: size, format, background colour
 * (a colour input plus "none") and crop. Rendering only; the element owns the values.
 */
import { html, nothing } from 'lit';
import { LIMITS, type ImageToolFormat, type ImageToolSize } from '../../api/index.js';
import type { LocalizeController } from '../shared/localize.js';
import type { SharedStrings } from '../shared/strings.js';
import type { BgStrings } from './strings.js';

export interface OptionsView {
  t: LocalizeController<BgStrings & SharedStrings>;
  disabled: boolean;
  size: ImageToolSize;
  format: ImageToolFormat;
  /** `none` or a colour. */
  bgColor: string;
  /** The colour the input shows (the last one chosen, also while "none" is ticked). */
  colour: string;
  crop: boolean;
  onSize(size: ImageToolSize): void;
  onFormat(format: ImageToolFormat): void;
  onNone(none: boolean): void;
  onColour(colour: string): void;
  onCrop(crop: boolean): void;
}

/** `#abc` or `abc` -> `#aabbcc` (what `<input type=color>` takes). */
export function hex6(colour: string): string {
  const h = colour.replace('#', '').toLowerCase();
  return '#' + (h.length === 3 ? [...h].map((c) => c + c).join('') : h);
}

export function renderOptions(v: OptionsView) {
  const t = v.t;
  const none = v.bgColor === 'none';
  return html`<fieldset part="options" class="options" ?disabled=${v.disabled}>
    <legend>${t.term('bgOptions')}</legend>
    <label class="field">${t.term('bgSize')}
      <select .value=${v.size} @change=${(e: Event) => v.onSize((e.target as HTMLSelectElement).value as ImageToolSize)}>
        ${LIMITS.imageTools.sizes.map((s) => html`<option value=${s} ?selected=${v.size === s}>${t.term(`bgSize_${s}`)}</option>`)}
      </select>
    </label>
    <div class="field" role="radiogroup" aria-labelledby="format-label">
      <span id="format-label">${t.term('bgFormat')}</span>
      <div class="row">
        ${LIMITS.imageTools.formats.map(
          (f) => html`<label class="check"><input type="radio" name="format" value=${f} .checked=${v.format === f} @change=${() => v.onFormat(f)} />${t.term(`bgFormat_${f}`)}</label>`,
        )}
      </div>
    </div>
    <div class="field" role="group" aria-labelledby="bg-label">
      <span id="bg-label">${t.term('bgBackground')}</span>
      <div class="row">
        <label class="check"><input type="checkbox" name="none" .checked=${none} @change=${(e: Event) => v.onNone((e.target as HTMLInputElement).checked)} />${t.term('bgNone')}</label>
        <label class="check colour"><input type="color" name="bg" .value=${none ? v.colour : hex6(v.bgColor)} aria-label=${t.term('bgColour')}
          @input=${(e: Event) => v.onColour((e.target as HTMLInputElement).value)} /><span class="muted nums">${none ? '' : hex6(v.bgColor)}</span></label>
      </div>
      ${none && v.format === 'jpg' ? html`<p class="muted">${t.term('bgJpgWhite')}</p>` : nothing}
    </div>
    <label class="check"><input type="checkbox" name="crop" .checked=${v.crop} @change=${(e: Event) => v.onCrop((e.target as HTMLInputElement).checked)} />${t.term('bgCrop')}</label>
  </fieldset>`;
}
