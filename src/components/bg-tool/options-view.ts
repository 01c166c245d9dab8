/**
 * The options of <bg-tool>, the spec's parameters of POST /api/v1: size, format, background colour
 * (a colour input plus "none") and crop; then the run button with its cost, the progress while it
 * works, and the note that running again is a new charge. Rendering only; the element owns the values.
 */
import { html, nothing } from 'lit';
import { COSTS, LIMITS, type ImageToolSize } from '../../api/index.js';
import { renderPhotoFit } from '../shared/photo-fit.js';
import { renderProgress } from '../shared/progress.js';
import { hex6 } from './colour.js';
import type { BgView } from './types.js';

/** A size's label; auto and preview say their limit, from the API's table. */
function sizeLabel(t: BgView['t'], size: ImageToolSize): string {
  const { autoMaxPixels, previewMaxPixels } = LIMITS.imageTools;
  if (size === 'auto') return t.term('bgSize_auto', { megapixels: autoMaxPixels / 1_000_000 });
  if (size === 'preview') return t.term('bgSize_preview', { megapixels: previewMaxPixels / 1_000_000 });
  return t.term('bgSize_full');
}

export function renderOptions(v: BgView) {
  const t = v.t;
  const none = v.bgColor === 'none';
  const again = !!v.result;
  return html`${renderPhotoFit(t, v.image.fit, v.image.checked)}
    <fieldset part="options" class="options" ?disabled=${v.busy || v.disabled}>
      <legend>${t.term('bgOptions')}</legend>
      <label class="field">${t.term('bgSize')}
        <select .value=${v.size} @change=${(e: Event) => v.setOptions({ size: (e.target as HTMLSelectElement).value as ImageToolSize })}>
          ${LIMITS.imageTools.sizes.map((s) => html`<option value=${s} ?selected=${v.size === s}>${sizeLabel(t, s)}</option>`)}
        </select>
      </label>
      <div class="field" role="radiogroup" aria-labelledby="format-label">
        <span id="format-label">${t.term('bgFormat')}</span>
        <div class="row">
          ${LIMITS.imageTools.formats.map(
            (f) => html`<label class="check"><input type="radio" name="format" value=${f} .checked=${v.format === f}
              @change=${() => v.setOptions({ format: f })} />${t.term(`bgFormat_${f}`)}</label>`,
          )}
        </div>
      </div>
      <div class="field" role="group" aria-labelledby="bg-label">
        <span id="bg-label">${t.term('bgBackground')}</span>
        <div class="row">
          <label class="check"><input type="checkbox" name="none" .checked=${none}
            @change=${(e: Event) => v.setOptions({ bgColor: (e.target as HTMLInputElement).checked ? 'none' : v.colour })} />${t.term('bgNone')}</label>
          <label class="check colour"><input type="color" name="bg" .value=${none ? v.colour : hex6(v.bgColor)} aria-label=${t.term('bgColour')}
            @input=${(e: Event) => v.setOptions({ bgColor: (e.target as HTMLInputElement).value })}
          /><span class="muted nums">${none ? '' : hex6(v.bgColor)}</span></label>
        </div>
        ${none && v.format === 'jpg' ? html`<p class="muted">${t.term('bgJpgWhite')}</p>` : nothing}
      </div>
      <label class="check"><input type="checkbox" name="crop" .checked=${v.crop}
        @change=${(e: Event) => v.setOptions({ crop: (e.target as HTMLInputElement).checked })} />${t.term('bgCrop')}</label>
    </fieldset>
    <div class="actions">
      <button type="button" part="primary-button" class="primary" aria-describedby=${again ? 'again-note' : nothing}
        ?disabled=${v.busy || v.disabled || v.short} @click=${v.start}>
        ${again ? t.term('bgRunAgain', { cost: COSTS.imageTool }) : t.term('bgRun', { cost: COSTS.imageTool })}
      </button>
      ${v.busy ? renderProgress(undefined, t.term('bgWorking')) : nothing}
    </div>
    ${again ? html`<p class="muted" id="again-note">${t.term('bgRunAgainNote')}</p>` : nothing}`;
}
