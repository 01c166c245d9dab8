/**
 * What every product element must do, checked the same way for all five: called in one line from
 * each element's test file (`runProductElementTests({ tag, ... })`), as Web Awesome's
 * `runFormControlBaseTests(tag)` is. Server rendering of every tag is checked in Node by
 * test/ssr/render.test.ts. The job elements add their reload and field-document contract
 * (job-element-contract.ts).
 */
import { expect, fixture } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { html as staticHtml, unsafeStatic } from 'lit/static-html.js';
import { languages } from '../../../src/translations/languages.js';
import { apiRequests } from '../../fixtures/asset-library.js';
import { until } from '../../fixtures/browser.js';
import { PHASES as BG_PHASES } from '../../../src/components/bg-tool/types.js';
import { PHASES as HEADSHOT_PHASES } from '../../../src/components/headshot-studio/types.js';
import { PHASES as MODEL_PHASES } from '../../../src/components/model-generator/types.js';
import { PHASES as UPLOADER_PHASES } from '../../../src/components/video-to-3d-uploader/types.js';
import { wordsOf, type Tag } from './vocabulary.js';

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
  /** The value's `kind` (README "Saving results"). */
  kind?: string;
  /** How many results `produce` commits (each fires one `change`): a headshot batch, then the choice. Default 1. */
  commits?: number;
  /** The custom state of a shown result. Default `succeeded`. */
  doneState?: string;
  /** The family's words (README "The family's words"), asserted where these are given: */
  vocabulary?: {
    /** A file the element takes (for `selectFile()`). */
    file: () => Promise<File>;
    /** Makes the element `ready` (a checked input). */
    prepare: (el: HTMLElement) => Promise<void>;
    /** Makes it `ready` with an input whose request takes seconds (a held-back answer, a big upload, a 429 to sit out). */
    slowly: (el: HTMLElement) => Promise<void>;
    /** Makes the next request (or its job) fail. */
    fail: () => Promise<void>;
    /** Waits for `status`, moving the sandbox clock where a job must run (default: waits). */
    reach?: (el: HTMLElement, status: string) => Promise<void>;
  };
}

/** Each product element's status words, as its code declares them. */
const DECLARED: Record<string, readonly string[]> = {
  'bg-tool': BG_PHASES,
  'headshot-studio': HEADSHOT_PHASES,
  'model-generator': MODEL_PHASES,
  'video-to-3d-uploader': UPLOADER_PHASES,
};

type Run = Status & { start(): Promise<void>; cancel(): void; selectFile(file: File): void };

/** What an element says while `start()` runs: each status it showed (polled), and its events in order. */
function watch(el: HTMLElement) {
  const seen: string[] = [];
  const events: { type: string; detail: Record<string, unknown> }[] = [];
  const poll = setInterval(() => {
    const s = (el as Status).status;
    if (seen.at(-1) !== s) seen.push(s);
  }, 5);
  const on = (e: Event) => events.push({ type: e.type, detail: (e as CustomEvent).detail });
  for (const type of ['mk-sent', 'mk-succeeded', 'mk-failed']) el.addEventListener(type, on);
  return {
    seen,
    events,
    types: () => events.map((e) => e.type),
    stop: () => clearInterval(poll),
  };
}

type Status = HTMLElement & { status: string; updateComplete: Promise<boolean> };
type ValueElement = Status & { value: string; result: unknown; formStateRestoreCallback(state: unknown): void };
type FieldElement = ValueElement & { expand(reason?: string): boolean; collapse(): void };
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
  // Field mode's code loads on first use.
  if (attrs.includes('appearance="field"'))
    await until(() => el.shadowRoot!.querySelector('[part~="field"]'), 5_000, 'the field');
  return { el, wrap };
}

/** Each element's value `kind` (README "Saving results"). */
const KINDS: Record<string, string> = {
  'bg-tool': 'background-removal',
  'headshot-studio': 'headshot',
  'model-generator': 'model',
  'video-to-3d-uploader': 'scene',
};

export function runProductElementTests(options: ContractOptions): void {
  const o = { kind: KINDS[options.tag], ...options };
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

    const vocabulary = o.vocabulary;
    if (vocabulary)
      describe("the family's words (README)", () => {
        const v = vocabulary;
        const tag = o.tag as Tag;
        const busy = wordsOf(tag, 'status').includes('sending') ? 'sending' : 'uploading';
        const reach = (el: HTMLElement, status: string) =>
          v.reach
            ? v.reach(el, status)
            : until(() => (el as Status).status === status, 60_000, `${status} (now ${(el as Status).status})`);

        it("declares the status words of the README's table, and has its methods", async () => {
          expect([...DECLARED[o.tag]!].sort()).to.deep.equal(wordsOf(tag, 'status').sort());
          const { el } = await mount(o);
          for (const method of wordsOf(tag, 'method'))
            expect(typeof (el as unknown as Record<string, unknown>)[method.replace(/\(.*$/, '')], method).to.equal(
              'function',
            );
        });

        it('selectFile(): fires the cancelable `mk-file-selected` (source `property`); a refused file changes nothing', async () => {
          const { el } = await mount(o);
          const file = await v.file();
          const refuse = (e: Event) => e.preventDefault();
          el.addEventListener('mk-file-selected', refuse, { once: true });
          (el as Run).selectFile(file);
          await new Promise((r) => setTimeout(r, 300));
          expect(el.status, 'a refused file').to.equal(o.idleState);
          const selected = new Promise<CustomEvent>((r) =>
            el.addEventListener('mk-file-selected', r as EventListener, { once: true }),
          );
          (el as Run).selectFile(file);
          const e = await selected;
          expect(e.detail).to.include({ file, source: 'property' });
          expect(e.cancelable).to.equal(true);
          await until(() => el.status === 'ready', 60_000, `ready (now ${el.status})`);
        });

        it(
          'a run: `ready` with a `primary-button`, then `' +
            busy +
            '`, `mk-sent` and `mk-succeeded` with one key, `succeeded` with a `download`',
          async () => {
            const { el } = await mount(o);
            await v.slowly(el);
            expect(el.status).to.equal('ready');
            const primary = el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="primary-button"]');
            expect(primary, 'the primary-button part').to.not.equal(null);
            expect(primary!.disabled).to.equal(false);
            const w = watch(el);
            primary!.click();
            await reach(el, o.doneState ?? 'succeeded');
            await until(() => w.types().includes('mk-succeeded'), 5_000, 'mk-succeeded');
            w.stop();
            expect(w.seen, 'the statuses shown').to.include(busy);
            expect(w.types()).to.deep.equal(['mk-sent', 'mk-succeeded']);
            const [sent, succeeded] = w.events;
            expect(sent!.detail['idempotencyKey']).to.be.a('string').and.not.equal('');
            expect(succeeded!.detail['idempotencyKey']).to.equal(sent!.detail['idempotencyKey']);
            await el.updateComplete;
            await until(() => el.shadowRoot!.querySelector('[part~="download"]'), 10_000, 'the download part');
          },
        );

        it('a failure: `mk-sent`, then `mk-failed` with the same key, `reason`, `params` and `refunded`; status `failed`', async () => {
          const { el } = await mount(o);
          await v.prepare(el);
          await v.fail();
          const w = watch(el);
          void (el as Run).start();
          await reach(el, 'failed');
          await until(() => w.types().includes('mk-failed'), 5_000, 'mk-failed');
          w.stop();
          expect(w.types()).to.deep.equal(['mk-sent', 'mk-failed']);
          const [sent, failed] = w.events;
          expect(failed!.detail['idempotencyKey']).to.equal(sent!.detail['idempotencyKey']);
          expect(failed!.detail['reason']).to.be.a('string').and.not.equal('');
          expect(failed!.detail['params']).to.be.an('object');
          expect(failed!.detail['refunded']).to.be.a('boolean');
        });

        it('cancel(): stops the request out, back to `ready`, with neither `mk-succeeded` nor `mk-failed`', async () => {
          const { el } = await mount(o);
          await v.slowly(el);
          const w = watch(el);
          void (el as Run).start();
          await until(() => el.status === busy, 10_000, `${busy} (now ${el.status})`);
          (el as Run).cancel();
          await until(() => el.status === 'ready', 10_000, `ready (now ${el.status})`);
          // Long enough for an answer the service held back to land (a cancel stops the waiting, not a call
          // already made upstream), so its charge never counts in the next test.
          await new Promise((r) => setTimeout(r, 2_500));
          w.stop();
          expect(w.types()).to.deep.equal(['mk-sent']);
          expect(el.status).to.equal('ready');
        });
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

    it('with a name, submits an empty entry until there is a result (as an empty input does); `required` makes the form invalid and says what to do', async () => {
      const { el, wrap } = await mount(o, 'name="field"');
      const form = document.createElement('form');
      wrap.append(form);
      form.append(el);
      await el.updateComplete;
      const f = el as FormElement;
      expect(new FormData(form).get('field')).to.equal('');
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

    it('field mode: a compact box; Create opens the whole element in a modal dialog (focus inside, axe clean), Escape closes it and gives the focus back', async () => {
      const { el } = await mount(o, 'appearance="field"');
      const sr = el.shadowRoot!;
      const box = sr.querySelector<HTMLElement>('[part~="field"]')!;
      expect(!!box, 'the field').to.equal(true);
      expect(box.getBoundingClientRect().height).to.be.within(40, 200);
      expect(sr.querySelector('[part~="field-status"]')!.textContent).to.contain('Nothing made yet.');
      const regions = sr.querySelectorAll('[aria-live="polite"]');
      expect(regions.length, 'one polite region').to.equal(1);
      expect(regions[0]!.closest('dialog'), 'the region is outside the dialog').to.equal(null);
      await expect(el).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
      const dialog = sr.querySelector('dialog')!;
      expect(dialog.open).to.equal(false);
      const create = sr.querySelector<HTMLButtonElement>('[part~="field-create"]')!;
      const asked: CustomEvent[] = [];
      el.addEventListener('mk-expand-requested', (e) => asked.push(e as CustomEvent));
      create.focus();
      await sendKeys({ press: 'Enter' });
      await until(() => dialog.open, 2_000, 'the dialog opens');
      expect(asked.map((e) => e.detail.reason)).to.deep.equal(['create']);
      expect(dialog.contains(sr.activeElement), 'the focus is in the dialog').to.equal(true);
      expect(!!dialog.querySelector('[part~="base"]'), 'the whole element is in it').to.equal(true);
      expect(dialog.getAttribute('aria-labelledby')).to.equal('title');
      await el.updateComplete;
      // Outside the modal dialog the page is inert, a live region too: it moves into the dialog.
      const inside = sr.querySelectorAll('[aria-live="polite"]');
      expect(inside.length, 'one polite region while open').to.equal(1);
      expect(dialog.contains(inside[0]!), 'the region is in the open dialog').to.equal(true);
      await expect(el).to.be.accessible({ ignoredRules: ['color-contrast'] as never });
      await sendKeys({ press: 'Escape' });
      await until(() => !dialog.open, 2_000, 'Escape closes it');
      await until(() => sr.activeElement === create, 2_000, 'the focus back on Create');
      expect(sr.querySelector('[aria-live="polite"]')!.closest('dialog'), 'the region back outside').to.equal(null);
    });

    it('field mode: `required` says what to do, and a disabled fieldset disables its buttons', async () => {
      const { el, wrap } = await mount(o, 'appearance="field" name="field" required');
      const form = document.createElement('form');
      const fieldset = document.createElement('fieldset');
      form.append(fieldset);
      wrap.append(form);
      fieldset.append(el);
      await el.updateComplete;
      const sr = el.shadowRoot!;
      expect(form.checkValidity()).to.equal(false);
      expect((el as unknown as FormElement).validationMessage.length).to.be.greaterThan(10);
      fieldset.disabled = true;
      await until(() => el.matches(':disabled'), 2_000, ':disabled');
      await el.updateComplete;
      expect(sr.querySelector<HTMLButtonElement>('[part~="field-create"]')!.disabled).to.equal(true);
    });

    it('field mode: a host that cancels `mk-expand-requested` shows the element in its own modal: nothing opens here', async () => {
      const { el, wrap } = await mount(o, 'appearance="field"');
      const reasons: string[] = [];
      wrap.addEventListener('mk-expand-requested', (e) => {
        e.preventDefault();
        reasons.push((e as CustomEvent).detail.reason);
      });
      el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="field-create"]')!.click();
      await el.updateComplete;
      expect(reasons).to.deep.equal(['create']);
      expect(el.shadowRoot!.querySelector('dialog')!.open).to.equal(false);
      expect((el as unknown as FieldElement).expand('create')).to.equal(false);
    });

    if (!o.produce) return;

    it('field mode: a result made in the dialog shows in the field; Open shows it; Replace then Escape keeps it; Remove clears it with one `change`; a saved value shows with no API call', async () => {
      const { el } = await mount(o, 'appearance="field"');
      const f = el as unknown as FieldElement;
      const sr = el.shadowRoot!;
      const dialog = sr.querySelector('dialog')!;
      const part = (name: string) => sr.querySelector<HTMLElement>(`[part~="${name}"]`);
      expect(f.expand('create')).to.equal(true);
      const changes: string[] = [];
      el.addEventListener('change', () => changes.push(f.value));
      await o.produce!(el);
      await until(() => changes.length >= (o.commits ?? 1), 120_000, '`change`');
      expect(dialog.open, 'the dialog stays open on the result').to.equal(true);
      part('dialog-close')!.click();
      await until(() => !dialog.open, 2_000, 'Done closes it');
      await el.updateComplete;
      const saved = f.value;
      expect(part('field-status')!.textContent).to.contain('Saved.');
      expect(part('field-detail')!.textContent!.trim().length, 'what made it').to.be.greaterThan(0);
      const preview = part('field-preview') as HTMLImageElement | null;
      if (o.kind !== 'scene') {
        expect(!!preview, 'a picture of the result').to.equal(true);
        await until(() => preview!.complete && preview!.naturalWidth > 0, 10_000, 'the preview loads');
        expect(preview!.src).to.not.match(/^blob:|^data:/);
      }
      expect(part('field')!.getBoundingClientRect().height).to.be.at.most(200);
      await expect(el).to.be.accessible({ ignoredRules: ['color-contrast'] as never });

      // Open: the result again, in the dialog.
      part('field-open')!.click();
      await until(() => dialog.open, 2_000, 'Open');
      await el.updateComplete;
      expect(el.status).to.equal(o.doneState ?? 'succeeded');
      f.collapse();
      await until(() => !dialog.open, 2_000, 'collapse()');

      // Replace, then Escape with nothing new: the value comes back, no event, the focus on Open.
      f.value = saved; // a host that caught up (as a framework binding does)
      changes.length = 0;
      part('field-replace')!.focus();
      await sendKeys({ press: 'Enter' });
      await until(() => dialog.open, 2_000, 'Replace');
      expect(el.status, 'the tool starts over').to.equal(o.idleState);
      // Until something new is made, the saved value stays the value (a document saved now keeps it).
      expect(f.value, 'the saved value stays').to.equal(saved);
      expect(part('field-status')!.textContent).to.not.contain('Nothing made yet.');
      f.value = saved; // the host renders again with its (old) value: the Replace stands
      await el.updateComplete;
      expect(el.status, 'Replace is not undone by the host').to.equal(o.idleState);
      await sendKeys({ press: 'Escape' });
      await until(() => !dialog.open, 2_000, 'Escape');
      await until(() => f.value === saved, 10_000, 'the old value back');
      expect(changes).to.deep.equal([]);
      await until(() => sr.activeElement === part('field-open'), 2_000, 'the focus on Open');

      // Remove: one `change`, no value, Create again, with the focus on it.
      part('field-remove')!.focus();
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      expect(changes).to.deep.equal(['']);
      expect(f.value).to.equal('');
      expect(!!part('field-create'), 'Create again').to.equal(true);
      await until(() => sr.activeElement === part('field-create'), 2_000, 'the focus on Create');

      // The saved value on a new field (a CMS form opened again): shown with no API call.
      const api = () => apiRequests(o.endpoint);
      const before = api();
      const { el: again } = await mount(o, 'appearance="field"');
      (again as unknown as FieldElement).value = saved;
      await again.updateComplete;
      const sr2 = again.shadowRoot!;
      expect(sr2.querySelector('[part~="field-status"]')!.textContent).to.contain('Saved.');
      if (o.kind !== 'scene') {
        const img = sr2.querySelector<HTMLImageElement>('[part~="field-preview"]')!;
        await until(() => img.complete && img.naturalWidth > 0, 10_000, 'the preview of the saved value');
        const kept = [...saved.matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]);
        expect(kept, 'a kept file of the value').to.include(img.getAttribute('src'));
      }
      await new Promise((r) => setTimeout(r, 500));
      expect(api(), 'requests to the API').to.equal(before);
    });

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
      expect(new FormData(form).get('field')).to.equal('');
      await el.updateComplete;
      expect(el.status).to.equal(o.idleState);
      expect(form.checkValidity()).to.equal(false);
    });
    it('refuses an invalid value with a console warning that names what is wrong, and stays as it was', async () => {
      const { el } = await mount(o);
      const v = el as unknown as ValueElement;
      const warnings: string[] = [];
      const warn = console.warn;
      console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
      try {
        const base = { v: 1, kind: o.kind, status: 'succeeded', created: new Date().toISOString() };
        const asset = { url: '/kept/x.bin', type: 'application/octet-stream', bytes: 3 };
        const cases: [unknown, RegExp][] = [
          ['{not json', /not JSON/],
          [JSON.stringify({ ...base, v: 2, asset }), /"v" must be 1/],
          [JSON.stringify({ ...base, kind: 'other', asset }), /"kind" must be/],
          [JSON.stringify({ ...base, status: 'done', asset }), /"status"/],
          [JSON.stringify({ ...base, asset: { ...asset, url: 'javascript:alert(1)' } }), /asset\.url/],
          [JSON.stringify({ ...base, asset: { ...asset, url: 'blob:' + location.origin + '/x' } }), /asset\.url/],
          [JSON.stringify({ ...base, status: 'running', asset: null }), /"job"/],
        ];
        for (const [value, problem] of cases) {
          warnings.length = 0;
          v.value = value as string;
          await el.updateComplete;
          expect(warnings.join('\n'), String(value).slice(0, 60)).to.match(problem);
          expect(v.value).to.equal('');
          expect(el.status).to.equal(o.idleState);
        }
      } finally {
        console.warn = warn;
      }
    });

    it('has a versioned JSON value once a result is made: `result` is the same object, `change` fires once, the form submits it, and a new element shows it with no API call', async () => {
      const { el, wrap } = await mount(o, 'name="field"');
      const v = el as unknown as ValueElement;
      const form = document.createElement('form');
      wrap.append(form);
      form.append(el);
      const seen: Event[] = [];
      // On an ancestor: the events bubble out of the element, as an input's do.
      wrap.addEventListener('change', (e) => seen.push(e));
      expect(v.value).to.equal('');
      await o.produce!(el);
      const commits = o.commits ?? 1;
      await until(() => seen.length >= commits, 120_000, '`change` after the result is kept');
      await new Promise((r) => setTimeout(r, 400));
      expect(seen.length, '`change` fires once per committed result').to.equal(commits);
      expect(seen[0]!.composed).to.equal(true);
      const value = JSON.parse(v.value) as Record<string, unknown>;
      expect(value).to.include({ v: 1, kind: o.kind, status: 'succeeded' });
      expect(Number.isNaN(Date.parse(String(value['created'])))).to.equal(false);
      expect(v.result).to.deep.equal(value);
      // The stack keeps results: the value names a file that lasts, never a link that expires.
      const asset = value['asset'] as { url: string; bytes: number } | null;
      expect(asset, 'a kept asset').to.not.equal(null);
      expect(asset!.url).to.match(new RegExp(`^${o.endpoint}/results/`));
      expect(asset!.bytes).to.be.greaterThan(0);
      expect(v.value).to.not.match(/blob:|data:|\/files\//);
      const submitted = new FormData(form).get('field');
      expect(submitted).to.equal(v.value);

      const api = () => apiRequests(o.endpoint);
      const before = api();
      const { el: again } = await mount(o);
      (again as unknown as ValueElement).value = v.value;
      const done = o.doneState ?? 'succeeded';
      await until(() => again.matches(`:state(${done})`), 30_000, `the restored result (:state(${done}))`);
      await new Promise((r) => setTimeout(r, 500));
      expect(api(), 'requests to the API while restoring').to.equal(before);
      expect((again as unknown as ValueElement).value).to.equal(v.value);

      // Back/forward: the browser hands the saved state back.
      const { el: third } = await mount(o);
      (third as unknown as ValueElement).formStateRestoreCallback(v.value);
      await until(() => third.matches(`:state(${done})`), 30_000, 'restored by formStateRestoreCallback');
    });
  });
}
