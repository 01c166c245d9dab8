import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { CreditLedger } from '../../client/credit-ledger.js';
import type { MediaClient } from '../../client/media-client.js';
import { CreditsChangedEvent } from '../../events/credits-changed.js';
import { AnnouncerController } from '../shared/announcer.js';
import { PhaseController } from '../shared/phase-controller.js';
import { ClientElement } from '../shared/client-element.js';
import { CreditsController } from '../shared/credits.js';
import { errorFacts } from '../shared/error-facts.js';
import { LocalizeController } from '../shared/localize.js';
import { sharedStrings, type SharedStrings } from '../shared/strings.js';
import { base, tokens } from '../shared/base.styles.js';
import { badgeStyles } from './credit-badge.styles.js';
import { badgeStrings, type BadgeStrings } from './strings.js';
import { safeUrl } from '../../internal/safe-url.js';

export type CreditBadgeStatus = 'loading' | 'ready' | 'offline' | 'failed';
const PHASES: readonly CreditBadgeStatus[] = ['loading', 'ready', 'offline', 'failed'];
type Strings = BadgeStrings & SharedStrings;

/**
 * @summary The credits left, live: the session's budget (or the site's account balance), updated by every charged answer on the page and in other tabs, with a `low` threshold announced once.
 * @tag credit-badge
 *
 * @slot top-up - Shown while the credits are low (a link or button to the site's top-up page); default: a link to `top-up-href`.
 *
 * @event mk-credits-changed - The number shown changed (a charge on this page or in another tab, or a refresh); `detail.remaining`, `charged`, `endpoint`.
 *
 * @csspart base - The badge.
 * @csspart icon - The coin icon.
 * @csspart value - The number (and its words in `long` format).
 * @csspart low - The "low" marker.
 * @csspart offline - The "offline" marker.
 * @csspart retry-button - Loads the credits again after an error.
 * @csspart top-up - The default top-up link.
 *
 * @cssproperty --mk-accent - Accent colour (the coin). Default #2f5bea.
 * @cssproperty --mk-surface - Badge background.
 * @cssproperty --mk-border - Border.
 * @cssproperty --mk-danger - Colour of the low marker.
 * @cssproperty --mk-space - Spacing unit. Default 8px.
 * @cssproperty --mk-focus-ring - Focus ring colour.
 *
 * @cssstate loading - The number is not known yet.
 * @cssstate ready - The number is shown.
 * @cssstate offline - The browser is offline; the last known number is shown.
 * @cssstate failed - The number could not be read (a retry button is shown).
 * @cssstate low - Fewer credits are left than `low`.
 */
export class CreditBadge extends ClientElement {
  static override styles = [tokens, base, badgeStyles];

  /** Below this many credits the badge turns `:state(low)`, shows the top-up slot and says so once. Default 0 (off). */
  @property({ type: Number }) low = 0;

  /** `long` ("1,234 credits left") or `compact` ("1.2K", the words for screen readers). Default `long`. */
  @property() format: 'long' | 'compact' = 'long';

  /** What to show: `session` (this session's budget) or `account` (the site's whole balance, where the proxy shares it). Default `session`. */
  @property() source: 'session' | 'account' = 'session';

  /** Overrides of single strings, in any language: `{ cbLabel: 'Budget' }`. */
  declare strings: Partial<Strings> | undefined;

  @state() private _online = typeof navigator === 'undefined' ? true : navigator.onLine !== false;

  readonly #t = new LocalizeController<Strings>(this, sharedStrings, badgeStrings);
  readonly #announce = new AnnouncerController(this);
  readonly #credits = new CreditsController(this, () => this.#source());
  readonly #phase = new PhaseController<CreditBadgeStatus>(this, {
    phases: PHASES,
    derive: () => this.#derive(),
    states: (names, now) => this.setPhase(names, now),
  });

  #wasLow = false;
  #views = new WeakMap<MediaClient, MediaClient>();
  #ledger: CreditLedger | undefined;

  /** `loading`, `ready`, `offline` or `failed`. */
  get status(): CreditBadgeStatus {
    return this.#phase.phase;
  }

  /** The number shown, or undefined while it is not known. */
  get remaining(): number | undefined {
    return this.#credits.remaining;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('online', this.#onOnline);
    window.addEventListener('offline', this.#onOffline);
    // Relay from the first change after (re)connecting, not from the first render after it.
    this.#listen(this.mediaClient().credits);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('online', this.#onOnline);
    window.removeEventListener('offline', this.#onOffline);
    this.#listen(undefined);
  }

  protected override willUpdate(): void {
    if (this.isConnected) this.#listen(this.mediaClient().credits);
    const left = this.#credits.remaining;
    const isLow = this.low > 0 && left !== undefined && left < this.low;
    // Said once when the number falls below `low`, not on every later change; said again only after a top-up lifted it.
    if (isLow && !this.#wasLow) this.#announce.say(this.#t.term('cbLowSay', { n: left }));
    this.#wasLow = isLow;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.setState('low', this.#wasLow);
  }

  /** Reads the number from the proxy again. */
  refresh(): Promise<void> {
    return this.#credits.refresh();
  }

  /**
   * The client as the credits controller sees it: itself for the session budget; for the account
   * balance, a view whose refresh reads GET /api/v1/account into the same ledger (the proxy then
   * reports the account balance in every X-Credits-Remaining as well).
   */
  #source(): MediaClient {
    const client = this.mediaClient();
    if (this.source !== 'account') return client;
    let view = this.#views.get(client);
    if (!view) {
      view = Object.create(client, {
        budget: {
          value: async (options?: { signal?: AbortSignal }) => {
            const { balance } = await client.account(options);
            client.credits.set(balance);
            return { remaining: balance };
          },
        },
      }) as MediaClient;
      this.#views.set(client, view);
    }
    return view;
  }

  #listen(ledger: CreditLedger | undefined): void {
    if (ledger === this.#ledger) return;
    this.#ledger?.removeEventListener('mk-credits-changed', this.#relay);
    this.#ledger = ledger;
    ledger?.addEventListener('mk-credits-changed', this.#relay);
  }

  /** The ledger's event, again from the element, so a page can listen on the badge or the document. */
  #relay = (e: Event) => {
    this.dispatchEvent(new CreditsChangedEvent((e as CreditsChangedEvent).detail));
  };

  #onOnline = () => {
    this._online = true;
    void this.#credits.refresh();
  };

  #onOffline = () => {
    this._online = false;
  };

  #derive(): CreditBadgeStatus {
    const err = this.#credits.error;
    if (!this._online || (err && errorFacts(err).reason === 'network')) return 'offline';
    if (err && this.#credits.remaining === undefined) return 'failed';
    return this.#credits.remaining === undefined ? 'loading' : 'ready';
  }

  protected override render() {
    const t = this.#t;
    const left = this.#credits.remaining;
    const s = this.#phase.phase;
    const n = left === undefined ? '' : this.format === 'compact' ? t.f.compact(left) : t.f.number(left);
    const words =
      left === undefined
        ? ''
        : t.term(this.source === 'account' ? 'cbAccountLeft' : 'cbSessionLeft', { n: t.f.number(left), count: left });
    const title =
      s === 'offline'
        ? t.term('cbOfflineTitle')
        : t.term(this.source === 'account' ? 'cbAccountTitle' : 'cbSessionTitle');
    return html`<div part="base" class="badge ${s}" role="group" aria-label=${t.term('cbLabel')} title=${title} lang=${t.resolved} dir=${t.dir}>
      <svg part="icon" viewBox="0 0 24 24" aria-hidden="true"><g fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"><ellipse cx="12" cy="6.5" rx="7" ry="3"/><path d="M5 6.5v5c0 1.7 3.1 3 7 3s7-1.3 7-3v-5"/><path d="M5 11.5v5c0 1.7 3.1 3 7 3s7-1.3 7-3v-5"/></g></svg>
      ${
        left === undefined
          ? s === 'failed'
            ? html`<span part="value" class="value">${t.term('cbError')}</span>
              <button type="button" part="retry-button" class="link" @click=${() => void this.refresh()}>${t.term('cbRetry')}</button>`
            : html`<span part="value" class="value">${s === 'offline' ? '–' : t.term('cbLoading')}</span>`
          : this.format === 'compact'
            ? html`<span part="value" class="value" aria-hidden="true">${n}</span><span class="sr-only">${words}</span>`
            : html`<span part="value" class="value">${words}</span>`
      }
      ${this.#wasLow ? html`<span part="low" class="tag low">${t.term('cbLow')}</span>` : nothing}
      ${s === 'offline' ? html`<span part="offline" class="tag offline">${t.term('cbOffline')}</span>` : nothing}
      ${this.#wasLow ? html`<slot name="top-up">${safeUrl(this.topUpHref) ? html`<a part="top-up" href=${this.topUpHref}>${t.term('topUp')}</a>` : nothing}</slot>` : nothing}
      ${this.#announce.render()}
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'credit-badge': CreditBadge;
  }
}
