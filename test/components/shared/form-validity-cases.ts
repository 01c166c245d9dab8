/**
 * Constraint validation on every product element, the cases Web Awesome runs on each form control
 * (`runFormControlBaseTests`: validity, validationMessage, checkValidity, reportValidity,
 * setCustomValidity, disabled, the form attribute) plus `willValidate`, `labels` and `required`.
 * Run once on elements made in the browser (form-validity.test.ts) and once on server-rendered,
 * hydrated ones (form-validity-hydrated.test.ts).
 */
import { expect } from '@open-wc/testing';

export type Control = HTMLElement & {
  name: string;
  required: boolean;
  disabled: boolean;
  readonly form: HTMLFormElement | null;
  readonly labels: NodeList;
  readonly validity: ValidityState;
  readonly validationMessage: string;
  readonly willValidate: boolean;
  checkValidity(): boolean;
  reportValidity(): boolean;
  setCustomValidity(message: string): void;
  requestUpdate(): void;
  updateComplete: Promise<boolean>;
};

/** Puts a fresh `tag` with `attrs` into `parent` and resolves once it has rendered. */
export type Create = (tag: string, parent: HTMLElement, attrs?: Record<string, string>) => Promise<Control>;

const area = () => {
  const div = document.createElement('div');
  document.body.append(div);
  return div;
};

function invalidEvents(el: HTMLElement): () => number {
  let n = 0;
  el.addEventListener('invalid', () => n++);
  return () => n;
}

export function runFormValidityCases(tags: readonly string[], create: Create, variant: string): void {
  for (const tag of tags) {
    describe(`<${tag}> (${variant}): constraint validation`, function () {
      this.timeout(30_000);
      let box: HTMLElement;
      beforeEach(() => (box = area()));
      afterEach(() => box.remove());

      it('has validity, validationMessage, willValidate, labels, checkValidity, reportValidity and setCustomValidity', async () => {
        const el = await create(tag, box, { name: 'f' });
        expect(el.validity).to.be.an.instanceof(ValidityState);
        expect(el.validationMessage).to.be.a('string');
        expect(el.willValidate).to.equal(true);
        expect(el.labels).to.be.an.instanceof(NodeList);
        for (const m of ['checkValidity', 'reportValidity', 'setCustomValidity'] as const)
          expect(el[m]).to.be.a('function');
      });

      it('is valid at first: checkValidity() and reportValidity() answer true and fire no `invalid`', async () => {
        const el = await create(tag, box, { name: 'f' });
        const invalid = invalidEvents(el);
        expect(el.validity.valid).to.equal(true);
        expect(el.checkValidity()).to.equal(true);
        expect(el.reportValidity()).to.equal(true);
        expect(invalid()).to.equal(0);
      });

      it('setCustomValidity(message) makes it invalid with that message (customError) and fires `invalid`; "" clears it', async () => {
        const form = document.createElement('form');
        box.append(form);
        const el = await create(tag, form, { name: 'f' });
        const invalid = invalidEvents(el);
        el.setCustomValidity('Pick the brighter photo first.');
        expect(el.validity.valid).to.equal(false);
        expect(el.validity.customError).to.equal(true);
        expect(el.validationMessage).to.equal('Pick the brighter photo first.');
        expect(el.checkValidity()).to.equal(false);
        expect(form.checkValidity()).to.equal(false);
        expect(invalid()).to.equal(2);
        // It stays through a render, as a native input's does.
        el.requestUpdate();
        await el.updateComplete;
        expect(el.validity.customError).to.equal(true);
        el.setCustomValidity('');
        expect(el.validity.valid).to.equal(true);
        expect(el.validationMessage).to.equal('');
        expect(form.checkValidity()).to.equal(true);
      });

      it('a custom message wins over `required`, and `required` comes back once it is cleared', async () => {
        const el = await create(tag, box, { name: 'f', required: '' });
        expect(el.validity.valueMissing).to.equal(true);
        const missing = el.validationMessage;
        expect(missing.length).to.be.greaterThan(10);
        el.setCustomValidity('Not this one.');
        expect(el.validity.customError).to.equal(true);
        expect(el.validationMessage).to.equal('Not this one.');
        el.setCustomValidity('');
        expect(el.validity.valueMissing).to.equal(true);
        expect(el.validationMessage).to.equal(missing);
      });

      it('disabled: willValidate is false, checkValidity() answers true and fires no `invalid`, even with a custom error', async () => {
        const el = await create(tag, box, { name: 'f', disabled: '' });
        const invalid = invalidEvents(el);
        el.setCustomValidity('error');
        expect(el.willValidate).to.equal(false);
        expect(el.checkValidity()).to.equal(true);
        expect(invalid()).to.equal(0);
        el.disabled = false;
        await el.updateComplete;
        expect(el.willValidate).to.equal(true);
        expect(el.checkValidity()).to.equal(false);
      });

      it('finds its form by the `form` attribute, and takes its name from `<label for>`', async () => {
        const form = document.createElement('form');
        form.id = `form-${tag}`;
        const label = document.createElement('label');
        label.htmlFor = `control-${tag}`;
        label.textContent = 'Product picture';
        box.append(form, label);
        const el = await create(tag, box, { name: 'f', form: form.id, id: `control-${tag}`, required: '' });
        expect(el.form).to.equal(form);
        expect(form.checkValidity()).to.equal(false);
        expect([...el.labels]).to.deep.equal([label]);
      });
    });
  }
}
