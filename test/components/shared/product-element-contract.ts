/**
 * What every product element must do, checked the same way for all five: called in one line from
 * each element's test file (`runProductElementTests({ tag, ... })`), as Web Awesome's
 * `runFormControlBaseTests(tag)` is. Server rendering of every tag is checked in Node by
 * test/ssr/render.test.ts.
 */
import { expect, fixture } from '@open-wc/testing';
import { html as staticHtml, unsafeStatic } from 'lit/static-html.js';
import { languages } from '../../../src/translations/languages.js';
import { until } from '../../fixtures/browser.js';

export interface ContractOptions {
  tag: string;
  /** The proxy the element talks to in the test stack. */
  endpoint: string;
  /** The custom state (and `status`) of a fresh element. */
  idleState: string;
  /** Whether the element takes part in forms (every product element but `<credit-badge>`). */
  form?: boolean;
  /** Makes a result the element submits (a real job through the sandbox). */
  produce?: (el: HTMLElement) => Promise<void>;
}

type Status = HTMLElement & { status: string; updateComplete: Promise<boolean> };
type FormElement = Status & { validity: ValidityState; validationMessage: string; checkValidity(): boolean };

const root = (el: Element) => el.shadowRoot!.querySelector<HTMLElement>('[lang]')!;
/** What a person reads in the element (its shadow root's text, spaces collapsed). */
const text = (el: Element) => (el.shadowRoot!.textContent ?? '').replace(/\s+/g, ' ').trim();

async function mount(o: ContractOptions, attrs = '', wrapper = ''): Promise<{ el: Status; wrap: HTMLElement }> {
  const tag = unsafeStatic(o.tag);
  const wrap = await fixture<HTMLElement>(
    staticHtml`<div ${unsafeStatic(wrapper)}><${tag} endpoint=${o.endpoint} ${unsafeStatic(attrs)}></${tag}></div>`,
  );
  const el = wrap.querySelector<Status>(o.tag)!;
  await el.updateComplete;
  return { el, wrap };
}

export function runProductElementTests(o: ContractOptions): void {
  describe(`<${o.tag}>: the product-element contract`, function () {
    this.timeout(90_000);

    it('starts in its idle state: `status` and exactly that custom state', async () => {
      const { el } = await mount(o);
      await until(() => el.status === o.idleState, 5_000, `status ${o.idleState} (now ${el.status})`);
      expect(el.matches(`:state(${o.idleState})`)).to.equal(true);
      for (const other of ['working', 'succeeded', 'failed', 'uploading', 'processing', 'error']) {
        if (other !== o.idleState) expect(el.matches(`:state(${other})`), `:state(${other})`).to.equal(false);
      }
    });

    it('follows the closest [lang] (de-AT falls back to de) and changes language live', async () => {
      const { el, wrap } = await mount(o, '', 'lang="en"');
      await until(() => text(el).length > 0, 5_000, 'English text');
      const english = text(el);
      wrap.setAttribute('lang', 'de-AT');
      await until(() => root(el).lang === 'de', 5_000, 'German strings');
      await el.updateComplete;
      expect(text(el)).to.not.equal(english);
      wrap.setAttribute('lang', 'en');
      await until(() => root(el).lang === 'en', 5_000, 'back to English');
      await el.updateComplete;
      expect(text(el)).to.equal(english);
    });

    it('speaks every shipped language, and lays Arabic out right to left without being told', async () => {
      const { el, wrap } = await mount(o, '', 'lang="en"');
      await until(() => text(el).length > 0, 5_000, 'English text');
      const english = text(el);
      for (const code of Object.keys(languages)) {
        wrap.setAttribute('lang', code);
        await until(() => root(el).lang.toLowerCase() === code, 5_000, `${code} strings`);
        await el.updateComplete;
        expect(text(el), code).to.not.equal(english);
        expect(text(el), code).to.not.match(/undefined|NaN|\[object /);
      }
      wrap.setAttribute('lang', 'ar');
      await until(() => root(el).lang === 'ar', 5_000, 'Arabic');
      expect(root(el).dir).to.equal('rtl');
    });

    it('has no serious or critical axe violations when idle, in English and in Arabic', async () => {
      const { el, wrap } = await mount(o);
      await expect(el).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
      wrap.setAttribute('lang', 'ar');
      await until(() => root(el).lang === 'ar', 5_000, 'Arabic');
      await expect(el).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
    });

    if (o.form === false) return;

    it('with a name, submits nothing until there is a result; `required` makes the form invalid and says what to do', async () => {
      const { el, wrap } = await mount(o, 'name="field"');
      const form = document.createElement('form');
      wrap.append(form);
      form.append(el);
      await el.updateComplete;
      const f = el as FormElement;
      expect([...new FormData(form).keys()]).to.not.include('field');
      expect(form.checkValidity()).to.equal(true);
      el.setAttribute('required', '');
      // The validity follows the attribute at once, before the element renders again.
      expect(f.validity.valueMissing).to.equal(true);
      expect(form.checkValidity()).to.equal(false);
      expect(f.validationMessage.length).to.be.greaterThan(10);
      el.removeAttribute('required');
      expect(form.checkValidity()).to.equal(true);
    });

    it('is disabled by a disabled fieldset: no control inside can be used', async () => {
      const { el, wrap } = await mount(o, 'name="field"');
      const form = document.createElement('form');
      const fieldset = document.createElement('fieldset');
      form.append(fieldset);
      wrap.append(form);
      fieldset.append(el);
      await el.updateComplete;
      const enabled = () =>
        [
          ...el.shadowRoot!.querySelectorAll<HTMLButtonElement | HTMLInputElement>(
            'button, input:not([hidden]), select, textarea',
          ),
        ].filter((c) => !c.disabled);
      expect(enabled().length, 'some control is enabled before').to.be.greaterThan(0);
      fieldset.disabled = true;
      await until(() => el.matches(':disabled'), 2_000, ':disabled');
      await el.updateComplete;
      expect(enabled().map((c) => c.outerHTML.slice(0, 80))).to.deep.equal([]);
      fieldset.disabled = false;
      await el.updateComplete;
      expect(enabled().length).to.be.greaterThan(0);
    });

    if (!o.produce) return;

    it('submits its result synchronously once made, and a form reset clears it back to idle', async () => {
      const { el, wrap } = await mount(o, 'name="field" required');
      const form = document.createElement('form');
      wrap.append(form);
      form.append(el);
      await el.updateComplete;
      await o.produce!(el);
      expect(form.checkValidity()).to.equal(true);
      expect([...new FormData(form).keys()]).to.include('field');
      form.reset();
      // The form value is cleared with the reset itself, not on the next render.
      expect([...new FormData(form).keys()]).to.not.include('field');
      await el.updateComplete;
      expect(el.status).to.equal(o.idleState);
      expect(form.checkValidity()).to.equal(false);
    });
  });
}
