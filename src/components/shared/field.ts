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
 * text of the `<label>`s that name the element (`<label for>` or around it). The box is drawn by
 * field-box.ts; field.styles.ts styles it and the dialog.
 */
import { html, nothing, type ReactiveController, type TemplateResult } from 'lit';
import { ExpandRequestedEvent, type ExpandReason } from '../../events/expand-requested.js';
import { renderFieldBox, type FieldFacts } from './field-box.js';
import { fieldStrings, type FieldStrings } from './field-strings.js';
import { fieldStyles } from './field.styles.js';
import { addEnglish, type LocalizeController } from './localize.js';
import { addStyles } from './lazy-panel.js';
import type { ResultValueBase, ResultValueController } from './result-value.js';

addEnglish(fieldStrings);

export type { ExpandReason };
export type { FieldFacts } from './field-box.js';

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
    addStyles(host.renderRoot as ShadowRoot, fieldStyles);
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

  /** The field and the dialog around the element's card; `announcer` is the element's live region. */
  render(card: TemplateResult, announcer: TemplateResult): TemplateResult {
    const f = this.#o.facts();
    const { t } = f;
    const results = this.#o.results();
    const box = renderFieldBox(f, {
      name: this.#name(),
      value: results.value,
      keeping: results.keeping,
      held: !!this.held,
      broken: this.#broken,
      disabled: this.#o.disabled(),
      onPreviewError: (src) => {
        this.#broken = src;
        this.#host.requestUpdate();
      },
      expand: (reason) => this.expand(reason),
      remove: () => this.remove(),
    });
    return html`${box}
      <dialog
        part="dialog"
        class="field-dialog"
        aria-labelledby="title"
        @close=${this.#onClose}
        @keydown=${this.#keydown}
      >
        <div class="dialog-bar" lang=${t.resolved} dir=${t.dir}>
          <button type="button" class="button secondary" part="dialog-close" @click=${() => this.close()}>
            ${(t as unknown as LocalizeController<FieldStrings>).term('fieldDone')}
          </button>
        </div>
        ${this.#shown ? card : nothing} ${this.#isOpen ? announcer : nothing}
      </dialog>
      ${this.#isOpen ? nothing : announcer}`;
  }
}
