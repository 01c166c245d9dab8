/**
 * The field's box (field mode, field.ts): the saved result's picture or an icon, what made it, where
 * it stands in one status line (saved, in progress, not saved, or what went wrong with what to do),
 * and Create / Open / Replace / Remove.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ExpandReason } from '../../events/expand-requested.js';
import type { FieldStrings } from './field-strings.js';
import type { LocalizeController } from './localize.js';
import type { ResultValueBase, ResultValueController } from './result-value.js';
import { isSavedFileGone } from './saved-file-gone.js';
import type { SharedStrings } from './strings.js';

/** What the field shows of the element's result; the element says it. */
export interface FieldFacts {
  /** The element's words (its title and the shared strings). */
  t: LocalizeController<SharedStrings>;
  /** What the element makes ("Remove a background"). */
  title: string;
  /** What made the result, in a line ("A red chair · standard"). */
  detail?: string | undefined;
  /** A picture of the result that does not expire (a kept image or poster). */
  preview?: string | undefined;
  /** The element is working (a request or a job) with no value to show yet. */
  busy: boolean;
  /** The icon where there is no picture: an image (default), a model, a scene. */
  icon?: 'image' | 'model' | 'scene';
  /** Whether the result is kept; default: the value has an `asset`. */
  kept?: boolean | undefined;
  /** The element stopped on a failure (its status `failed` or `expired`). */
  failed?: boolean | undefined;
  /** The shown job's error code when it stopped (`not_found`: this session cannot see it; `expired`). */
  jobError?: string | undefined;
  /** What the element shows as wrong: its error, or its kept file's (a `SavedFileGone`). */
  error?: unknown;
}

const ICONS = {
  image:
    'M4 5a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V5zm2 0v10.6l3.3-3.3a1 1 0 0 1 1.4 0l2.3 2.3 3.3-3.3a1 1 0 0 1 1.4 0l.3.3V5H6zm3 4.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3z',
  model:
    'M12 2.5 3.5 7v10l8.5 4.5 8.5-4.5V7L12 2.5zm0 2.3L18.1 8 12 11.2 5.9 8 12 4.8zM5.5 9.7l5.5 2.9v6.3l-5.5-2.9V9.7zm7.5 9.2v-6.3l5.5-2.9v6.3L13 18.9z',
  scene: 'M3 18.5 9 9l4 6 2.5-3.5L21 18.5H3zM16.5 8a2 2 0 1 0 0-4 2 2 0 0 0 0 4zM2 20h20v1.5H2V20z',
};

/** What the box reads of the field controller and the element's value. */
export interface FieldBoxState {
  /** The field's name (the host's label); empty: the title names it. */
  name: string;
  value: ResultValueBase | null;
  keeping: ResultValueController<ResultValueBase>['keeping'];
  /** Replace holds a saved value (field.ts `held`). */
  held: boolean;
  /** A preview picture that did not load (its URL): the saved file is gone. */
  broken: string;
  disabled: boolean;
  onPreviewError(src: string): void;
  expand(reason: ExpandReason): void;
  remove(): void;
}

/** What went wrong, in the box's words with what to do (undefined: nothing). */
function fieldProblem(f: FieldFacts, broken: string): string | undefined {
  const t = f.t as unknown as LocalizeController<FieldStrings>;
  if (isSavedFileGone(f.error) || (!!f.preview && f.preview === broken)) return t.term('fieldGone');
  if (!f.failed) return undefined;
  if (f.jobError === 'not_found') return t.term('fieldUnknown');
  if (f.jobError === 'expired') return t.term('fieldExpired');
  return t.term('fieldFailed');
}

export function renderFieldBox(f: FieldFacts, b: FieldBoxState): TemplateResult {
  const t = f.t as unknown as LocalizeController<SharedStrings & FieldStrings>;
  const { value, name } = b;
  const off = b.disabled;
  const has = value !== null;
  // One primary button, Create or Open, so the focus stays on it when one becomes the other.
  const held = !has && !f.busy && b.held;
  const open = has || f.busy || held;
  const problem = fieldProblem(f, b.broken);
  let status: string;
  if (b.keeping === 'keeping') status = t.term('keepSaving');
  else if (problem) status = problem;
  else if (b.keeping === 'failed') status = t.term('fieldNotSaved');
  else if (value?.status === 'running' || (!has && f.busy)) status = t.term('fieldRunning');
  else if (held) status = t.term('keepSaved');
  else if (!has) status = t.term('fieldEmpty');
  else if (f.kept ?? !!value.asset) status = t.term('keepSaved');
  else status = t.term('fieldNotSaved');
  return html`<div
        part="field"
        class="field-box"
        role="group"
        aria-label=${name || nothing}
        aria-labelledby=${name ? nothing : 'mk-field-title'}
        lang=${t.resolved}
        dir=${t.dir}
      >
        <div class="field-preview" aria-hidden="true">
          ${
            f.preview && f.preview !== b.broken
              ? html`<img
                  part="field-preview"
                  src=${f.preview}
                  alt=""
                  @error=${(e: Event) => b.onPreviewError((e.target as HTMLImageElement).getAttribute('src') ?? '')}
                />`
              : html`<svg viewBox="0 0 24 24" width="28" height="28">
                <path fill="currentColor" d=${ICONS[f.icon ?? 'image']} />
              </svg>`
          }
        </div>
        <div class="field-text">
          <span part="field-title" class="field-title" id="mk-field-title">${f.title}</span>
          ${has && f.detail ? html`<span part="field-detail" class="field-detail">${f.detail}</span>` : nothing}
          <span part="field-status" class=${problem ? 'field-status field-problem' : 'field-status muted'}
            >${status}</span
          >
        </div>
        <div class="field-actions">
          <button
            type="button"
            class="button primary"
            part=${open ? 'field-open' : 'field-create'}
            aria-haspopup="dialog"
            aria-describedby="mk-field-title"
            data-validity-anchor
            ?disabled=${off}
            @click=${() => b.expand(open ? 'open' : 'create')}
          >
            ${t.term(open ? 'fieldOpen' : 'fieldCreate')}
          </button>
          ${
            has && value.status !== 'running'
              ? html`<button
                type="button"
                class="button secondary"
                part="field-replace"
                aria-haspopup="dialog"
                aria-describedby="mk-field-title"
                ?disabled=${off}
                @click=${() => b.expand('replace')}
              >
                ${t.term('fieldReplace')}
              </button>`
              : nothing
          }
          ${
            has
              ? html`<button
                type="button"
                class="button secondary"
                part="field-remove"
                aria-describedby="mk-field-title"
                ?disabled=${off}
                @click=${() => b.remove()}
              >
                ${t.term('fieldRemove')}
              </button>`
              : nothing
          }
        </div>
      </div>`;
}
