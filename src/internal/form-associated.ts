/**
 * Form association for product elements, after Material Web's `labs/behaviors/form-associated.ts`
 * and Web Awesome's form controls: with a `name`, the element's result is its value in a
 * surrounding `<form>` (a File, a URL or a job handle: each element documents which), `required`
 * takes part in validity through `setValidity`, and a form reset clears it.
 */
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
  protected abstract formValue(): File | string | null | undefined;
  protected abstract requiredMessage(): string;
  protected abstract resetValue(): void;
  protected syncForm(): void;
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

    /** The value the form submits now (undefined: none). */
    protected abstract formValue(): File | string | null | undefined;

    /** The message shown by `reportValidity()` when `required` and there is no value. */
    protected abstract requiredMessage(): string;

    /** Clears the result (a form reset). */
    protected abstract resetValue(): void;

    /** Call after the result changes: sets the form value and validity at once (synchronously). */
    protected syncForm(): void {
      const value = this.formValue() ?? null;
      try {
        // Submitted under the `name` attribute (reflected), as a file part when it is a File.
        this.internals.setFormValue(value);
        const anchor = this.renderRoot?.querySelector?.('[data-validity-anchor]') as HTMLElement | null;
        if (this.required && value === null) this.internals.setValidity({ valueMissing: true }, this.requiredMessage(), anchor ?? undefined);
        else this.internals.setValidity({});
      } catch {
        // Not attached to a form-capable ElementInternals (server rendering): nothing to do.
      }
    }

    protected override updated(changed: Map<PropertyKey, unknown>): void {
      super.updated(changed);
      if (changed.has('name') || changed.has('required')) this.syncForm();
    }

    formDisabledCallback(disabled: boolean): void {
      this.#formDisabled = disabled;
      this.requestUpdate();
    }

    formResetCallback(): void {
      this.resetValue();
      this.syncForm();
    }
  }
  return FormAssociatedElement as unknown as T & Constructor<FormAssociatedInterface>;
}
