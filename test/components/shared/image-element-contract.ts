/**
 * What the image elements (<bg-tool>, <headshot-studio>) do alike, checked the same way for both:
 * called in one line from each element's test file (`runImageElementTests({ tag, ... })`), beside
 * the product-element contract. The keyboard journey from a pasted image to the result, focus
 * that stays with a user working elsewhere on the page, and the camera through the file intake
 * (`capture` on the intake's input; what the camera takes meets the same checks as a picked file).
 */
import { expect, fixture } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { html as staticHtml, unsafeStatic } from 'lit/static-html.js';
import { until } from '../../fixtures/browser.js';

type ImageElement = HTMLElement & {
  status: string;
  updateComplete: Promise<boolean>;
  capture: string | undefined;
  selectFile(file: File): void;
  start(): Promise<void>;
};

export interface ImageElementOptions {
  tag: 'bg-tool' | 'headshot-studio';
  /** The proxy the element talks to in the test stack. */
  endpoint: string;
  /** Attributes every element here gets (`keep="none"`: no keeping request where the file's runs count them). */
  attrs?: string;
  /** An image the element takes. */
  image: () => Promise<File>;
  /** The heading focus moves to once the result is in (`.result-title`, `.results-title`). */
  resultHeading: string;
  /** The part the first Tab after that heading reaches (`role=slider`, `choose-result`). */
  afterHeading: (active: Element | null) => void;
  /** The rest of the journey, by keyboard, from there (the slider to its end and the download; choosing the headshot). */
  finish: (el: ImageElement, active: () => Element | null) => Promise<void>;
}

const cut = (el: Element) => el.shadowRoot!;
const q = <T extends Element = HTMLElement>(el: Element, sel: string): T | undefined =>
  cut(el).querySelector<T>(sel) ?? undefined;

/** Waits until the element shows a result (or a failure). */
async function done(el: ImageElement): Promise<void> {
  await el.updateComplete;
  await until(() => !['idle', 'ready', 'sending'].includes(el.status), 30_000, `the result (now ${el.status})`);
  await el.updateComplete;
}

/** `files` as an `<input type=file>` gets them from the picker or the phone's camera: set, then `change`. */
function take(input: HTMLInputElement, files: File[]): void {
  const data = new DataTransfer();
  for (const f of files) data.items.add(f);
  input.files = data.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

export function runImageElementTests(o: ImageElementOptions): void {
  const tag = unsafeStatic(o.tag);
  const mount = async (attrs = '') => {
    const wrap = await fixture<HTMLElement>(
      staticHtml`<div><input aria-label="elsewhere" /><${tag} endpoint=${o.endpoint} ${unsafeStatic(`${o.attrs ?? ''} ${attrs}`)}></${tag}></div>`,
    );
    const el = wrap.querySelector<ImageElement>(o.tag)!;
    await el.updateComplete;
    return { el, other: wrap.querySelector('input')! };
  };

  describe(`<${o.tag}>: the image-element contract`, function () {
    this.timeout(60_000);

    it('goes from a pasted image to the result by keyboard alone', async () => {
      const { el } = await mount();
      q(el, '[part~="choose-button"]')!.focus();
      const data = new DataTransfer();
      data.items.add(await o.image());
      q(el, '[part~="choose-button"]')!.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, composed: true }),
      );
      await until(() => el.status === 'ready', 10_000, 'ready');
      await until(() => cut(el).activeElement === q(el, '[part~="primary-button"]'), 2_000, 'focus on the main button');
      await sendKeys({ press: 'Enter' });
      await done(el);
      expect(el.status).to.equal('succeeded');
      await until(() => cut(el).activeElement?.matches(o.resultHeading), 3_000, 'focus on the result');
      await sendKeys({ press: 'Tab' });
      o.afterHeading(cut(el).activeElement);
      await o.finish(el, () => cut(el).activeElement);
    });

    it('moves focus only for a user working inside it: a result that lands while they are elsewhere leaves their focus', async () => {
      const { el, other } = await mount();
      other.focus();
      el.selectFile(await o.image());
      await until(() => el.status === 'ready', 10_000, 'ready');
      void el.start();
      await done(el);
      await new Promise((r) => setTimeout(r, 100));
      await el.updateComplete;
      expect(el.status).to.equal('succeeded');
      // Compared as a boolean: a failing comparison of two elements would make the runner serialize the DOM.
      expect(
        document.activeElement === other,
        `focus stays in the input (now ${document.activeElement?.localName})`,
      ).to.equal(true);
      expect(cut(el).activeElement === null, 'nothing inside the element has focus').to.equal(true);
    });

    it("`capture` (attribute and property) is the file input's `capture`: the picker opens the phone's camera", async () => {
      const { el } = await mount('capture="user"');
      const input = () => q<HTMLInputElement>(el, 'input[type="file"][data-intake]')!;
      expect(el.capture).to.equal('user');
      expect(input().getAttribute('capture')).to.equal('user');
      el.capture = 'environment';
      await el.updateComplete;
      expect(input().getAttribute('capture')).to.equal('environment');
      el.removeAttribute('capture');
      await el.updateComplete;
      expect(input().hasAttribute('capture')).to.equal(false);
    });

    it('what the camera takes goes the way of a chosen file: `mk-file-selected` (source `camera`, a veto refuses it), then the same checks', async () => {
      const { el } = await mount('capture="environment"');
      const input = q<HTMLInputElement>(el, 'input[type="file"][data-intake]')!;
      const sources: string[] = [];
      el.addEventListener('mk-file-selected', (e) => sources.push((e as CustomEvent).detail.source));
      // A veto: nothing happens.
      el.addEventListener('mk-file-selected', (e) => e.preventDefault(), { once: true });
      take(input, [await o.image()]);
      await new Promise((r) => setTimeout(r, 300));
      expect(el.status, 'a vetoed photo').to.equal('idle');
      // Not an image: refused by the check a picked file meets, with its error panel.
      take(input, [new File(['not a photo at all'], 'camera.jpg', { type: 'image/jpeg' })]);
      const panel = await until(() => q<HTMLElement>(el, '[part~="error"]'), 10_000, 'the refusal');
      expect(panel.dataset['reason']).to.equal('not_image');
      expect(el.status).to.equal('idle');
      // An image: checked and ready.
      take(q<HTMLInputElement>(el, 'input[type="file"][data-intake]') ?? input, [await o.image()]);
      await until(() => el.status === 'ready', 10_000, `ready (now ${el.status})`);
      expect(sources).to.deep.equal(['camera', 'camera', 'camera']);
    });
  });
}
