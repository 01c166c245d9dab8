/**
 * The choices of <headshot-studio> before spending: the photo (picker, drop, paste, or the live
 * camera with its framing guide), then the checked photo, hints about it (never blocking), the
 * four styles with the API's descriptions, which slots to make, and the generate button with its
 * price. Rendering only; the element owns the state.
 */
import { html, nothing } from 'lit';
import { LIMITS, type VariantSlot } from '../../api/index.js';
import { imageLimits, limitsLine } from '../shared/limits.js';
import { renderPhotoFit } from '../shared/photo-fit.js';
import type { PhotoAdvice } from './photo-checks.js';
import { MIN_SHORT_SIDE } from './photo.js';
import { slotsOf, type StudioView } from './types.js';

/** No photo yet: the drop zone with the picker and camera buttons, or the live camera. */
export function renderIntake(v: StudioView) {
  const { t, intake, camera } = v;
  if (camera.open) return camera.render(t, () => void v.host.takePhoto(), v.off);
  return html`<div part="drop-zone" class="drop ${intake.dragging ? 'dragging' : ''}">
    <svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="9" r="4" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M4.5 20c1.2-3.6 4-5.5 7.5-5.5s6.3 1.9 7.5 5.5" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>
    <div class="actions center">
      ${intake.render(t.term('hsChoose'), { describedBy: 'limits' })}
      ${intake.renderCamera(t.term('hsCamera'), { onClick: () => void v.host.openCamera() })}
    </div>
    <p class="muted">${intake.dragging ? t.term('dropActive') : t.term('dropHere')}</p>
    ${limitsLine(t.term('hsLimits', imageLimits(t.f)))}
    ${camera.state === 'denied' ? html`<p class="notice" role="status">${t.term('hsCameraDenied')}</p>` : nothing}
  </div>`;
}

/** A checked photo: its thumbnail and facts, the choices, and the generate button. */
export function renderReady(v: StudioView) {
  const { t, photo, slots } = v;
  const { file, dims } = photo;
  // Off when disabled, with no slot chosen, or with too few credits (a script calling start() anyway gets the 402 panel).
  const generateOff = v.off || !slots.length || (v.remaining ?? Infinity) < v.cost;
  return html`<div class="ready">
    <div class="photo-row">
      <img part="photo" src=${photo.url ?? nothing} alt=${t.term('hsPhotoAlt')} />
      <div class="photo-facts">
        <p class="file-name">${file?.name}</p>
        ${dims ? html`<p class="muted nums">${t.f.dims(dims.width, dims.height)} · ${t.f.bytes(file?.size ?? 0)}</p>` : nothing}
        ${renderPhotoFit(t, photo.fit, photo.checked)}
        <button type="button" class="link" ?disabled=${v.off} @click=${() => v.host.reset()}>${t.term('hsNewPhoto')}</button>
      </div>
    </div>
    ${renderChoices(v)}
    <div class="actions">
      <button type="button" part="primary-button" class="primary" aria-describedby="price-note" data-validity-anchor
        ?disabled=${generateOff} @click=${() => void v.host.start()}>
        ${t.term('hsGenerate', { count: slots.length, cost: v.cost })}
      </button>
    </div>
  </div>`;
}

function renderChoices(v: StudioView) {
  const { t, photo } = v;
  // From the slots at the click, not at the render: two clicks may come before the next render.
  const toggle = (slot: VariantSlot, on: boolean) => {
    const now = slotsOf(v.host.variants);
    v.host.variants = on ? [...new Set([...now, slot])].sort() : now.filter((x) => x !== slot);
  };
  // The size the check itself uses: the headshot endpoint states none (LIMITS' 512 px is 3D generation's advice).
  const adviceText = (a: PhotoAdvice) =>
    a === 'small'
      ? t.term('hsAdviceSmall', { ...(photo.dims ?? { width: 0, height: 0 }), px: MIN_SHORT_SIDE })
      : t.term(({ dark: 'hsAdviceDark', uneven: 'hsAdviceUneven', blurry: 'hsAdviceBlurry' } as const)[a]);
  return html`${
    photo.advice.length
      ? html`<div class="advice" part="advice">
          <h3>${t.term('hsAdviceTitle')}</h3>
          <ul>${photo.advice.map((a) => html`<li data-advice=${a}>${adviceText(a)}</li>`)}</ul>
          <p class="muted">${t.term('hsAdviceGoOn')}</p>
        </div>`
      : nothing
  }
    <fieldset part="styles" class="styles">
      <legend>${t.term('hsStyleLegend')}</legend>
      ${LIMITS.headshot.styles.map(
        (style) => html`<label class="choice">
          <input type="radio" name="style" value=${style} .checked=${v.host.headshotStyle === style} ?disabled=${v.off} @change=${() => (v.host.headshotStyle = style)} />
          <span><strong>${t.term(`hsStyle_${style}`)}</strong><span class="muted">${t.term(`hsStyleDesc_${style}`)}</span></span>
        </label>`,
      )}
      <p class="muted note">${t.term('hsStyleNote')}</p>
    </fieldset>
    <fieldset part="slots" class="slots">
      <legend>${t.term('hsSlotsLegend')}</legend>
      ${LIMITS.headshot.slots.map(
        (slot) => html`<label class="choice compact">
          <input type="checkbox" value=${slot} .checked=${v.slots.includes(slot)} ?disabled=${v.off} @change=${(e: Event) => toggle(slot, (e.target as HTMLInputElement).checked)} />
          <span>${t.term(`hsSlot${slot}`)}</span>
        </label>`,
      )}
      <p class="muted note" id="price-note">${v.slots.length ? t.term('hsPriceNote') : t.term('hsSlotsNone')}</p>
    </fieldset>`;
}
