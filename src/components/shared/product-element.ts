/**
 * What every product element has in common: everything of `ClientElement` (the proxy, `theme`,
 * `top-up-href`, `strings`, the client rule), form association, and `paste-global` for the
 * elements that take files.
 */
import { property } from 'lit/decorators.js';
import { FormAssociated } from '../../internal/form-associated.js';
import { ClientElement } from './client-element.js';

export abstract class ProductElement extends FormAssociated(ClientElement) {
  /** Take pasted files anywhere on the page, not only while the element has focus. Default false. */
  @property({ type: Boolean, attribute: 'paste-global' }) pasteGlobal = false;
}
