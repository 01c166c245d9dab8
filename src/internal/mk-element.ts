/**
 * The thin base of every element: registration that tolerates a tag already defined (two copies of
 * the library on one page, or a host that picked another name), `ElementInternals`, custom states,
 * and reactive `lang`/`dir`. Plumbing only; behaviour lives in controllers.
 */
import { LitElement } from 'lit';
import { property } from 'lit/decorators.js';

export class MkElement extends LitElement {
  /** Registers the class as `name` unless that name is taken. */
  static define(name: string): void {
    if (!customElements.get(name)) customElements.define(name, this);
  }

  // Reactive, and reflected so the attribute keeps its native meaning for assistive technology. No
  // initial value: an empty `lang` attribute would mean "unknown language" and break inheritance.
  /** The language of the element's text (BCP 47). Default: the closest `[lang]` ancestor, then `<html lang>`. */
  @property({ reflect: true }) override lang!: string;

  /** Text direction, `ltr` or `rtl`. Default: inherited. */
  @property({ reflect: true }) override dir!: string;

  #internals: ElementInternals | undefined;

  /** The element's ElementInternals (created on first use, so a subclass may still attach its own first). */
  protected get internals(): ElementInternals {
    return (this.#internals ??= this.attachInternals());
  }

  /** Adds or removes a custom state (`:state(name)` in CSS). */
  protected setState(name: string, on: boolean): void {
    try {
      if (on) this.internals.states.add(name);
      else this.internals.states.delete(name);
    } catch {
      // Browsers without CustomStateSet: the states are a styling nicety only.
    }
  }

  /** Sets exactly one of `names` (the element's phase), clearing the others. */
  protected setPhase(names: readonly string[], current: string): void {
    for (const n of names) this.setState(n, n === current);
  }
}
