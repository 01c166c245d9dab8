/**
 * Form association for product elements, after Material Web's `labs/behaviors/form-associated.ts`
 * and Web Awesome's form controls: with a `name`, the element's result is its value in a
 * surrounding `<form>` (its JSON `value`; the image elements add the file as a second entry), and a
 * form reset clears it. Validity is its own mixin (`./form-validity.ts`), as Material's
 * constraint validation is.
 */
import type { PropertyDeclaration } from 'lit';
import { property } from 'lit/decorators.js';
import type { MkElement } from './mk-element.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Constructor<T> = abstract new (...args: any[]) => T;

/** What a form submits for an element: a file, a string, several entries, or nothing. */
export type FormValue = File | string | FormData | null;

/**
 * The mixin's members as a declared class, so declaration emit names them (an anonymous class with
 * protected members cannot be written to a .d.ts: TS4094) and subclasses still see the protected ones.
 */
export declare abstract class FormAssociatedInterface {
  static formAssociated: boolean;
  name: string;
  disabled: boolean;
  get form(): HTMLFormElement | null;
  get labels(): NodeList;
  protected get isDisabled(): boolean;
  protected abstract formValue(): File | string | FormData | null | undefined;
  protected formState(): string | null;
  protected formValueSynced(value: FormValue): void;
  protected abstract resetValue(): void;
  formDisabledCallback(disabled: boolean): void;
  formResetCallback(): void;
}

export function FormAssociated<T extends Constructor<MkElement>>(Base: T): T & Constructor<FormAssociatedInterface> {
  abstract class FormAssociatedElement extends Base {
    static formAssociated = true;

    /** The field name the result is submitted under. No name, no form value. */
    @property({ reflect: true }) name = '';

    /** Disables the element (a disabled fieldset disables it too). */
    @property({ type: Boolean, reflect: true }) disabled = false;

    #formDisabled = false;
    /** Set once the element is connected: before that a subclass's fields may not exist yet. */
    #connected = false;

    get form(): HTMLFormElement | null {
      return this.internals.form;
    }

    /** The `<label>` elements that name this element (`<label for=id>` or a wrapping label). */
    get labels(): NodeList {
      return this.internals.labels;
    }

    /** Whether the element or its fieldset is disabled. */
    protected get isDisabled(): boolean {
      return this.disabled || this.#formDisabled;
    }

    /** The value the form submits now (undefined: none); a FormData submits its entries under their own names. */
    protected abstract formValue(): File | string | FormData | null | undefined;

    /** What the browser keeps to restore the form (back/forward); null: the value itself. */
    protected formState(): string | null {
      return null;
    }

    /** After every sync, with the value the form now holds (the validity mixin checks it here). */
    protected formValueSynced(_value: FormValue): void {}

    /** Clears the result (a form reset). */
    protected abstract resetValue(): void;

    override connectedCallback(): void {
      super.connectedCallback();
      this.#connected = true;
      this.#syncForm();
    }

    /**
     * The form value follows the element as Material Web's form-associated behaviour does: set
     * synchronously whenever anything asks for an update (a property, a controller's new job
     * state, a reset), so a `submit` or `FormData` right after a change already sees it, and no
     * element has to remember to sync.
     */
    override requestUpdate(name?: PropertyKey, oldValue?: unknown, options?: PropertyDeclaration): void {
      super.requestUpdate(name, oldValue, options);
      // Lit's own constructor asks for the first update before this class's members exist.
      if (#connected in this && this.#connected) this.#syncForm();
    }

    #syncForm(): void {
      let value: FormValue;
      let state: string | null;
      try {
        value = this.formValue() ?? null;
        state = this.formState();
      } catch (err) {
        // A value that cannot be built is a bug to see, not a silently empty form entry.
        if (typeof reportError === 'function') reportError(err);
        else console.error(err);
        return;
      }
      try {
        // Submitted under the `name` attribute (reflected), as a file part when it is a File.
        if (state === null) this.internals.setFormValue(value);
        else this.internals.setFormValue(value, state);
      } catch {
        // Not attached to a form-capable ElementInternals (server rendering): nothing to do.
        return;
      }
      this.formValueSynced(value);
    }

    formDisabledCallback(disabled: boolean): void {
      this.#formDisabled = disabled;
      this.requestUpdate();
    }

    formResetCallback(): void {
      this.resetValue();
      this.requestUpdate();
    }
  }
  return FormAssociatedElement as unknown as T & Constructor<FormAssociatedInterface>;
}
