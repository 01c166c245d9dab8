/**
 * Field mode (`appearance="field"`, README "In a CMS"): what a product element shows in an edit
 * form. A compact box (at most about 200 px) with the saved result (a thumbnail or poster, what
 * made it, where it stands) and Create / Open / Replace / Remove; the whole element opens in a
 * modal `<dialog>` of its own shadow root (focus stays inside, Escape or Done closes it, whatever
 * runs goes on), unless the host cancels `mk-request-expand` to show it in its own modal.
 *
 * The card is rendered inside the dialog all the time, so closing the dialog loses nothing: the
 * same state, jobs and requests go on, and the polite live region moves out of the dialog so what
 * happens while it is closed is still announced.
 */
import { css, html, nothing, type ReactiveController, type TemplateResult } from 'lit';
import { RequestExpandEvent, type ExpandReason } from '../../events/request-expand.js';
import type { LocalizeController } from './localize.js';
import type { ResultValueBase, ResultValueController } from './result-value.js';
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
}

const ICONS = {
  image:
    'M4 5a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V5zm2 0v10.6l3.3-3.3a1 1 0 0 1 1.4 0l2.3 2.3 3.3-3.3a1 1 0 0 1 1.4 0l.3.3V5H6zm3 4.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3z',
  model:
    'M12 2.5 3.5 7v10l8.5 4.5 8.5-4.5V7L12 2.5zm0 2.3L18.1 8 12 11.2 5.9 8 12 4.8zM5.5 9.7l5.5 2.9v6.3l-5.5-2.9V9.7zm7.5 9.2v-6.3l5.5-2.9v6.3L13 18.9z',
  scene: 'M3 18.5 9 9l4 6 2.5-3.5L21 18.5H3zM16.5 8a2 2 0 1 0 0-4 2 2 0 0 0 0 4zM2 20h20v1.5H2V20z',
};

export type { ExpandReason };

type Host = HTMLElement & {
  addController(c: ReactiveController): void;
  requestUpdate(): void;
  readonly renderRoot: HTMLElement | DocumentFragment;
  value: string;
};

export interface FieldOptions {
  facts(): FieldFacts;
  results(): ResultValueController<ResultValueBase>;
  /** Back to the element's start with no event (the form reset's path). */
  reset(): void;
}

export class FieldController implements ReactiveController {
  readonly #host: Host;
  readonly #o: FieldOptions;
  /** The value before Replace, put back if the dialog closes with nothing new. */
  #previous: string | undefined;

  constructor(host: Host, options: FieldOptions) {
    this.#host = host;
    this.#o = options;
    host.addController(this);
    // This module loads on demand, after the element's own styles were adopted: add the field's.
    const root = host.renderRoot as ShadowRoot;
    const sheet = fieldStyles.styleSheet;
    if (sheet && root.adoptedStyleSheets && !root.adoptedStyleSheets.includes(sheet))
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }

  hostConnected(): void {}

  get #dialog(): HTMLDialogElement | null {
    return this.#host.renderRoot.querySelector('dialog');
  }

  /** Whether the element's own dialog is open. */
  get open(): boolean {
    return !!this.#dialog?.open;
  }

  /** Opens the whole element, in its dialog or (when the host cancels `mk-request-expand`) the host's. */
  expand(reason: ExpandReason): boolean {
    if (!this.#host.dispatchEvent(new RequestExpandEvent({ reason }))) return false;
    if (reason === 'replace') {
      this.#previous = this.#host.value;
      this.#o.reset();
    }
    const dialog = this.#dialog;
    if (dialog && !dialog.open) dialog.showModal();
    this.#host.requestUpdate();
    return true;
  }

  /** Closes the element's dialog (Done); whatever runs goes on. */
  close(): void {
    this.#dialog?.close();
  }

  /** The user removed the result: the value is cleared, `change` fires, the element starts over. */
  remove(): void {
    this.#o.results().remove();
    this.#o.reset();
    this.#host.requestUpdate();
  }

  /**
   * Escape closes the dialog, claimed here: a host that gives an unclaimed Escape a meaning of its
   * own (Gutenberg's iframe canvas cancels it and moves the focus out) then leaves it alone.
   */
  #keydown = (e: KeyboardEvent): void => {
    if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing) return;
    e.preventDefault();
    this.close();
  };

  #closed = (): void => {
    // Replace, then closed with nothing new made or running: the old value comes back, silently.
    const previous = this.#previous;
    this.#previous = undefined;
    if (previous && !this.#host.value && !this.#o.facts().busy) this.#o.results().restore(previous);
    this.#host.requestUpdate();
  };

  /** The field and the dialog around the element's card; `announcer` is the element's live region. */
  render(card: TemplateResult, announcer: TemplateResult): TemplateResult {
    const f = this.#o.facts();
    const { t } = f;
    const results = this.#o.results();
    const value = results.value;
    const has = value !== null;
    let status: string;
    if (results.keeping === 'keeping') status = t.term('keepSaving');
    else if (results.keeping === 'failed') status = t.term('fieldNotSaved');
    else if (value?.status === 'running' || (!has && f.busy)) status = t.term('fieldRunning');
    else if (!has) status = t.term('fieldEmpty');
    else if (value.asset) status = t.term('keepSaved');
    else status = t.term('fieldNotSaved');
    return html`<div part="field" class="field-box" lang=${t.resolved} dir=${t.dir}>
        <div class="field-preview" aria-hidden="true">
          ${
            f.preview
              ? html`<img part="field-preview" src=${f.preview} alt="" />`
              : html`<svg viewBox="0 0 24 24" width="28" height="28">
                <path fill="currentColor" d=${ICONS[f.icon ?? 'image']} />
              </svg>`
          }
        </div>
        <div class="field-text">
          <span part="field-title" class="field-title">${f.title}</span>
          ${has && f.detail ? html`<span part="field-detail" class="field-detail">${f.detail}</span>` : nothing}
          <span part="field-status" class="field-status muted">${status}</span>
        </div>
        <div class="field-actions">
          ${
            has || f.busy
              ? html`<button
                  type="button"
                  class="button primary"
                  part="field-open"
                  aria-haspopup="dialog"
                  @click=${() => this.expand('open')}
                >
                  ${t.term('fieldOpen')}
                </button>
                ${
                  has
                    ? html`<button
                        type="button"
                        class="button secondary"
                        part="field-replace"
                        aria-haspopup="dialog"
                        @click=${() => this.expand('replace')}
                      >
                        ${t.term('fieldReplace')}
                      </button>
                      <button type="button" class="button secondary" part="field-remove" @click=${() => this.remove()}>
                        ${t.term('fieldRemove')}
                      </button>`
                    : nothing
                }`
              : html`<button
                type="button"
                class="button primary"
                part="field-create"
                aria-haspopup="dialog"
                @click=${() => this.expand('create')}
              >
                ${t.term('fieldCreate')}
              </button>`
          }
        </div>
      </div>
      <dialog
        part="dialog"
        class="field-dialog"
        aria-labelledby="title"
        @close=${this.#closed}
        @keydown=${this.#keydown}
      >
        <div class="dialog-bar" lang=${t.resolved} dir=${t.dir}>
          <button type="button" class="button secondary" part="dialog-close" @click=${() => this.close()}>
            ${t.term('fieldDone')}
          </button>
        </div>
        ${card}
      </dialog>
      ${announcer}`;
  }
}

export const fieldStyles = css`
  .field-box {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr) auto;
    align-items: center;
    gap: calc(var(--_space) * 1.5);
    padding: calc(var(--_space) * 1.5);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    max-block-size: 200px;
    min-inline-size: 0;
  }
  .field-preview {
    inline-size: 72px;
    block-size: 72px;
    border-radius: calc(var(--_radius) / 2);
    background: var(--_surface-2)
      repeating-conic-gradient(color-mix(in srgb, var(--_border) 45%, transparent) 0 25%, transparent 0 50%) 0 0 /
      12px 12px;
    display: grid;
    place-items: center;
    color: var(--_muted);
    overflow: hidden;
  }
  .field-preview img {
    inline-size: 100%;
    block-size: 100%;
    object-fit: contain;
  }
  .field-text {
    display: grid;
    gap: 2px;
    min-inline-size: 0;
  }
  .field-title {
    font-weight: 600;
  }
  .field-detail,
  .field-status {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-size: 0.875em;
  }
  .field-actions {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_space);
    justify-content: flex-end;
  }
  @media (max-width: 480px) {
    .field-box {
      grid-template-columns: auto minmax(0, 1fr);
    }
    .field-preview {
      inline-size: 56px;
      block-size: 56px;
    }
    .field-actions {
      grid-column: 1 / -1;
      justify-content: stretch;
    }
    .field-actions .button {
      flex: 1 1 auto;
    }
  }
  .field-dialog {
    padding: 0;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    color: inherit;
    inline-size: min(760px, calc(100vw - 16px));
    max-inline-size: none;
    max-block-size: calc(100dvh - 16px);
    overflow: auto;
  }
  .field-dialog::backdrop {
    background: rgb(15 20 30 / 0.55);
  }
  .field-dialog > .card {
    border: none;
    padding-block-start: 0;
  }
  .dialog-bar {
    position: sticky;
    inset-block-start: 0;
    z-index: 1;
    display: flex;
    justify-content: flex-end;
    padding: calc(var(--_space) * 1.5);
    background: var(--_surface);
  }
`;
