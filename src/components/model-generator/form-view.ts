/**
 * <model-generator>'s template before a job: the mode tabs (ARIA tabs, arrow keys), the photos
 * panel (drop zone, photo list, background removal, advice) or the description panel, the
 * quality choice, a pinned seed and the generate button with its price. A disabled element
 * (itself or its fieldset) disables every control: a disabled fieldset outside a shadow root
 * does not reach the controls inside it.
 */
import { html, nothing } from 'lit';
import { COSTS, LIMITS } from '../../api/index.js';
import { renderPrompt, renderQuality } from './parts.js';
import { MODES, type FormView, type ModelGeneratorMode as Mode } from './types.js';

export function renderFormView(v: FormView) {
  const { t } = v;
  const short = (v.credits ?? Infinity) < COSTS.modelJob;
  return html`<div class="tabs" role="tablist" part="tabs" aria-label=${t.term('mgModes')}>${renderTab(v, 'photos', t.term('mgModePhotos'))}${renderTab(v, 'prompt', t.term('mgModePrompt'))}</div>
    <div role="tabpanel" id=${`panel-${v.mode}`} aria-labelledby=${`tab-${v.mode}`} class="panel">
      ${v.mode === 'photos' ? renderPhotos(v) : renderPrompt(t, v.prompt, v.disabled, (prompt) => void v.set({ prompt }))}
    </div>
    ${renderQuality(t, v.quality, v.mode === 'prompt' ? 'text' : 'image', v.disabled, (quality) => void v.set({ quality }))}
    ${v.seed !== undefined ? html`<p class="muted" part="seed">${t.term('mgSeedPinned', { seed: v.seed })}</p>` : nothing}
    <div class="actions">
      <button type="button" part="primary-button" class="primary" ?disabled=${v.disabled || short || v.status !== 'ready'} @click=${v.start}>
        ${t.term('mgGenerate', { cost: COSTS.modelJob })}
      </button>
    </div>`;
}

function renderTab(v: FormView, m: Mode, label: string) {
  const selected = v.mode === m;
  const onKey = (e: KeyboardEvent) => {
    const i = MODES.indexOf(v.mode);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: MODES.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const mode = MODES[(next + MODES.length) % MODES.length]!;
    const list = (e.currentTarget as HTMLElement).parentElement!;
    void v.set({ mode }).then(() => list.querySelector<HTMLElement>(`#tab-${mode}`)?.focus());
  };
  return html`<button type="button" role="tab" id=${`tab-${m}`} aria-controls=${`panel-${m}`} aria-selected=${selected ? 'true' : 'false'} tabindex=${selected ? 0 : -1}
    ?disabled=${v.disabled} @click=${() => void v.set({ mode: m })} @keydown=${onKey}>${label}</button>`;
}

function renderPhotos(v: FormView) {
  const { t } = v;
  return html`${v.photos.renderIntake()}
    ${v.photos.render(v.disabled)}
    <label class="toggle"><input type="checkbox" .checked=${v.removeBackground} ?disabled=${v.disabled} @change=${(e: Event) => void v.set({ removeBackground: (e.target as HTMLInputElement).checked })} aria-describedby="rb-hint" />
      <span>${t.term('mgRemoveBackground')} <span class="muted" id="rb-hint">${t.term('mgRemoveBackgroundHint')}</span></span></label>
    <div class="advice" part="advice">
      <h3>${t.term('mgAdviceTitle')}</h3>
      <ul><li>${t.term('mgAdvice1')}</li><li>${t.term('mgAdvice2', { px: LIMITS.model.recommendedMinImagePixels })}</li><li>${t.term('mgAdvice3')}</li></ul>
    </div>`;
}
