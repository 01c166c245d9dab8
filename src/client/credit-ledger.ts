/**
 * The credits left for one proxy endpoint, shared by every element on the page (one ledger per
 * MediaClient.for(endpoint)) and across tabs (BroadcastChannel). Fed by X-Credits-Remaining and
 * X-Credits-Charged on every response and by budget refreshes; never computed from the costs table.
 */
import { HEADERS } from '../api/index.js';
import { CreditsChangedEvent } from '../events/credits-changed.js';

interface LedgerMessage {
  endpoint: string;
  remaining: number;
  charged: number;
  at: number;
}

const CHANNEL = 'mediakit-credits';

export class CreditLedger extends EventTarget {
  readonly endpoint: string;
  #remaining: number | undefined;
  /** Time of the newest value, so a late message from another tab never overwrites a newer one. */
  #at = 0;
  #channel: BroadcastChannel | undefined;

  constructor(endpoint: string) {
    super();
    this.endpoint = endpoint;
    try {
      this.#channel = new BroadcastChannel(CHANNEL);
    } catch {
      // Missing or refused (some sandboxed frames): this tab's count is then its own.
      return;
    }
    this.#channel.onmessage = (e: MessageEvent<LedgerMessage>) => {
      const m = e.data;
      if (m?.endpoint === this.endpoint && typeof m.remaining === 'number')
        this.#apply(m.remaining, m.charged, m.at, false);
    };
  }

  /** Credits left, or undefined until a response or a budget refresh has said. */
  get remaining(): number | undefined {
    return this.#remaining;
  }

  /** Reads the credit headers of a response from the proxy. */
  observe(headers: Headers): void {
    const remaining = headers.get(HEADERS.creditsRemaining);
    if (remaining === null || !/^\d+$/.test(remaining)) return;
    const charged = Number(headers.get(HEADERS.creditsCharged) ?? 0);
    this.set(Number(remaining), Number.isFinite(charged) ? charged : 0);
  }

  /** A known value (a response, the session budget). */
  set(remaining: number, charged = 0): void {
    this.#apply(remaining, charged, Date.now(), true);
  }

  #apply(remaining: number, charged: number, at: number, local: boolean): void {
    if (at < this.#at) return;
    this.#at = at;
    const changed = remaining !== this.#remaining || charged > 0;
    this.#remaining = remaining;
    if (local) this.#channel?.postMessage({ endpoint: this.endpoint, remaining, charged, at } satisfies LedgerMessage);
    if (changed) this.dispatchEvent(new CreditsChangedEvent({ remaining, charged, endpoint: this.endpoint }));
  }

  close(): void {
    this.#channel?.close();
    this.#channel = undefined;
  }
}
