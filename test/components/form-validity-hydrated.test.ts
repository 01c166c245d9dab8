/**
 * Constraint validation on the four product elements rendered on the server (@lit-labs/ssr,
 * declarative shadow DOM from the test server's /__test/ssr) and hydrated in the browser.
 */
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import '../../src/define.js';
import { expect } from '@open-wc/testing';
import { runFormValidityCases, type Control } from './shared/form-validity-cases.js';

const TAGS = ['bg-tool', 'headshot-studio', 'model-generator', 'video-to-3d-uploader'];
const errors: string[] = [];
window.addEventListener('error', (e) => errors.push(String(e.message)));

runFormValidityCases(
  TAGS,
  async (tag, parent, attrs = {}) => {
    const all = { endpoint: '/mediakit', ...attrs };
    const query = Object.entries(all)
      .map(([k, v]) => (v === '' ? k : `${k}="${v}"`))
      .join(' ');
    const r = await fetch(`/__test/ssr?tag=${tag}&attrs=${encodeURIComponent(query)}`);
    if (!r.ok) throw new Error(`server rendering ${tag}: ${r.status}`);
    const holder = document.createElement('div');
    parent.append(holder);
    // setHTMLUnsafe parses declarative shadow DOM: the element upgrades with its server-rendered root.
    (holder as HTMLElement & { setHTMLUnsafe(html: string): void }).setHTMLUnsafe(await r.text());
    const el = holder.querySelector(tag) as Control;
    expect(el.shadowRoot, 'the server-rendered shadow root').to.not.equal(null);
    await el.updateComplete;
    expect(errors, 'no hydration error').to.deep.equal([]);
    return el;
  },
  'server-rendered and hydrated',
);
