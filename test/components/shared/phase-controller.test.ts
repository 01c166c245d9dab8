/**
 * PhaseController in a real Lit element: exactly one custom state, one announcement per phase
 * change through the polite live region, and focus moved to the phase's target only when the
 * user's focus was last inside the element.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { html as litHtml } from 'lit';
import { AnnouncerController } from '../../../src/components/shared/announcer.js';
import { PhaseController } from '../../../src/components/shared/phase-controller.js';
import { MkElement } from '../../../src/internal/mk-element.js';
import { until } from '../../fixtures/browser.js';

type Phase = 'idle' | 'working' | 'done';
const SAY: Partial<Record<Phase, string>> = { working: 'Working on it', done: 'All done' };

class PhaseProbe extends MkElement {
  static override properties = { now: {} };
  now: Phase = 'idle';
  changes: [Phase, Phase][] = [];
  said: string[] = [];
  readonly announce = new AnnouncerController(this);
  readonly phase = new PhaseController<Phase>(this, {
    phases: ['idle', 'working', 'done'],
    derive: () => this.now,
    states: (names, now) => this.setPhase(names, now),
    announcer: this.announce,
    say: (now) => SAY[now],
    focus: (now) => (now === 'done' ? '.missing, .result' : now === 'working' ? '.cancel' : undefined),
    onChange: (now, before) => this.changes.push([now, before]),
  });

  constructor() {
    super();
    const say = this.announce.say.bind(this.announce);
    this.announce.say = (text: string) => (this.said.push(text), say(text));
  }

  override render() {
    return litHtml`<button class="start">Start</button>
      ${this.now === 'working' ? litHtml`<button class="cancel">Cancel</button>` : ''}
      ${this.now === 'done' ? litHtml`<h3 class="result" tabindex="-1">Result</h3>` : ''}
      ${this.announce.render()}`;
  }
}
customElements.define('phase-probe', PhaseProbe);

const region = (el: Element) => el.shadowRoot!.querySelector('[part="announcer"]')!.textContent;

describe('PhaseController: the phase and its custom state', () => {
  it('sets exactly one custom state, following the derived phase', async () => {
    const el = await fixture<PhaseProbe>(html`<phase-probe></phase-probe>`);
    const states = () => ['idle', 'working', 'done'].filter((s) => el.matches(`:state(${s})`));
    expect(el.phase.phase).to.equal('idle');
    expect(states()).to.deep.equal(['idle']);
    el.now = 'working';
    await el.updateComplete;
    expect(el.phase.phase).to.equal('working');
    expect(states()).to.deep.equal(['working']);
    el.now = 'done';
    await el.updateComplete;
    expect(states()).to.deep.equal(['done']);
    expect(el.changes).to.deep.equal([
      ['working', 'idle'],
      ['done', 'working'],
    ]);
  });
});

describe('PhaseController: announcements', () => {
  it('says one thing per phase change, nothing for an update that keeps the phase', async () => {
    const el = await fixture<PhaseProbe>(html`<phase-probe></phase-probe>`);
    el.now = 'working';
    await el.updateComplete;
    await until(() => region(el)?.includes('Working on it'), 2_000, 'the announcement');
    el.requestUpdate();
    await el.updateComplete;
    el.now = 'done';
    await el.updateComplete;
    await until(() => region(el)?.includes('All done'), 2_000, 'the second announcement');
    expect(el.said).to.deep.equal(['Working on it', 'All done']);
  });
});

describe('PhaseController: focus', () => {
  it('moves focus to the phase target when the user works inside the element (preference order)', async () => {
    const el = await fixture<PhaseProbe>(html`<phase-probe></phase-probe>`);
    el.shadowRoot!.querySelector<HTMLElement>('.start')!.focus();
    el.now = 'working';
    await el.updateComplete;
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement?.className).to.equal('cancel');
    el.now = 'done'; // the focused Cancel button disappears: the user is still "inside"
    await el.updateComplete;
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement?.className, '.missing finds nothing: the next selector').to.equal('result');
    await expect(el).to.be.accessible();
  });

  it('leaves focus alone when the user is working elsewhere on the page', async () => {
    const wrap = await fixture(html`<div><input aria-label="elsewhere" /><phase-probe></phase-probe></div>`);
    const el = wrap.querySelector<PhaseProbe>('phase-probe')!;
    const input = wrap.querySelector('input')!;
    el.shadowRoot!.querySelector<HTMLElement>('.start')!.focus();
    input.focus(); // the user moved on
    el.now = 'working';
    await el.updateComplete;
    await el.updateComplete;
    expect(document.activeElement).to.equal(input);
    expect(el.phase.engaged).to.equal(false);
  });

  it('moves focus anyway with freeFocus (an element whose own rule limits it to changes the user caused)', async () => {
    class FreeProbe extends MkElement {
      static override properties = { now: {} };
      now: Phase = 'idle';
      readonly phase = new PhaseController<Phase>(this, {
        phases: ['idle', 'working', 'done'],
        derive: () => this.now,
        states: (n, now) => this.setPhase(n, now),
        focus: (now) => (now === 'working' ? '.cancel' : undefined),
        freeFocus: true,
      });
      override render() {
        return this.now === 'working' ? litHtml`<button class="cancel">Cancel</button>` : litHtml`<p>idle</p>`;
      }
    }
    customElements.define('free-phase-probe', FreeProbe);
    const wrap = await fixture(html`<div><input aria-label="elsewhere" /><free-phase-probe></free-phase-probe></div>`);
    const el = wrap.querySelector<FreeProbe>('free-phase-probe')!;
    wrap.querySelector('input')!.focus();
    el.now = 'working';
    await el.updateComplete;
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement?.className).to.equal('cancel');
  });

  it('moves focus once a target that arrives later is rendered (a lazily loaded panel), unless the user went elsewhere', async () => {
    class LateProbe extends MkElement {
      static override properties = { now: {}, panel: {} };
      now: Phase = 'idle';
      /** The panel's module is in (LazyModuleController renders nothing until then). */
      panel = false;
      readonly phase = new PhaseController<Phase>(this, {
        phases: ['idle', 'working', 'done'],
        derive: () => this.now,
        states: (n, now) => this.setPhase(n, now),
        focus: (now) => (now === 'done' ? '.retry' : undefined),
      });
      override render() {
        return litHtml`<button class="start">Start</button>${
          this.now === 'done' && this.panel ? litHtml`<button class="retry">Try again</button>` : ''
        }`;
      }
    }
    customElements.define('late-phase-probe', LateProbe);
    const wrap = await fixture(html`<div><input aria-label="elsewhere" /><late-phase-probe></late-phase-probe></div>`);
    const el = wrap.querySelector<LateProbe>('late-phase-probe')!;
    const start = el.shadowRoot!.querySelector<HTMLElement>('.start')!;
    start.focus();
    el.now = 'done';
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement, 'nothing to focus yet').to.equal(start);
    el.panel = true; // the panel's module arrives
    await el.updateComplete;
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement?.className).to.equal('retry');

    el.now = 'idle';
    el.panel = false;
    await el.updateComplete;
    start.focus();
    el.now = 'done';
    await el.updateComplete;
    wrap.querySelector('input')!.focus(); // the user moved on before the panel came
    el.panel = true;
    await el.updateComplete;
    await el.updateComplete;
    expect(document.activeElement, 'the focus stays where the user put it').to.equal(wrap.querySelector('input'));
  });
});
