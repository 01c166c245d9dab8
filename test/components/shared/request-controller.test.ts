/**
 * RequestController in a real Lit element: one Idempotency-Key per input (a retry after a failure
 * or a lost answer replays it, a success or another input starts a new one), one send per slot at
 * a time (a double click sends once), the AbortSignal given to the send, the 429 countdown, and
 * the page's ONE ticker: however many elements count down or run a clock, one timer is pending.
 */
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import { LitElement, html as litHtml } from 'lit';
import { RequestController, type SendContext } from '../../../src/components/shared/request-controller.js';
import { installClock, type FakeClock } from './fake-clock.js';

class RequestProbe extends LitElement {
  static override properties = { running: { type: Boolean } };
  running = false;
  renders = 0;
  readonly request = new RequestController(this, { running: () => this.running });

  override render() {
    this.renders++;
    return litHtml`<p part="wait">${this.request.waitSeconds}</p><p part="busy">${this.request.busy ? 'busy' : 'idle'}</p>`;
  }
}
customElements.define('request-probe', RequestProbe);

const text = (el: Element, part: string) => el.shadowRoot!.querySelector(`[part="${part}"]`)!.textContent;

/** A send the test answers by hand, recording what each call was given. */
function manual() {
  const calls: (SendContext & { answer(value?: unknown): void; fail(err: unknown): void })[] = [];
  const send = (ctx: SendContext) =>
    new Promise((answer, fail) => {
      calls.push({ ...ctx, answer, fail });
      ctx.signal.addEventListener('abort', () => fail(ctx.signal.reason), { once: true });
    });
  return { calls, send };
}

describe('RequestController: one Idempotency-Key per input', () => {
  it('replays the key after a failure, and takes a new one after a success', async () => {
    const el = await fixture<RequestProbe>(html`<request-probe></request-probe>`);
    const { calls, send } = manual();
    const input = new File(['v'], 'a.mp4');
    const first = el.request.send(send, { input });
    calls[0]!.fail(new TypeError('the answer was lost'));
    await first.catch(() => undefined);
    const second = el.request.send(send, { input });
    expect(calls[1]!.key, 'a retry replays').to.equal(calls[0]!.key);
    calls[1]!.answer('job');
    expect(await second).to.equal('job');
    void el.request.send(send, { input });
    expect(calls[2]!.key, 'after a success: a new request').to.not.equal(calls[0]!.key);
    calls[2]!.answer();
  });

  it('takes a new key for another input, or after forget()', async () => {
    const el = await fixture<RequestProbe>(html`<request-probe></request-probe>`);
    const { calls, send } = manual();
    const fail = async (p: Promise<unknown>, i: number) => (calls[i]!.fail(new Error('no')), p.catch(() => undefined));
    await fail(el.request.send(send, { input: 'a' }), 0);
    await fail(el.request.send(send, { input: 'b' }), 1);
    expect(calls[1]!.key).to.not.equal(calls[0]!.key);
    await fail(el.request.send(send, { input: 'b' }), 2);
    expect(calls[2]!.key).to.equal(calls[1]!.key);
    el.request.forget();
    await fail(el.request.send(send, { input: 'b' }), 3);
    expect(calls[3]!.key).to.not.equal(calls[2]!.key);
  });

  it('sends once for a double click: a second send while the first is out gets the same promise', async () => {
    const el = await fixture<RequestProbe>(html`<request-probe></request-probe>`);
    const { calls, send } = manual();
    const a = el.request.send(send);
    const b = el.request.send(send);
    expect(calls).to.have.length(1);
    expect(el.request.busy).to.equal(true);
    await el.updateComplete;
    expect(text(el, 'busy')).to.equal('busy');
    calls[0]!.answer(7);
    expect(await a).to.equal(7);
    expect(await b).to.equal(7);
    await el.updateComplete;
    expect(el.request.busy).to.equal(false);
    expect(text(el, 'busy')).to.equal('idle');
  });

  it('keeps each slot apart: its own key, and out beside the others (a batch and a retried variant)', async () => {
    const el = await fixture<RequestProbe>(html`<request-probe></request-probe>`);
    const { calls, send } = manual();
    const batch = el.request.send(send, { slot: 'batch' });
    const retry = el.request.send(send, { slot: 'variant-2' });
    expect(calls).to.have.length(2);
    expect(calls[0]!.key).to.not.equal(calls[1]!.key);
    expect(el.request.pending('batch') && el.request.pending('variant-2')).to.equal(true);
    calls[1]!.answer();
    await retry;
    expect(el.request.pending('variant-2')).to.equal(false);
    expect(el.request.busy, 'the batch is still out').to.equal(true);
    calls[0]!.answer();
    await batch;
    expect(el.request.busy).to.equal(false);
  });
});

describe('RequestController: aborting', () => {
  it('cancel() aborts the signal the send was given; the key is kept, so sending again replays', async () => {
    const el = await fixture<RequestProbe>(html`<request-probe></request-probe>`);
    const { calls, send } = manual();
    const p = el.request.send(send, { input: 'x' });
    el.request.cancel();
    expect(calls[0]!.signal.aborted).to.equal(true);
    const err = await p.catch((e: unknown) => e);
    expect((err as DOMException).name).to.equal('AbortError');
    void el.request.send(send, { input: 'x' }).catch(() => undefined);
    expect(calls[1]!.key).to.equal(calls[0]!.key);
    el.request.cancel();
  });

  it('aborts when the element leaves the page, not when it moves', async () => {
    const el = await fixture<RequestProbe>(html`<request-probe></request-probe>`);
    const { calls, send } = manual();
    void el.request.send(send).catch(() => undefined);
    const other = document.createElement('div');
    document.body.append(other);
    other.append(el); // disconnect and connect in one task
    await new Promise((r) => setTimeout(r));
    expect(calls[0]!.signal.aborted, 'moved: still out').to.equal(false);
    el.remove();
    await new Promise((r) => setTimeout(r));
    expect(calls[0]!.signal.aborted, 'left the page').to.equal(true);
    other.remove();
  });
});

describe('RequestController: the 429 countdown and the page-wide ticker', () => {
  let clock: FakeClock;
  beforeEach(() => (clock = installClock()));
  afterEach(() => {
    fixtureCleanup();
    clock.restore();
  });

  it('counts a 429 wait down once a second on screen, and clears it when the send ends', async () => {
    const el = await fixture<RequestProbe>(html`<request-probe></request-probe>`);
    const { calls, send } = manual();
    const p = el.request.send(send);
    calls[0]!.onWait({ seconds: 3 });
    await el.updateComplete;
    expect(text(el, 'wait')).to.equal('3');
    await clock.tick(1000);
    expect(text(el, 'wait')).to.equal('2');
    await clock.tick(1000);
    expect(text(el, 'wait')).to.equal('1');
    calls[0]!.answer();
    await p;
    await el.updateComplete;
    expect(text(el, 'wait')).to.equal('0');
    expect(clock.pending, 'nothing left to tick').to.equal(0);
  });

  it('keeps ONE timer pending for the whole page, however many elements count down', async () => {
    const wrap = await fixture(html`<div>${[0, 1, 2, 3, 4].map(() => html`<request-probe></request-probe>`)}</div>`);
    const els = [...wrap.querySelectorAll<RequestProbe>('request-probe')];
    const sends = els.map((el, i) => {
      const m = manual();
      void el.request.send(m.send).catch(() => undefined);
      m.calls[0]!.onWait({ seconds: 2 + i });
      return m;
    });
    await Promise.all(els.map((el) => el.updateComplete));
    expect(clock.pending).to.equal(1);
    await clock.tick(1000);
    expect(clock.pending).to.equal(1);
    expect(els.map((el) => text(el, 'wait'))).to.deep.equal(['1', '2', '3', '4', '5']);
    for (const { calls } of sends) calls[0]!.answer();
    await clock.tick(0);
    await Promise.all(els.map((el) => el.updateComplete));
    expect(clock.pending, 'every wait over: no timer at all').to.equal(0);
  });

  it('renders a running host once a second (elapsed time), and stops when it stops running or leaves', async () => {
    const el = await fixture<RequestProbe>(html`<request-probe></request-probe>`);
    expect(clock.pending, 'idle: no timer').to.equal(0);
    el.running = true;
    await el.updateComplete;
    const before = el.renders;
    await clock.tick(3000);
    expect(el.renders - before).to.equal(3);
    el.running = false;
    await el.updateComplete;
    await clock.tick(3000);
    expect(el.renders - before).to.equal(4); // the update that stopped it, then nothing
    el.running = true;
    await el.updateComplete;
    expect(clock.pending).to.equal(1);
    el.remove();
    expect(clock.pending, 'off the page: out of the ticker').to.equal(0);
  });
});

describe('RequestController: accessibility', () => {
  it('leaves its host accessible while a countdown shows', async () => {
    const el = await fixture<RequestProbe>(html`<request-probe></request-probe>`);
    const { calls, send } = manual();
    void el.request.send(send).catch(() => undefined);
    calls[0]!.onWait({ seconds: 5 });
    await el.updateComplete;
    await expect(el).to.be.accessible();
    el.request.cancel();
  });
});
