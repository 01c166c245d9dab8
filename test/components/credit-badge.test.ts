import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/credit-badge/define.js';
import '../../src/components/bg-tool/define.js';
import type { CreditBadge } from '../../src/components/credit-badge/credit-badge.js';
import type { BgTool } from '../../src/components/bg-tool/bg-tool.js';
import type { CreditsChangedEvent } from '../../src/events/credits-changed.js';
import { MediaClient } from '../../src/client/media-client.js';
import { photo, requestsTo, until } from '../fixtures/browser.js';
import { runProductElementTests } from './shared/product-element-contract.js';

const endpoint = '/mk-badge';
const cut = (el: Element) => el.shadowRoot!;
const q = <T extends Element = HTMLElement>(el: Element, sel: string): T | undefined =>
  cut(el).querySelector<T>(sel) ?? undefined;
const shown = (el: CreditBadge) => q(el, '[part~="value"]')!.textContent!.trim();
/** Requests of this page that read the balance (a session, or the account). */
const balanceReads = () => requestsTo(`${endpoint}/session`) + requestsTo('/api/v1/account');
/** Spends one credit on /mk-badge through the page's shared client. */
const spend = async () => MediaClient.for(endpoint).imageTool({ image: await photo(64, 64), size: 'preview' });

async function mount(attrs = ''): Promise<CreditBadge> {
  const el = await fixture<CreditBadge>(html`<credit-badge endpoint=${endpoint}></credit-badge>`);
  if (attrs) for (const [k, v] of new URLSearchParams(attrs)) el.setAttribute(k, v);
  await until(() => el.status === 'ready', 5_000, 'the budget');
  await el.updateComplete;
  return el;
}

/** Counts the texts the element's polite live region announces. */
function listen(el: CreditBadge): string[] {
  const said: string[] = [];
  const region = q(el, '[aria-live="polite"]')!;
  new MutationObserver(() => {
    const text = region.textContent!.trim();
    if (text) said.push(text);
  }).observe(region, { childList: true, subtree: true, characterData: true });
  return said;
}

describe('<credit-badge>: the number, live', function () {
  this.timeout(30_000);

  it('shows loading, then the session budget in words', async () => {
    const el = await fixture<CreditBadge>(html`<credit-badge endpoint=${endpoint}></credit-badge>`);
    expect(el.matches(':state(loading)') || el.matches(':state(ready)')).to.equal(true);
    await until(() => el.matches(':state(ready)'), 5_000, 'ready');
    await el.updateComplete;
    const { remaining } = await MediaClient.for(endpoint).budget();
    expect(shown(el)).to.equal(`${remaining} credits left`);
    expect(el.remaining).to.equal(remaining);
  });

  it('follows every charge on the page from the charge itself (no read of the balance) and tells the page', async () => {
    const el = await mount();
    const events: CreditsChangedEvent[] = [];
    document.addEventListener('mk-credits-changed', (e) => events.push(e));
    const start = el.remaining!;
    // A charge by another element on the page.
    const tool = await fixture<BgTool>(html`<bg-tool endpoint=${endpoint} size="preview"></bg-tool>`);
    tool.selectFile(new File([await photo(64, 64)], 'a.png', { type: 'image/png' }));
    await until(() => tool.status === 'ready', 5_000, 'the tool');
    const reads = balanceReads();
    await tool.start();
    await until(() => shown(el) === `${start - 1} credits left`, 5_000, 'the badge after the element charge');
    // A charge by a script through the client.
    await spend();
    await until(() => shown(el) === `${start - 2} credits left`, 5_000, 'the badge after the script charge');
    expect(balanceReads()).to.equal(reads, 'the numbers came with the charges, not from asking again');
    expect(
      events.filter((e) => e.target === el).map((e) => [e.detail.remaining, e.detail.charged]),
    ).to.deep.include.members([
      [start - 1, 1],
      [start - 2, 1],
    ]);
  });

  it('follows a charge made in another tab from the charge itself (no read of the balance)', async () => {
    const el = await mount();
    const start = el.remaining!;
    const frame = document.createElement('iframe');
    frame.src = '/test/components/credit-badge-page.html';
    document.body.append(frame);
    try {
      const page = await until(
        () => (frame.contentWindow as unknown as { page?: { charge(): Promise<number> } }).page,
        10_000,
        'the other tab',
      );
      const reads = balanceReads();
      const left = await page.charge();
      expect(left).to.equal(start - 1);
      await until(() => el.remaining === left, 5_000, 'the badge after the other tab charged');
      expect(balanceReads()).to.equal(reads, 'the number came from the other tab, not from asking again');
      await el.updateComplete;
      expect(shown(el)).to.equal(`${left} credits left`);
    } finally {
      frame.remove();
    }
  });

  it('turns low below the threshold, says so once, and offers the top-up', async () => {
    const el = await mount();
    el.topUpHref = '/buy';
    const said = listen(el);
    el.low = el.remaining!; // one more charge and it is below
    await el.updateComplete;
    expect(el.matches(':state(low)')).to.equal(false);
    expect(q(el, '[part~="top-up"]')).to.equal(undefined);
    for (let i = 0; i < 3; i++) {
      await spend();
      await el.updateComplete;
      await new Promise((r) => setTimeout(r, 120));
    }
    expect(el.matches(':state(low)')).to.equal(true);
    expect(q(el, '[part~="low"]')!.textContent).to.equal('low');
    expect(q<HTMLAnchorElement>(el, '[part~="top-up"]')!.getAttribute('href')).to.equal('/buy');
    expect(said.filter((s) => s.includes('running low'))).to.have.length(1);
  });

  it('shows the account balance where the proxy shares it', async () => {
    const el = await fixture<CreditBadge>(html`<credit-badge endpoint="/mk-jobs" source="account"></credit-badge>`);
    await until(() => el.status === 'ready', 5_000, 'the balance');
    await el.updateComplete;
    const { balance } = await MediaClient.for('/mk-jobs').account();
    expect(shown(el)).to.equal(`${balance.toLocaleString('en')} credits in the account`);
  });
});

describe('<credit-badge>: formats and language', () => {
  it('formats compact through Intl, keeping the words for screen readers', async () => {
    const client = new MediaClient({ endpoint: '/mk-badge-compact' });
    client.credits.set(12_345);
    const el = await fixture<CreditBadge>(html`<credit-badge format="compact" .client=${client}></credit-badge>`);
    await el.updateComplete;
    expect(shown(el)).to.equal('12.3K');
    expect(q(el, '.sr-only')!.textContent).to.equal('12,345 credits left');
    el.format = 'long';
    await el.updateComplete;
    expect(shown(el)).to.equal('12,345 credits left');
  });

  it('speaks German under lang="de"', async () => {
    const client = new MediaClient({ endpoint: '/mk-badge-de' });
    client.credits.set(12_345);
    const wrap = await fixture(html`<div lang="de"><credit-badge .client=${client} low="20000"></credit-badge></div>`);
    const el = wrap.querySelector('credit-badge')!;
    await until(() => shown(el) === 'noch 12.345 Credits', 5_000, 'German');
    expect(q(el, '[part~="low"]')!.textContent).to.equal('knapp');
    el.setAttribute('format', 'compact');
    await el.updateComplete;
    expect(q(el, '.sr-only')!.textContent).to.equal('noch 12.345 Credits');
  });
});

describe('<credit-badge>: offline and errors', function () {
  this.timeout(30_000);

  it('keeps the last number and says offline while the browser is offline; reads again when back', async () => {
    const el = await mount();
    window.dispatchEvent(new Event('offline'));
    await el.updateComplete;
    expect(el.matches(':state(offline)')).to.equal(true);
    expect(q(el, '[part~="offline"]')!.textContent).to.equal('offline');
    expect(shown(el)).to.match(/^\d+ credits left$/);
    const before = requestsTo(`${endpoint}/session`);
    window.dispatchEvent(new Event('online'));
    await until(() => el.matches(':state(ready)'), 5_000, 'back online');
    await until(() => requestsTo(`${endpoint}/session`) > before, 5_000, 'a fresh read');
  });

  it('says offline when the proxy cannot be reached at all', async () => {
    const el = await fixture<CreditBadge>(html`<credit-badge endpoint="http://127.0.0.1:9/mediakit"></credit-badge>`);
    await until(() => el.matches(':state(offline)'), 20_000, 'offline');
    await el.updateComplete;
    expect(shown(el)).to.equal('–');
  });

  it('shows an error with a retry that works by keyboard', async () => {
    const el = await fixture<CreditBadge>(html`<credit-badge endpoint="/mk-nowhere"></credit-badge>`);
    await until(() => el.matches(':state(failed)'), 10_000, 'the error');
    await el.updateComplete;
    expect(shown(el)).to.equal('Credits unavailable');
    await expect(el).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
    const before = requestsTo('/mk-nowhere/session');
    q(el, '[part~="retry-button"]')!.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => requestsTo('/mk-nowhere/session') > before, 5_000, 'the retry');
  });

  it('has no serious or critical axe violations in any state', async () => {
    const check = async (el: CreditBadge) => {
      await el.updateComplete;
      await expect(el).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
    };
    const el = await fixture<CreditBadge>(html`<credit-badge endpoint=${endpoint} top-up-href="/buy"></credit-badge>`);
    await check(el); // loading
    await until(() => el.status === 'ready', 5_000, 'ready');
    await check(el); // ready
    el.low = el.remaining! + 1;
    await check(el); // low, with the top-up link
    window.dispatchEvent(new Event('offline'));
    await check(el); // offline
    window.dispatchEvent(new Event('online'));
    el.format = 'compact';
    await check(el); // compact
  });
});

runProductElementTests({ tag: 'credit-badge', endpoint, idleState: 'ready', form: false });
