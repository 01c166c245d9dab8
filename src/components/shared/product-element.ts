/**
 * What every product element has in common: everything of `ClientElement` (the proxy, `theme`,
 * `top-up-href`, `strings`, the client rule), form association, `paste-global` for the elements
 * that take files, and the result as a value a site can save, re-open and keep (`value`, `result`,
 * `keep`, `assetHandler`; README "Saving results"). Each element makes its `ResultValueController`
 * (what its value holds, how it is checked and shown) and hands it over as `results`.
 */
import { nothing, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import { FormAssociated } from '../../internal/form-associated.js';
import { FormValidity } from '../../internal/form-validity.js';
import { AnnouncerController } from './announcer.js';
import { ClientElement } from './client-element.js';
import type { ExpandReason, FieldController, FieldFacts } from './field.js';
import type { AssetHandler, ResultValueBase, ResultValueController } from './result-value.js';

type FieldModule = typeof import('./field.js');
// Field mode is opt-in: its code and styles load the first time an element asks for it, so a page
// of full elements never pays for it (scripts/size.mjs).
let fieldModule: FieldModule | undefined;
let fieldLoading: Promise<FieldModule> | undefined;
const loadField = (): Promise<FieldModule> =>
  (fieldLoading ??= import('./field.js').then(
    (m) => (fieldModule = m),
    (err: unknown) => {
      // A chunk that cannot load (a deploy replaced it, a CSP): the full element shows instead.
      console.warn('[mediakit] field mode could not load; showing the full element.', err);
      throw err;
    },
  ));
let fieldFailed = false;

export abstract class ProductElement<V extends ResultValueBase = ResultValueBase> extends FormValidity(
  FormAssociated(ClientElement),
) {
  /** Take pasted files anywhere on the page, not only while the element has focus. Default false. */
  @property({ type: Boolean, attribute: 'paste-global' }) pasteGlobal = false;

  /**
   * Where a committed result is kept: `auto` (the `assetHandler` when there is one, else the proxy's
   * result store when it has one) or `none` (not kept: the value names the job only). Default `auto`.
   */
  @property() keep: 'auto' | 'none' = 'auto';

  /**
   * The site's own storage (a CMS media library): called once per committed file with the blob and
   * `{ filename, type, kind }`, it resolves to `{ url, id? }`, which the value then names. Large
   * scenes are better kept by the proxy's result store.
   */
  @property({ attribute: false }) assetHandler: AssetHandler | undefined;

  /**
   * `full` (the whole tool) or `field`: a compact field for an edit form (a CMS) that shows the
   * saved result with Create / Open / Replace / Remove and opens the whole tool in a dialog (README
   * "In a CMS"). Default `full`.
   */
  @property({ reflect: true }) appearance: 'full' | 'field' = 'full';

  /** The element's result value (its shape, checks and display). */
  protected abstract readonly results: ResultValueController<V>;

  /** The element's one polite live region (milestones only). */
  protected readonly announce = new AnnouncerController(this);

  #field: FieldController | undefined;

  /** The whole tool (the card); field mode puts it in its dialog. */
  protected abstract renderCard(): TemplateResult;

  /** What field mode shows of the result. */
  protected abstract fieldFacts(): FieldFacts;

  /** Field mode's dialog closed: stop what only the open tool needs (a camera). */
  protected fieldClosed(): void {}

  protected override render(): TemplateResult | typeof nothing {
    const field = this.appearance === 'field';
    this.announce.elsewhere = field;
    try {
      // In field mode the element is a labelled group of the field's actions (`<label for>` names it).
      this.internals.role = field ? 'group' : null;
    } catch {
      // No ElementInternals (server rendering).
    }
    if (!field || fieldFailed) {
      this.announce.elsewhere = false;
      if (this.#field?.open) this.#field.close();
      return this.renderCard();
    }
    if (!fieldModule) {
      void loadField().then(
        () => this.requestUpdate(),
        () => {
          fieldFailed = true;
          this.requestUpdate();
        },
      );
      return nothing;
    }
    this.#field ??= new fieldModule.FieldController(this, {
      facts: () => this.fieldFacts(),
      results: () => this.results as unknown as ResultValueController<ResultValueBase>,
      reset: () => this.formResetCallback(),
      closed: () => this.fieldClosed(),
      disabled: () => this.isDisabled,
    });
    return this.#field.render(this.renderCard(), this.announce.region());
  }

  /**
   * Field mode: opens the whole tool as it is (`open`, `create`), or at its start keeping the value
   * until something new is made (`replace`), after `mk-expand-requested`. False when the host took
   * it (cancelled the event), in full mode, and before the field has rendered once.
   */
  expand(reason: ExpandReason = 'open'): boolean {
    return this.appearance === 'field' && !!this.#field?.expand(reason);
  }

  /** Field mode: closes the tool's dialog; whatever runs goes on. */
  collapse(): void {
    this.#field?.close();
  }

  /**
   * The result as a JSON string of the element's documented, versioned shape ('' when none): also
   * the form value. Setting it shows that result with no API call and no credit spent (a running
   * job is followed again where this session may). It reads back at once; its checks load with the
   * first value set (`updateComplete` waits for them), and an invalid value is refused with a
   * console warning: the value and the element go back to what they were. Setting the value set
   * last once more changes nothing,
   * so a framework re-rendering with state that has not caught up keeps what the user has made.
   */
  @property({ noAccessor: true })
  get value(): string {
    // Field mode's Replace: the saved value stays the value until something new is made.
    return this.results.json || this.#field?.held || '';
  }

  set value(json: string) {
    this.results.set(json);
  }

  /** Also waits for the check of a value set from outside (its code loads with the first one). */
  protected override async getUpdateComplete(): Promise<boolean> {
    const done = await super.getUpdateComplete();
    const checking = this.results.checking;
    if (!checking) return done;
    await checking;
    return this.getUpdateComplete();
  }

  /** The value as an object (null when none), for code that does not want to parse JSON. */
  get result(): V | null {
    return this.results.value;
  }

  /**
   * `input` is composed, so a keystroke in a prompt box would reach the host's listeners as if the
   * value had changed: the element's own `input` (fired on the host) is the only one a site sees.
   */
  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const root = super.createRenderRoot();
    root.addEventListener('input', (e) => e.stopPropagation());
    return root;
  }

  /**
   * The form value: the JSON (`''` when there is none, posted as an empty entry, as an empty
   * input's is, so a server can tell "removed" from "not sent"), and with a `name` and a file
   * (`formFile`), the file as `${name}-file` too, for plain multipart forms.
   */
  protected formValue(): string | FormData {
    const json = this.value;
    const file = this.formFile();
    if (!json || !file || !this.name) return json;
    const data = new FormData();
    data.append(this.name, json);
    data.append(`${this.name}-file`, file);
    return data;
  }

  /** The result as a file the form posts beside the JSON (the image elements); null: none. */
  protected formFile(): File | null {
    return null;
  }

  protected override formState(): string | null {
    return this.value || null;
  }

  /** The browser restores the form (back/forward, a restored session): the value comes back. */
  formStateRestoreCallback(state: unknown): void {
    if (typeof state === 'string') this.value = state;
  }
}
