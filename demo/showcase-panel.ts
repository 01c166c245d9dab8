/**
 * The showcase's developer tools panel (demo/showcase.ts): the sandbox clock, a fault for the next
 * call, the ledger, the raw API calls the page made, and the other demo pages. It draws through
 * the showcase (`host.changed()`), which owns the page's one polite live region (`host.announce`).
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ApiCall } from './api-log.js';
import type { DevTools, Fault, Ledger } from './dev-tools.js';

export interface PanelHost {
  /** Something the panel shows changed: draw the page again. */
  changed(): void;
  /** Says `text` in the page's polite live region. */
  announce(text: string): void;
  /** The panel opened or closed. */
  opened(open: boolean): void;
}

const FAULTS: ReadonlyArray<{ label: string; fault: Fault }> = [
  { label: 'Server error (500), nothing charged', fault: { kind: 'create_error' } },
  { label: 'Too many requests (429)', fault: { kind: 'rate_limit' } },
  { label: 'The job fails part-way, refunded', fault: { kind: 'job_fail' } },
  { label: 'Headshots: the fourth fails, refunded', fault: { kind: 'variant_fail', variants: [3] } },
  { label: 'Headshots: all four fail, refunded', fault: { kind: 'all_variants_fail' } },
  { label: 'Slow: 8 seconds late', fault: { kind: 'slow', ms: 8000 } },
];

const STEPS: ReadonlyArray<{ ms: number; text: string; words: string }> = [
  { ms: 60_000, text: '1 min', words: '1 minute' },
  { ms: 600_000, text: '10 min', words: '10 minutes' },
  { ms: 3_600_000, text: '1 hour', words: '1 hour' },
];

const MAX_CALLS = 40;
const number = new Intl.NumberFormat();
const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export class DevPanel {
  open = false;
  #clock: Date | undefined;
  #clockNote = '';
  #fault = 0;
  #faultNote = '';
  #ledger: Ledger | undefined;
  #ledgerNote = '';
  #calls: ApiCall[] = [];
  #busy = new Set<string>();
  #ticker: ReturnType<typeof setInterval> | undefined;
  #ledgerSoon: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly tools: DevTools,
    private readonly endpoint: string,
    private readonly pages: ReadonlyArray<{ href: string; text: string; about: string }>,
    private readonly host: PanelHost,
  ) {}

  /** Starts the clock's display (read every 5 s while the panel is open). */
  start(): void {
    this.#ticker ??= setInterval(() => this.open && void this.#readClock(), 5000);
  }

  stop(): void {
    clearInterval(this.#ticker);
    clearTimeout(this.#ledgerSoon);
    this.#ticker = undefined;
  }

  /** A call to the proxy started or ended (the same object both times). */
  record(call: ApiCall): void {
    if (!this.#calls.includes(call)) this.#calls = [call, ...this.#calls].slice(0, MAX_CALLS);
    // A charge or refund may have come with it: read the ledger again once the calls settle.
    if (call.status !== 0 && this.open) {
      clearTimeout(this.#ledgerSoon);
      this.#ledgerSoon = setTimeout(() => void this.#readLedger(), 600);
    }
    this.host.changed();
  }

  async #run(what: string, work: () => Promise<void>): Promise<void> {
    this.#busy.add(what);
    this.host.changed();
    try {
      await work();
    } finally {
      this.#busy.delete(what);
      this.host.changed();
    }
  }

  #readClock = () =>
    this.#run('clock', async () => {
      try {
        this.#clock = await this.tools.now();
        this.#clockNote = '';
      } catch (err) {
        this.#clockNote = message(err);
      }
    });

  #readLedger = () =>
    this.#run('ledger', async () => {
      try {
        this.#ledger = await this.tools.ledger();
        this.#ledgerNote = '';
      } catch (err) {
        this.#ledgerNote = message(err);
      }
    });

  #advance = (step: (typeof STEPS)[number]) =>
    this.#run('clock', async () => {
      try {
        this.#clock = await this.tools.advance(step.ms);
        this.#clockNote = '';
        this.host.announce(`Sandbox clock moved ${step.words}: it is ${time.format(this.#clock)}.`);
      } catch (err) {
        this.host.announce((this.#clockNote = message(err)));
      }
    });

  #arm = () =>
    this.#run('fault', async () => {
      const choice = FAULTS[this.#fault]!;
      try {
        await this.tools.arm(choice.fault);
        this.#faultNote = `Armed for the next call: ${choice.label}.`;
      } catch (err) {
        this.#faultNote = message(err);
      }
      this.host.announce(this.#faultNote);
    });

  toggle(open = !this.open): void {
    if (open === this.open) return;
    this.open = open;
    this.host.opened(open);
    this.host.changed();
    if (open) {
      void this.#readClock();
      void this.#readLedger();
      requestAnimationFrame(() => document.getElementById('sc-devtools-title')?.focus());
    } else {
      requestAnimationFrame(() => document.getElementById('sc-devtools-toggle')?.focus());
    }
  }

  renderToggle(): TemplateResult {
    return html`<button
      id="sc-devtools-toggle"
      type="button"
      class="ghost"
      aria-expanded=${this.open ? 'true' : 'false'}
      aria-controls="sc-devtools"
      @click=${() => this.toggle()}
    >
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <path
          fill="currentColor"
          d="M8.6 16.6 4 12l4.6-4.6L7.2 6l-6 6 6 6 1.4-1.4zm6.8 0L20 12l-4.6-4.6L16.8 6l6 6-6 6-1.4-1.4z"
        /></svg
      ><span>Dev tools</span>
    </button>`;
  }

  render(): TemplateResult {
    return html`<aside
      id="sc-devtools"
      class="devtools"
      aria-labelledby="sc-devtools-title"
      ?hidden=${!this.open}
      @keydown=${(e: KeyboardEvent) => {
        if (e.key === 'Escape' && !e.defaultPrevented) this.toggle(false);
      }}
    >
      <div class="devtools-head">
        <h2 id="sc-devtools-title" tabindex="-1">Developer tools</h2>
        <button type="button" class="ghost" @click=${() => this.toggle(false)}>
          Close<span class="visually-hidden"> developer tools</span>
        </button>
      </div>
      <p class="note">${this.tools.description}</p>
      ${this.open ? [this.#renderClock(), this.#renderFaults(), this.#renderLedger(), this.#renderCalls()] : nothing}
      <section aria-labelledby="sc-dt-page">
        <h3 id="sc-dt-page">This page</h3>
        <label class="check">
          <input
            type="checkbox"
            .checked=${document.documentElement.dir === 'rtl'}
            @change=${(e: Event) => {
              const rtl = (e.target as HTMLInputElement).checked;
              document.documentElement.dir = rtl ? 'rtl' : 'ltr';
              this.host.announce(rtl ? 'The page reads right to left.' : 'The page reads left to right.');
            }}
          />
          <span>Right to left (<code>dir="rtl"</code>)</span>
        </label>
        <p class="note">Lays the page and the elements out right to left; the words stay English.</p>
      </section>
      <section aria-labelledby="sc-dt-pages">
        <h3 id="sc-dt-pages">Other demo pages</h3>
        <ul class="pages">
          ${this.pages.map((p) => html`<li><a href=${p.href} dir="auto">${p.text}</a></li>`)}
        </ul>
      </section>
    </aside>`;
  }

  #renderClock(): TemplateResult {
    const c = this.#clock;
    return html`<section aria-labelledby="sc-dt-clock">
      <h3 id="sc-dt-clock">Sandbox clock</h3>
      <p class="clock">
        ${
          c
            ? html`<time datetime=${c.toISOString()}
              ><strong>${time.format(c)}</strong> <span class="note">${day.format(c)}</span></time
            >`
            : html`<span class="note">${this.#clockNote || 'Reading…'}</span>`
        }
      </p>
      <div class="row" role="group" aria-label="Move the sandbox clock forward">
        ${STEPS.map(
          (s) =>
            html`<button type="button" ?disabled=${this.#busy.has('clock')} @click=${() => this.#advance(s)}>
              <span class="visually-hidden">Forward </span><span aria-hidden="true">+</span>${s.text}
            </button>`,
        )}
      </div>
      ${c && this.#clockNote ? html`<p class="note error">${this.#clockNote}</p>` : nothing}
    </section>`;
  }

  #renderFaults(): TemplateResult {
    return html`<section aria-labelledby="sc-dt-faults">
      <h3 id="sc-dt-faults">Faults</h3>
      <label for="sc-dt-fault">What the next call does</label>
      <div class="row">
        <select
          id="sc-dt-fault"
          @change=${(e: Event) => (this.#fault = (e.target as HTMLSelectElement).selectedIndex)}
        >
          ${FAULTS.map((f, i) => html`<option ?selected=${i === this.#fault}>${f.label}</option>`)}
        </select>
        <button type="button" ?disabled=${this.#busy.has('fault')} @click=${this.#arm}>Arm</button>
      </div>
      ${this.#faultNote ? html`<p class="note">${this.#faultNote}</p>` : nothing}
    </section>`;
  }

  #renderLedger(): TemplateResult {
    const l = this.#ledger;
    const sum = (type: 'charge' | 'refund') =>
      (l?.entries ?? []).filter((e) => e.type === type).reduce((n, e) => n + e.amount, 0);
    const recent = (l?.entries ?? []).slice(-8).reverse();
    return html`<section aria-labelledby="sc-dt-ledger">
      <div class="devtools-sub">
        <h3 id="sc-dt-ledger">Ledger</h3>
        <button type="button" class="ghost small" ?disabled=${this.#busy.has('ledger')} @click=${this.#readLedger}>
          Refresh<span class="visually-hidden"> the ledger</span>
        </button>
      </div>
      <p class="note">The sandbox account behind the proxy, every visitor's calls together.</p>
      ${
        l
          ? html`<dl class="totals">
              <div><dt>Spent</dt><dd>${number.format(sum('charge'))}</dd></div>
              <div><dt>Refunded</dt><dd>${number.format(sum('refund'))}</dd></div>
              <div><dt>Balance</dt><dd>${number.format(l.balance)}</dd></div>
            </dl>
            ${
              recent.length
                ? html`<table class="log">
                  <caption class="visually-hidden">
                    The sandbox account's latest charges and refunds, newest first
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Time</th>
                      <th scope="col">Credits</th>
                      <th scope="col">For</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${recent.map(
                      (e) =>
                        html`<tr>
                          <td>${time.format(new Date(e.at))}</td>
                          <td class=${e.type}>
                            ${e.type === 'charge' ? '−' : '+'}${number.format(e.amount)}
                            <span class="visually-hidden">${e.type === 'charge' ? 'charged' : 'refunded'}</span>
                          </td>
                          <td>${e.endpoint}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>`
                : html`<p class="note">Nothing charged yet.</p>`
            }`
          : nothing
      }
      ${this.#ledgerNote || !l ? html`<p class="note">${this.#ledgerNote || 'Reading…'}</p>` : nothing}
    </section>`;
  }

  #renderCalls(): TemplateResult {
    return html`<section aria-labelledby="sc-dt-calls">
      <div class="devtools-sub">
        <h3 id="sc-dt-calls">API calls</h3>
        <button
          type="button"
          class="ghost small"
          ?disabled=${this.#calls.length === 0}
          @click=${() => {
            this.#calls = [];
            this.host.changed();
          }}
        >
          Clear<span class="visually-hidden"> the API calls</span>
        </button>
      </div>
      <p class="note">What this page sent to <code>${this.endpoint}</code>, newest first. Keys stay on the server.</p>
      ${
        this.#calls.length
          ? html`<table class="log calls">
            <caption class="visually-hidden">
              API calls of this page, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Method</th>
                <th scope="col">Path</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              ${this.#calls.map(
                (c) =>
                  html`<tr>
                    <td>${c.method}</td>
                    <td class="path">${c.path}</td>
                    <td class=${c.status >= 400 || c.status < 0 ? 'bad' : ''}>
                      ${c.status === 0 ? '…' : c.status < 0 ? 'failed' : c.status}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`
          : html`<p class="note">None yet: use an element.</p>`
      }
    </section>`;
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
