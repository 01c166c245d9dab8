/**
 * PhaseTimingsController in a real Lit element: User Timing measures named
 * `mediakit:<tag>:<name>` for spans of phases (or of a predicate), with the phase it ended in, a
 * span that ends at an event from the host, and `clear()` for a cancel (no measure at all).
 */
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement, html as litHtml } from 'lit';
import { PhaseTimingsController } from '../../../src/components/shared/phase-timings.js';

type Phase = 'idle' | 'checking' | 'sending' | 'resending' | 'processing' | 'done' | 'failed';
let tag = '';

class TimingsProbe extends LitElement {
  static override properties = { now: {}, validating: { type: Boolean } };
  now: Phase = 'idle';
  validating = false;
  readonly timings = new PhaseTimingsController<Phase>(this, {
    tag,
    phase: () => this.now,
    spans: {
      upload: ['sending', 'resending'],
      process: ['processing'],
      'first-frame': ['done'],
      photos: () => this.validating,
    },
    endOn: { 'first-frame': 'probe-frame' },
  });

  override render() {
    return litHtml`<p>${this.now}</p>`;
  }
}
customElements.define('timings-probe', TimingsProbe);

const measures = () =>
  performance.getEntriesByType('measure').filter((m) => m.name.startsWith(`mediakit:${tag}:`)) as PerformanceMeasure[];
const named = () => measures().map((m) => m.name.slice(`mediakit:${tag}:`.length));

async function probe(): Promise<TimingsProbe> {
  tag = `probe-${crypto.randomUUID().slice(0, 8)}`;
  return fixture<TimingsProbe>(html`<timings-probe></timings-probe>`);
}

async function go(el: TimingsProbe, now: Phase) {
  el.now = now;
  await el.updateComplete;
  await new Promise((r) => setTimeout(r, 5));
}

describe('PhaseTimingsController', () => {
  it('measures each span once, across the phases it lasts through, with the phase it ended in', async () => {
    const el = await probe();
    await go(el, 'sending');
    await go(el, 'resending');
    await go(el, 'processing');
    await go(el, 'failed');
    expect(named()).to.deep.equal(['upload', 'process']);
    const process = measures().find((m) => m.name.endsWith(':process'))!;
    expect(process.detail).to.deep.equal({ status: 'failed' });
    expect(process.duration).to.be.greaterThan(0);
    await expect(el).to.be.accessible();
  });

  it('ends a span at the host event it names (a viewer first frame), and drops it if the phase ends first', async () => {
    const el = await probe();
    await go(el, 'done');
    expect(named()).to.deep.equal([]);
    el.dispatchEvent(new Event('probe-frame'));
    expect(named()).to.deep.equal(['first-frame']);
    await go(el, 'idle');
    await go(el, 'done');
    await go(el, 'idle'); // reset before the first frame
    el.dispatchEvent(new Event('probe-frame'));
    expect(named(), 'an abandoned first frame is not measured').to.deep.equal(['first-frame']);
  });

  it('takes a predicate span (photos being checked), and clear() drops what is open (a cancel)', async () => {
    const el = await probe();
    el.validating = true;
    await el.updateComplete;
    el.validating = false;
    await el.updateComplete;
    expect(named()).to.deep.equal(['photos']);
    await go(el, 'sending');
    el.timings.clear();
    await go(el, 'idle');
    expect(named(), 'a cancelled upload is not a timing').to.deep.equal(['photos']);
  });
});
