/**
 * The credits this session has left, for the cost line of every element and for <credit-badge>:
 * read from the page's credit ledger (fed by every response, synced across tabs), fetched once
 * from the proxy when nothing has said yet.
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { MediaClient } from '../../client/media-client.js';
import type { LocalizeController } from './localize.js';
import type { SharedStrings } from './strings.js';
import { safeUrl } from '../../internal/safe-url.js';

export class CreditsController implements ReactiveController {
  readonly host: ReactiveControllerHost & HTMLElement;
  readonly #client: () => MediaClient;
  #subscribed: MediaClient | undefined;
  #asked = new WeakSet<MediaClient>();
  /** Set when the budget could not be read (offline, refused). */
  error: unknown;

  constructor(host: ReactiveControllerHost & HTMLElement, client: () => MediaClient) {
    this.host = host;
    this.#client = client;
    host.addController(this);
  }

  get remaining(): number | undefined {
    return this.#subscribed?.credits.remaining;
  }

  hostConnected(): void {
    this.#subscribe();
  }

  hostUpdate(): void {
    // The element's endpoint or client may have changed.
    if (this.host.isConnected) this.#subscribe();
  }

  hostDisconnected(): void {
    this.#subscribed?.credits.removeEventListener('mk-credits-changed', this.#changed);
    this.#subscribed = undefined;
  }

  /** Reads the budget from the proxy now. */
  async refresh(): Promise<void> {
    const client = this.#subscribed ?? this.#client();
    try {
      await client.budget();
      this.error = undefined;
    } catch (err) {
      this.error = err;
    }
    this.host.requestUpdate();
  }

  #subscribe(): void {
    let client: MediaClient;
    try {
      client = this.#client();
    } catch {
      return;
    }
    if (client === this.#subscribed) return;
    this.#subscribed?.credits.removeEventListener('mk-credits-changed', this.#changed);
    this.#subscribed = client;
    client.credits.addEventListener('mk-credits-changed', this.#changed);
    if (client.credits.remaining === undefined && !this.#asked.has(client)) {
      this.#asked.add(client);
      void this.refresh();
    }
  }

  #changed = () => {
    this.error = undefined;
    this.host.requestUpdate();
  };
}

/** "Costs 20 credits · 480 credits left" (`part="cost"`), or what is missing and a way to top up. */
export function renderCost(
  t: LocalizeController<SharedStrings>,
  cost: number,
  left: number | undefined,
  topUpHref?: string,
) {
  if (left !== undefined && left < cost) {
    return html`<p part="cost" class="cost short">
      ${t.term('costNotEnough', { cost, left })}
      <slot name="top-up">${safeUrl(topUpHref) ? html`<a part="top-up" href=${topUpHref}>${t.term('topUp')}</a>` : nothing}</slot>
    </p>`;
  }
  return html`<p part="cost" class="cost">${t.term('costLine', { cost, left })}</p>`;
}
