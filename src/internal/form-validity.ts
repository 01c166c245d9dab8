/**
 * Constraint validation for form-associated elements, its own mixin as in Material Web's
 * `labs/behaviors/constraint-validation.ts`: `required`, `setCustomValidity()`, `willValidate`,
 * `validity`, `validationMessage`, `checkValidity()` and `reportValidity()`, all through
 * ElementInternals. An element states its own rule in `validate()`; a custom message set by the
 * page wins over it until cleared with `setCustomValidity('')`, as on a native input.
 */
import { property } from 'lit/decorators.js';
import type { Constructor, FormAssociatedInterface, FormValue } from './form-associated.js';
import type { MkElement } from './mk-element.js';

/** What is wrong with a value: the ValidityState flags and the message `reportValidity()` shows. */
export interface Invalid {
  flags: ValidityStateFlags;
  message: string;
}

/** The mixin's members as a declared class, for declaration emit (see FormAssociatedInterface). */
export declare abstract class FormValidityInterface {
  required: boolean;
  get validity(): ValidityState;
  get validationMessage(): string;
  get willValidate(): boolean;
  checkValidity(): boolean;
  reportValidity(): boolean;
  setCustomValidity(message: string): void;
  protected validate(value: FormValue): Invalid | null;
  protected abstract requiredMessage(): string;
}

type Base = Constructor<MkElement & FormAssociatedInterface>;

export function FormValidity<T extends Base>(Base: T): T & Constructor<FormValidityInterface> {
  abstract class FormValidityElement extends Base {
    /** The form cannot be submitted without a result. */
    @property({ type: Boolean, reflect: true }) required = false;

    #custom = '';

    get validity(): ValidityState {
      return this.internals.validity;
    }

    get validationMessage(): string {
      return this.internals.validationMessage;
    }

    /** Whether the element takes part in validation (false while it or its fieldset is disabled). */
    get willValidate(): boolean {
      return this.internals.willValidate;
    }

    checkValidity(): boolean {
      return this.internals.checkValidity();
    }

    reportValidity(): boolean {
      return this.internals.reportValidity();
    }

    /** A message that makes the element invalid (`customError`) until it is set to `''`. */
    setCustomValidity(message: string): void {
      this.#custom = String(message ?? '');
      this.requestUpdate();
    }

    /** The element's rule for its value; by default `required` asks for one. */
    protected validate(value: FormValue): Invalid | null {
      return this.required && (value === null || value === '')
        ? { flags: { valueMissing: true }, message: this.requiredMessage() }
        : null;
    }

    /** The message `reportValidity()` shows when `required` and there is no value. */
    protected abstract requiredMessage(): string;

    protected override formValueSynced(value: FormValue): void {
      super.formValueSynced(value);
      // The browser's bubble points at the element's own control when it marks one.
      const anchor = this.renderRoot?.querySelector?.<HTMLElement>('[data-validity-anchor]') ?? undefined;
      const invalid = this.#custom ? { flags: { customError: true }, message: this.#custom } : this.validate(value);
      if (invalid) this.internals.setValidity(invalid.flags, invalid.message, anchor);
      else this.internals.setValidity({});
    }
  }
  return FormValidityElement as unknown as T & Constructor<FormValidityInterface>;
}
