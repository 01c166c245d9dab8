/** Constraint validation on the four product elements made in the browser (shared/form-validity-cases.ts). */
import { expect } from '@open-wc/testing';
import '../../src/define.js';
import { runFormValidityCases, type Control } from './shared/form-validity-cases.js';

const TAGS = ['bg-tool', 'headshot-studio', 'model-generator', 'video-to-3d-uploader'];

runFormValidityCases(
  TAGS,
  async (tag, parent, attrs = {}) => {
    const el = document.createElement(tag) as Control;
    el.setAttribute('endpoint', '/mediakit');
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    parent.append(el);
    await el.updateComplete;
    return el;
  },
  'made in the browser',
);

describe('form value errors', () => {
  it('a value that cannot be built is reported (window error), not swallowed', async () => {
    const el = document.createElement('bg-tool') as unknown as Control & { formValue(): unknown };
    el.setAttribute('name', 'f');
    document.body.append(el);
    await el.updateComplete;
    const seen: unknown[] = [];
    const mochaHandler = window.onerror;
    window.onerror = null; // mocha would fail the test on the error this test expects
    const onError = (e: ErrorEvent) => (seen.push(e.error), e.preventDefault());
    window.addEventListener('error', onError);
    try {
      el.formValue = () => {
        throw new Error('the value broke');
      };
      el.requestUpdate();
    } finally {
      // The element's own value comes back before the handlers do: a later update (a lazy part
      // loading) must not meet the broken one.
      delete (el as { formValue?: unknown }).formValue;
      el.remove();
      window.removeEventListener('error', onError);
      window.onerror = mochaHandler;
    }
    expect(seen.map((e) => (e as Error).message)).to.deep.equal(['the value broke']);
  });
});
