import { expect, fixture, html } from '@open-wc/testing';
import '../../src/viewers/glb-viewer/define.js';
import '../../src/viewers/splat-viewer/define.js';
import { until } from '../fixtures/browser.js';

describe('viewers: their words in the page language', () => {
  it('speak German under the closest lang="de"', async () => {
    const wrap = await fixture(
      html`<div lang="de"><glb-viewer loading="eager"></glb-viewer><splat-viewer></splat-viewer></div>`,
    );
    const [glb, splat] = [wrap.querySelector('glb-viewer')!, wrap.querySelector('splat-viewer')!];
    await until(() => glb.shadowRoot!.textContent!.includes('Noch kein Modell'), 5_000, 'the German empty hint');
    expect(splat.shadowRoot!.textContent).to.contain('Noch keine Szene');
    expect(glb.shadowRoot!.querySelector('canvas')!.getAttribute('aria-label')).to.contain('Pfeiltasten');
    glb.src = '/no-such-model.glb';
    await until(() => glb.shadowRoot!.querySelector('[part~="error"]'), 20_000, 'the error');
    expect(glb.shadowRoot!.querySelector('[part~="error"]')!.textContent).to.contain('Server antwortete 404');
  });

  it('keep the detailed English message in English', async () => {
    const el = await fixture<HTMLElement & { src: string }>(html`<glb-viewer loading="eager" lang="en"></glb-viewer>`);
    expect(el.shadowRoot!.textContent).to.contain('No model yet');
    el.src = '/no-such-model.glb';
    await until(() => el.shadowRoot!.querySelector('[part~="error"]'), 20_000, 'the error');
    expect(el.shadowRoot!.querySelector('[part~="error"]')!.textContent).to.contain('server answered 404');
  });
});
