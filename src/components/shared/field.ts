/**
 * Field mode (`appearance="field"`, README "In a CMS"): what a product element shows in an edit
 * form. A compact box (at most about 200 px) with the saved result (a thumbnail or poster, what
 * made it, where it stands) and Create / Open / Replace / Remove; the whole element opens in a
 * modal `<dialog>` of its own shadow root (focus stays inside, Escape or Done closes it, whatever
 * runs goes on), unless the host cancels `mk-expand-requested` to show it in its own modal.
 *
 * The card is rendered inside the dialog from the first time it opens, so closing the dialog loses
 * nothing: the same state, jobs and requests go on, and the polite live region moves out of the
 * dialog so what happens while it is closed is still announced. Before that, nothing heavy is
 * drawn: no viewer, no model, scene or video is fetched, no WebGL context is made for a field that
 * is only looked at (an edit page opened to change a title).
 *
 * The box says where the value stands, following the element: saved, in progress, and when the
 * element stopped, what happened with what to do (a job this session cannot see, a failed or
 * expired job, a saved file that is gone). Its name is the host's: a `label` attribute, else the
 * text of the `<label>`s that name the element (`<label for>` or around it).
 */
import { css, html, nothing, type ReactiveController, type TemplateResult } from 'lit';
import { ExpandRequestedEvent, type ExpandReason } from '../../events/expand-requested.js';
import { fieldStrings, type FieldStrings } from './field-strings.js';
import { addEnglish, type LocalizeController } from './localize.js';
import type { ResultValueBase, ResultValueController } from './result-value.js';
import { isSavedFileGone } from './saved-file.js';
import type { SharedStrings } from './strings.js';

addEnglish(fieldStrings);

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

export type { ExpandReason };

type Host = HTMLElement & {
  addController(c: ReactiveController): void;
  requestUpdate(): void;
  readonly updateComplete: Promise<boolean>;
  readonly renderRoot: HTMLElement | DocumentFragment;
  value: string;
};

export interface FieldOptions {
  facts(): FieldFacts;
  results(): ResultValueController<ResultValueBase>;
  /** Back to the element's start with no event (the form reset's path). */
  reset(): void;
  /** The dialog closed (the element stops what only the dialog needs, such as a camera). */
  closed?(): void;
  /** The element is disabled (itself, or a disabled fieldset). */
  disabled(): boolean;
}

export class FieldController implements ReactiveController {
  readonly #host: Host;
  readonly #o: FieldOptions;
  /** The value before Replace, put back when the dialog is closed and nothing new was made. */
  #previous: string | undefined;
  /** Whether the dialog is open (set at once, before the dialog's queued `close` event). */
  #isOpen = false;
  /** Whether the dialog opened once: the card is rendered from then on. */
  #shown = false;
  /** A preview picture that did not load (its URL): the saved file is gone. */
  #broken = '';

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

  hostConnected(): void {
    this.#host.addEventListener('change', this.#committed);
    // A host label rendered after the element (a framework's same commit) names it on the next frame.
    requestAnimationFrame(() => this.#host.requestUpdate());
    this.#labelled.observe(this.#host, { attributes: true, attributeFilter: ['label', 'id'] });
  }

  /** A new `label` or `id` renames the field. */
  readonly #labelled = new MutationObserver(() => this.#host.requestUpdate());

  hostDisconnected(): void {
    this.#labelled.disconnect();
    this.#host.removeEventListener('change', this.#committed);
    // Moved or removed while open: the top layer lets go of the dialog without closing it.
    this.close();
  }

  /**
   * During Replace, with nothing new made or on its way: the saved value, which stays the element's
   * value and form value (a document saved now keeps it; '' when none).
   */
  get held(): string {
    return (this.#previous !== undefined && this.#o.results().value === null && this.#previous) || '';
  }

  /** Replace, closed, and nothing new made or on its way (or the new job failed): the old value comes back. */
  hostUpdated(): void {
    const previous = this.#previous;
    if (previous === undefined || this.#isOpen || this.#o.results().json || this.#o.facts().busy) return;
    this.#previous = undefined;
    this.#o.results().restore(previous);
  }

  #committed = (): void => {
    this.#previous = undefined;
  };

  get #dialog(): HTMLDialogElement | null {
    return this.#host.renderRoot.querySelector('dialog');
  }

  /** Whether the element's own dialog is open. */
  get open(): boolean {
    return this.#isOpen;
  }

  /** Opens the whole element, in its dialog or (when the host cancels `mk-expand-requested`) the host's. */
  expand(reason: ExpandReason): boolean {
    if (!this.#host.dispatchEvent(new ExpandRequestedEvent({ reason }))) return false;
    if (reason === 'replace') {
      this.#previous ??= this.#host.value;
      this.#o.reset();
      // A host that sets the old value again on its next render must not undo the Replace.
      this.#o.results().working();
    }
    const dialog = this.#dialog;
    if (dialog && !dialog.open) dialog.showModal();
    this.#isOpen = !!dialog?.open;
    this.#shown ||= this.#isOpen;
    this.#host.requestUpdate();
    return this.#isOpen;
  }

  /** Closes the element's dialog (Done); whatever runs goes on. */
  close(): void {
    const dialog = this.#dialog;
    if (dialog?.open) dialog.close();
    this.#closed();
  }

  /** The user removed the result: the value is cleared, `change` fires, the element starts over. */
  remove(): void {
    const held = this.held;
    this.#previous = undefined;
    this.#o.results().remove();
    // The value was the one Replace held: it is removed too.
    if (held) this.#host.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
    this.#o.reset();
    this.#host.requestUpdate();
    void this.#refocus();
  }

  /** The button that opened the dialog may be gone (Create became Open): the focus goes to the field's first action. */
  async #refocus(): Promise<void> {
    // Until no update is pending (a restored value renders Open in a second update).
    for (let i = 0; i < 5 && !(await this.#host.updateComplete); i++);
    const root = this.#host.renderRoot as ShadowRoot;
    const active = root.activeElement;
    if (active && active.isConnected && !this.#dialog?.contains(active)) return;
    if (!active && document.activeElement !== document.body && document.activeElement !== null) return;
    root.querySelector<HTMLElement>('[part~="field-open"], [part~="field-create"]')?.focus();
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

  /** The dialog's `close` event comes a task later: by then it may be open again (Done, then Replace). */
  #onClose = (): void => {
    if (!this.#dialog?.open) this.#closed();
  };

  #closed = (): void => {
    if (!this.#isOpen) return;
    this.#isOpen = false;
    this.#o.closed?.();
    this.#host.requestUpdate();
    void this.#refocus();
  };

  /** The field's name: the host's `label` attribute, else the text of the labels that name it. */
  #name(): string {
    const host = this.#host;
    const own = host.getAttribute('label')?.trim();
    if (own) return own;
    const root = host.getRootNode() as Document | ShadowRoot;
    const labels = new Set<Element>(host.id ? root.querySelectorAll(`label[for="${CSS.escape(host.id)}"]`) : []);
    const around = host.closest('label');
    if (around) labels.add(around);
    return [...labels]
      .map((l) => l.textContent?.replace(/\s+/g, ' ').trim())
      .filter(Boolean)
      .join(' ');
  }

  /** What went wrong, in the box's words with what to do (undefined: nothing). */
  #problem(f: FieldFacts): string | undefined {
    const t = f.t as unknown as LocalizeController<FieldStrings>;
    if (isSavedFileGone(f.error) || (!!f.preview && f.preview === this.#broken)) return t.term('fieldGone');
    if (!f.failed) return undefined;
    if (f.jobError === 'not_found') return t.term('fieldUnknown');
    if (f.jobError === 'expired') return t.term('fieldExpired');
    return t.term('fieldFailed');
  }

  /** The field and the dialog around the element's card; `announcer` is the element's live region. */
  render(card: TemplateResult, announcer: TemplateResult): TemplateResult {
    const f = this.#o.facts();
    const { t } = f;
    const results = this.#o.results();
    const value = results.value;
    const has = value !== null;
    const off = this.#o.disabled();
    // One primary button, Create or Open, so the focus stays on it when one becomes the other.
    const held = !has && !f.busy && !!this.held;
    const open = has || f.busy || held;
    const problem = this.#problem(f);
    const name = this.#name();
    let status: string;
    if (results.keeping === 'keeping') status = t.term('keepSaving');
    else if (problem) status = problem;
    else if (results.keeping === 'failed') status = t.term('fieldNotSaved');
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
            f.preview && f.preview !== this.#broken
              ? html`<img
                  part="field-preview"
                  src=${f.preview}
                  alt=""
                  @error=${(e: Event) => {
                    this.#broken = (e.target as HTMLImageElement).getAttribute('src') ?? '';
                    this.#host.requestUpdate();
                  }}
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
            @click=${() => this.expand(open ? 'open' : 'create')}
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
                @click=${() => this.expand('replace')}
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
                @click=${() => this.remove()}
              >
                ${t.term('fieldRemove')}
              </button>`
              : nothing
          }
        </div>
      </div>
      <dialog
        part="dialog"
        class="field-dialog"
        aria-labelledby="title"
        @close=${this.#onClose}
        @keydown=${this.#keydown}
      >
        <div class="dialog-bar" lang=${t.resolved} dir=${t.dir}>
          <button type="button" class="button secondary" part="dialog-close" @click=${() => this.close()}>
            ${t.term('fieldDone')}
          </button>
        </div>
        ${this.#shown ? card : nothing} ${this.#isOpen ? announcer : nothing}
      </dialog>
      ${this.#isOpen ? nothing : announcer}`;
  }
}

export const fieldStyles = css`
  :host {
    container-type: inline-size;
  }
  .field-box {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr) auto;
    align-items: center;
    gap: calc(var(--_space) * 1.5);
    padding: calc(var(--_space) * 1.5);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
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
  /* What went wrong and what to do is read whole. */
  .field-problem {
    white-space: normal;
  }
  .field-actions {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_space);
    justify-content: flex-end;
  }
  @container (max-width: 480px) {
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
