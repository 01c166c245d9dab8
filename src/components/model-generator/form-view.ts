/**
 * <model-generator>'s template before a job: the mode tabs (ARIA tabs, arrow keys), the photos
 * panel (drop zone, photo list, background removal, advice) or the description panel, the
 * quality choice, a pinned seed and the generate button with its price.
 */
import { html, nothing } from 'lit';
import { COSTS, type ModelQuality } from '../../api/index.js';
import type { FileIntakeController } from '../shared/file-intake.js';
import type { LocalizeController } from '../shared/localize.js';
import type { SharedStrings } from '../shared/strings.js';
import { renderPrompt, renderQuality } from './parts.js';
import type { PhotoListController } from './photo-list.js';
import type { ModelGeneratorMode as Mode } from './model-generator.js';
import type { ModelGeneratorStrings } from './strings.js';

const MODES: readonly Mode[] = ['photos', 'prompt'];

/** The element's public input properties, which the form sets as a script would. */
export interface FormHost extends HTMLElement {
  mode: Mode;
  prompt: string;
  quality: ModelQuality;
  seed: number | undefined;
  removeBackground: boolean;
  readonly updateComplete: Promise<boolean>;
  start(): Promise<void>;
}

export interface FormViewContext {
  t: LocalizeController<ModelGeneratorStrings & SharedStrings>;
  disabled: boolean;
  /** The input is checked (status `ready`). */
  ready: boolean;
  /** Credits left in the session, when known. */
  credits: number | undefined;
  photos: PhotoListController;
  intake: FileIntakeController;
}

export function renderFormView(host: FormHost, c: FormViewContext) {
  const { t } = c;
  const short = (c.credits ?? Infinity) < COSTS.modelJob;
  return html`<div class="tabs" role="tablist" part="tabs" aria-label=${t.term('mgModes')}>${renderTab(host, 'photos', t.term('mgModePhotos'))}${renderTab(host, 'prompt', t.term('mgModePrompt'))}</div>
    <div role="tabpanel" id=${`panel-${host.mode}`} aria-labelledby=${`tab-${host.mode}`} class="panel">
      ${host.mode === 'photos' ? renderPhotos(host, c) : renderPrompt(t, host.prompt, (value) => (host.prompt = value))}
    </div>
    ${renderQuality(t, host.quality, host.mode === 'prompt' ? 'text' : 'image', c.disabled, (q) => (host.quality = q))}
    ${host.seed !== undefined ? html`<p class="muted" part="seed">${t.term('mgSeedPinned', { seed: host.seed })}</p>` : nothing}
    <div class="actions">
      <button type="button" part="generate-button" class="primary" ?disabled=${c.disabled || short || !c.ready} @click=${() => void host.start()}>
        ${t.term('mgGenerate', { cost: COSTS.modelJob })}
      </button>
    </div>`;
}

function renderTab(host: FormHost, m: Mode, label: string) {
  const selected = host.mode === m;
  const onKey = (e: KeyboardEvent) => {
    const i = MODES.indexOf(host.mode);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: MODES.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const mode = (host.mode = MODES[(next + MODES.length) % MODES.length]!);
    void host.updateComplete.then(() => host.shadowRoot?.querySelector<HTMLElement>(`#tab-${mode}`)?.focus());
  };
  return html`<button type="button" role="tab" id=${`tab-${m}`} aria-controls=${`panel-${m}`} aria-selected=${selected ? 'true' : 'false'} tabindex=${selected ? 0 : -1}
    @click=${() => (host.mode = m)} @keydown=${onKey}>${label}</button>`;
}

function renderPhotos(host: FormHost, c: FormViewContext) {
  const { t } = c;
  return html`${c.photos.renderIntake(c.intake)}
    ${c.photos.render()}
    <label class="toggle"><input type="checkbox" .checked=${host.removeBackground} @change=${(e: Event) => (host.removeBackground = (e.target as HTMLInputElement).checked)} aria-describedby="rb-hint" />
      <span>${t.term('mgRemoveBackground')} <span class="muted" id="rb-hint">${t.term('mgRemoveBackgroundHint')}</span></span></label>
    <div class="advice" part="advice">
      <h3>${t.term('mgAdviceTitle')}</h3>
      <ul><li>${t.term('mgAdvice1')}</li><li>${t.term('mgAdvice2')}</li><li>${t.term('mgAdvice3')}</li></ul>
    </div>`;
}
