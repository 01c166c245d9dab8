// README "The family's words": `capture` is one attribute, read by the file intake, on every product
// element the table marks; its input carries what the attribute (or the property) says.
import { expect, fixture } from '@open-wc/testing';
import { html as staticHtml, unsafeStatic } from 'lit/static-html.js';
import '../../src/define.js';
import { TAGS, VOCABULARY } from './shared/vocabulary.js';

const row = VOCABULARY.find((w) => w.kind === 'attribute' && w.word === 'capture')!;
const input = (el: Element) => el.shadowRoot!.querySelector<HTMLInputElement>('input[type="file"][data-intake]')!;

describe('`capture`: the camera through the file intake on every element that has it', function () {
  this.timeout(30_000);

  for (const tag of TAGS.filter((t) => row.on[t] === 'yes')) {
    it(`<${tag}>: the picker's input carries \`capture\` as set (attribute, then property), and none when unset`, async () => {
      const t = unsafeStatic(tag);
      const el = await fixture<HTMLElement & { capture?: string; updateComplete: Promise<boolean> }>(
        staticHtml`<${t} endpoint="/mediakit" keep="none" resume="none" capture="environment"></${t}>`,
      );
      await el.updateComplete;
      expect(input(el).getAttribute('capture')).to.equal('environment');
      el.capture = 'user';
      await el.updateComplete;
      expect(el.getAttribute('capture'), 'the property does not reflect').to.equal('environment');
      expect(input(el).getAttribute('capture')).to.equal('user');
      el.capture = undefined;
      await el.updateComplete;
      expect(input(el).hasAttribute('capture')).to.equal(false);
    });
  }
});
