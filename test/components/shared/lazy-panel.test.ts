/**
 * The lazy rule (LazyModuleController, ErrorPanelController) in a real element: the error panel's
 * code loads on idle after connect, the element renders nothing in its place until then and
 * renders again when it is in; a module loaded on demand brings its own styles; a failed load is
 * tried again on the next render.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement, css, html as litHtml } from 'lit';
import { ApiError } from '../../../src/api/index.js';
import { addStyles, ErrorPanelController, LazyModuleController } from '../../../src/components/shared/lazy-panel.js';
import { LocalizeController } from '../../../src/components/shared/localize.js';
import { sharedStrings, type SharedStrings } from '../../../src/components/shared/strings.js';
import { until } from '../../fixtures/browser.js';

void sharedStrings;

class PanelProbe extends LitElement {
  readonly t = new LocalizeController<SharedStrings>(this);
  readonly panel = new ErrorPanelController(this);
  renders = 0;

  override render() {
    this.renders++;
    return litHtml`<p>before</p>${this.panel.render(this.t, new ApiError(402, 'insufficient_credits', 'Not enough credits.'))}`;
  }
}
customElements.define('panel-probe', PanelProbe);

type Extra = { label: string; styles: ReturnType<typeof css> };
let loads = 0;
let failNext = false;
const loadExtra = async (): Promise<Extra> => {
  loads++;
  if (failNext) {
    failNext = false;
    throw new TypeError('Failed to fetch dynamically imported module');
  }
  return { label: 'later view', styles: css`.later { color: rgb(1, 2, 3); }` };
};

class ModuleProbe extends LitElement {
  static override properties = { show: { type: Boolean } };
  static override styles = css`p { margin: 0; }`;
  show = false;
  readonly extra = new LazyModuleController(this, loadExtra, { idle: false, styles: (m) => m.styles });

  override render() {
    const m = this.show ? this.extra.module : undefined;
    return litHtml`<p class="later">${m?.label ?? ''}</p>`;
  }
}
customElements.define('module-probe', ModuleProbe);

describe('ErrorPanelController', () => {
  it('renders nothing until the panel loads (on idle after connect), then the panel with role=alert', async () => {
    const el = await fixture<PanelProbe>(html`<panel-probe></panel-probe>`);
    const panel = await until(
      () => el.shadowRoot!.querySelector<HTMLElement>('[part~="error"]') ?? undefined,
      5_000,
      'the panel',
    );
    expect(el.renders, 'rendered again once the code was in').to.be.greaterThan(1);
    expect(panel.getAttribute('role')).to.equal('alert');
    expect(panel.dataset['reason']).to.equal('insufficient_credits');
    await expect(el).to.be.accessible();
  });
});

describe('LazyModuleController', () => {
  it('loads nothing until a render asks (idle: false), then renders again with it and adopts its styles', async () => {
    const el = await fixture<ModuleProbe>(html`<module-probe></module-probe>`);
    await new Promise((r) => setTimeout(r, 300));
    expect(loads, 'not asked: not loaded').to.equal(0);
    el.show = true;
    await el.updateComplete;
    const p = el.shadowRoot!.querySelector('p')!;
    await until(() => p.textContent === 'later view', 2_000, 'the module');
    expect(loads).to.equal(1);
    expect(getComputedStyle(p).color, "the module's styles").to.equal('rgb(1, 2, 3)');
    expect(getComputedStyle(p).marginTop, "the element's own styles stay").to.equal('0px');
    await expect(el).to.be.accessible();
  });

  it("keeps every lazily added sheet: two modules' styles and one added beside them (as field mode adds its own)", async () => {
    // The second module's styles used to replace what the root had adopted after the element's
    // own: an uploader in field mode lost the dialog's styles when its views loaded.
    class TwoModules extends LitElement {
      static override styles = css`p { margin: 0; }`;
      readonly a = new LazyModuleController(this, async () => ({ styles: css`.a { color: rgb(1, 2, 3); }` }), {
        idle: false,
        styles: (m) => m.styles,
      });
      readonly b = new LazyModuleController(this, async () => ({ styles: css`.b { color: rgb(4, 5, 6); }` }), {
        idle: false,
        styles: (m) => m.styles,
      });
      override render() {
        return litHtml`<p class="a">a</p><p class="b">b</p><p class="c">c</p>`;
      }
    }
    customElements.define('two-modules-probe', TwoModules);
    const el = await fixture<TwoModules>(html`<two-modules-probe></two-modules-probe>`);
    const root = el.shadowRoot!;
    const own = root.adoptedStyleSheets.length;
    const field = css`.c { color: rgb(7, 8, 9); }`;
    addStyles(root, field);
    addStyles(root, field);
    await el.a.load();
    await el.updateComplete;
    await el.b.load();
    await el.updateComplete;
    const color = (c: string) => getComputedStyle(root.querySelector(`.${c}`)!).color;
    expect([color('a'), color('b'), color('c')]).to.deep.equal(['rgb(1, 2, 3)', 'rgb(4, 5, 6)', 'rgb(7, 8, 9)']);
    expect(getComputedStyle(root.querySelector('p')!).marginTop, "the element's own").to.equal('0px');
    expect(root.adoptedStyleSheets.length - own, 'each added sheet once').to.equal(3);
  });

  it('tries again on the next render after a failed load', async () => {
    loads = 0;
    failNext = true;
    const el = await fixture<ModuleProbe>(html`<module-probe .show=${true}></module-probe>`);
    await until(() => loads === 1, 2_000, 'the first try');
    await new Promise((r) => setTimeout(r, 50));
    expect(el.shadowRoot!.querySelector('p')!.textContent).to.equal('');
    el.requestUpdate();
    await until(() => el.shadowRoot!.querySelector('p')!.textContent === 'later view', 2_000, 'the second try');
    expect(loads).to.equal(2);
  });
});
