/**
 * renderProgress in a real element with the kit's styles: role=progressbar with its value and a
 * spoken value text, the indeterminate bar when the amount is unknown (no aria-valuenow), the
 * `part="progress"` and `.meter` classes the styles draw, and the fill's width through CSSOM.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { renderProgress } from '../../../src/components/shared/progress.js';
import { elementStyles } from '../../../src/components/shared/styles.js';

class ProgressProbe extends LitElement {
  static override styles = elementStyles;
  static override properties = { fraction: { type: Number }, text: {} };
  fraction: number | undefined = 0.4;
  text = 'Uploading: 40 %, 2 MB of 5 MB';

  override render() {
    return renderProgress(this.fraction, this.text);
  }
}
customElements.define('progress-probe', ProgressProbe);

const bar = (el: Element) => el.shadowRoot!.querySelector<HTMLElement>('[part="progress"]')!;
const fill = (el: Element) => bar(el).firstElementChild as HTMLElement;

describe('renderProgress', () => {
  it('draws a determinate bar: its value, what is said, its name, and the fill at that width', async () => {
    const el = await fixture<ProgressProbe>(html`<progress-probe style="inline-size: 500px"></progress-probe>`);
    const b = bar(el);
    expect(b.getAttribute('role')).to.equal('progressbar');
    expect(b.getAttribute('aria-valuenow')).to.equal('40');
    expect(b.getAttribute('aria-valuemin')).to.equal('0');
    expect(b.getAttribute('aria-valuemax')).to.equal('100');
    expect(b.getAttribute('aria-valuetext')).to.equal('Uploading: 40 %, 2 MB of 5 MB');
    expect(b.getAttribute('aria-label'), 'named by the text before its colon').to.equal('Uploading');
    expect(b.classList.contains('meter')).to.equal(true);
    expect(b.classList.contains('indeterminate')).to.equal(false);
    expect(fill(el).hasAttribute('style') && fill(el).getAttribute('style')!.includes('inline-size: 40%')).to.equal(
      true,
    );
    expect(fill(el).getBoundingClientRect().width / b.clientWidth).to.be.closeTo(0.4, 0.02);
    await expect(el).to.be.accessible();
  });

  it('clamps the value to 0..100', async () => {
    const el = await fixture<ProgressProbe>(html`<progress-probe .fraction=${1.7}></progress-probe>`);
    expect(bar(el).getAttribute('aria-valuenow')).to.equal('100');
    el.fraction = -1;
    await el.updateComplete;
    expect(bar(el).getAttribute('aria-valuenow')).to.equal('0');
  });

  it('turns indeterminate when the amount is unknown: no value, the sliding bar, no fixed width', async () => {
    const el = await fixture<ProgressProbe>(html`<progress-probe></progress-probe>`);
    el.fraction = undefined;
    el.text = 'Checking the video…';
    await el.updateComplete;
    const b = bar(el);
    expect(b.hasAttribute('aria-valuenow')).to.equal(false);
    expect(b.classList.contains('indeterminate')).to.equal(true);
    expect(b.getAttribute('aria-label')).to.equal('Checking the video…');
    expect(fill(el).style.inlineSize, 'the width set before is gone').to.equal('');
    const animation = getComputedStyle(fill(el)).animationName;
    expect(animation === 'slide' || matchMedia('(prefers-reduced-motion: reduce)').matches).to.equal(true);
    await expect(el).to.be.accessible();
  });
});
