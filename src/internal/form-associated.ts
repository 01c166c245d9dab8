/**
 * Form association for product elements, after Material Web's `labs/behaviors/form-associated.ts`
 * and Web Awesome's form controls: with a `name`, the element's result is its value in a
 * surrounding `<form>` (its JSON `value`; the image elements add the file as a second entry), `required`
 * takes part in validity through `setValidity`, and a form reset clears it.
 */
import type { PropertyDeclaration } from 'lit';
import { property } from 'lit/decorators.js';
import type { MkElement } from './mk-element.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Constructor<T> = abstract new (...args: any[]) => T;

export interface FormAssociatedMembers {
  name: string;
  disabled: boolean;
  required: boolean;
  readonly form: HTMLFormElement | null;
  readonly validity: ValidityState;
  readonly validationMessage: string;
  checkValidity(): boolean;
  reportValidity(): boolean;
}

/**
 * The mixin's members as a declared class, so declaration emit names them (an anonymous class with
 * protected members cannot be written to a .d.ts: TS4094) and subclasses still see the protected ones.
 */
export declare abstract class FormAssociatedInterface implements FormAssociatedMembers {
  static formAssociated: boolean;
  name: string;
  disabled: boolean;
  required: boolean;
  get form(): HTMLFormElement | null;
  get validity(): ValidityState;
  get validationMessage(): string;
  checkValidity(): boolean;
  reportValidity(): boolean;
  protected get isDisabled(): boolean;
  protected abstract formValue(): File | string | FormData | null | undefined;
  protected formState(): string | null;
  protected abstract requiredMessage(): string;
  protected abstract resetValue(): void;
  formDisabledCallback(disabled: boolean): void;
  formResetCallback(): void;
}

export function FormAssociated<T extends Constructor<MkElement>>(Base: T): T & Constructor<FormAssociatedInterface> {
  abstract class FormAssociatedElement extends Base implements FormAssociatedMembers {
    static formAssociated = true;

    /** The field name the result is submitted under. No name, no form value. */
    @property({ reflect: true }) name = '';

    /** Disables the element (a disabled fieldset disables it too). */
    @property({ type: Boolean, reflect: true }) disabled = false;

    /** The form cannot be submitted without a result. */
    @property({ type: Boolean, reflect: true }) required = false;

    #formDisabled = false;

    get form(): HTMLFormElement | null {
      return this.internals.form;
    }

    get validity(): ValidityState {
      return this.internals.validity;
    }

    get validationMessage(): string {
      return this.internals.validationMessage;
    }

    checkValidity(): boolean {
      return this.internals.checkValidity();
    }

    reportValidity(): boolean {
      return this.internals.reportValidity();
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

    /** The message shown by `reportValidity()` when `required` and there is no value. */
    protected abstract requiredMessage(): string;

    /** Clears the result (a form reset). */
    protected abstract resetValue(): void;

    /**
     * The form value follows the element as Material Web's form-associated behaviour does: set
     * synchronously whenever anything asks for an update (a property, a controller's new job
     * state, a reset), so a `submit` or `FormData` right after a change already sees it, and no
     * element has to remember to sync.
     */
    override requestUpdate(name?: PropertyKey, oldValue?: unknown, options?: PropertyDeclaration): void {
      super.requestUpdate(name, oldValue, options);
      // Lit's own constructor asks for the first update before this class's members exist.
      if (#syncForm in this) this.#syncForm();
    }

    #syncForm(): void {
      let value: File | string | FormData | null;
      let state: string | null;
      try {
        // Before the subclass's fields exist (property defaults set in the constructor) there is no value yet.
        value = this.formValue() ?? null;
        state = this.formState();
      } catch {
        return;
      }
      try {
        // Submitted under the `name` attribute (reflected), as a file part when it is a File.
        if (state === null) this.internals.setFormValue(value);
        else this.internals.setFormValue(value, state);
        const anchor = this.renderRoot?.querySelector?.('[data-validity-anchor]') as HTMLElement | null;
        if (this.required && (value === null || value === ''))
          this.internals.setValidity({ valueMissing: true }, this.requiredMessage(), anchor ?? undefined);
        else this.internals.setValidity({});
      } catch {
        // Not attached to a form-capable ElementInternals (server rendering): nothing to do.
      }
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
