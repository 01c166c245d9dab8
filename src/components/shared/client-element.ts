/**
 * What every element that talks to the proxy has: the proxy (`endpoint`, or a `client`, or a
 * `session` function for backend-minted tokens), `theme`, `top-up-href` and per-element
 * `strings`, and the one rule that picks the client (`mediaClient()`). `<credit-badge>` extends it
 * as it is; the product elements extend `ProductElement`, which adds form association and
 * `paste-global`. Elements narrow `strings` to their own dictionary with
 * `declare strings: Partial<Strings> | undefined`.
 */
import { property } from 'lit/decorators.js';
import { MediaClient } from '../../client/media-client.js';
import type { Dictionary } from '../../internal/localize.js';
import { MkElement } from '../../internal/mk-element.js';

export abstract class ClientElement extends MkElement {
  /** Base path or URL of the site's session-token proxy. Default `/mediakit`. */
  @property() endpoint = '/mediakit';

  /** `light` or `dark`; default: the visitor's preference. */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /** Link for the "not enough credits" action when no `top-up` slot is given. */
  @property({ attribute: 'top-up-href' }) topUpHref = '';

  /** The client to use; default: the page's shared client for `endpoint`. */
  @property({ attribute: false }) client: MediaClient | undefined;

  /** For sites that mint tokens on their own backend: resolves to a session token. */
  @property({ attribute: false }) session: (() => Promise<string>) | undefined;

  /** Overrides of single strings, in any language. */
  @property({ attribute: false }) strings: Partial<Dictionary> | undefined;

  #own: { client: MediaClient; endpoint: string; session: () => Promise<string> } | undefined;

  /** The client for this element now: `client`, else one for `session`, else the page's one for `endpoint`. */
  protected mediaClient(): MediaClient {
    if (this.client) return this.client;
    if (this.session) {
      if (this.#own?.endpoint !== this.endpoint || this.#own.session !== this.session) {
        this.#own = {
          client: new MediaClient({ endpoint: this.endpoint, session: this.session }),
          endpoint: this.endpoint,
          session: this.session,
        };
      }
      return this.#own.client;
    }
    return MediaClient.for(this.endpoint);
  }
}
