/**
 * The thin base of every element: registration that tolerates a tag already defined (two copies of
 * the library on one page, or a host that picked another name). Plumbing only; behaviour lives in
 * controllers.
 */
import { LitElement } from 'lit';

export class MkElement extends LitElement {
  /** Registers the class as `name` unless that name is taken. */
  static define(name: string): void {
    if (!customElements.get(name)) customElements.define(name, this);
  }
}
