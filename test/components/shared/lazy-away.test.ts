/**
 * LazyAwayController in a real element: with `notify`, a job that ends while the page is hidden
 * marks the tab's title (and the mark goes when the page shows again), in the element's words;
 * without `notify` nothing happens.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement, html as litHtml } from 'lit';
import { LazyAwayController } from '../../../src/components/shared/lazy-away.js';
import { jobEventDetail, type JobSnapshot } from '../../../src/events/job-events.js';
import { FailedEvent, SucceededEvent } from '../../../src/events/outcome.js';
import { until } from '../../fixtures/browser.js';

class AwayProbe extends LitElement {
  static override properties = { notify: { type: Boolean } };
  notify = false;
  readonly away = new LazyAwayController(this, (e) => [
    e.type === 'mk-succeeded' ? 'Scene ready' : 'Scene failed',
    String(e.detail.summary['name'] ?? ''),
  ]);

  override render() {
    return litHtml`<p>job</p>`;
  }
}
customElements.define('away-probe', AwayProbe);

const record: JobSnapshot = {
  id: 'j',
  scope: 's',
  kind: 'video',
  idempotencyKey: 'j',
  summary: { name: 'walk.mp4' },
  createdAt: 0,
  updatedAt: 0,
  status: 'succeeded',
  progress: 100,
};

describe('LazyAwayController', () => {
  let visibility: DocumentVisibilityState = 'visible';
  const setVisibility = (v: DocumentVisibilityState) => {
    visibility = v;
    document.dispatchEvent(new Event('visibilitychange'));
  };
  let title = '';
  beforeEach(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
    title = document.title;
    document.title = 'My page';
  });
  afterEach(() => {
    delete (document as { visibilityState?: unknown }).visibilityState;
    document.title = title;
    visibility = 'visible';
  });

  it('marks the title when a job ends while the page is hidden, once notify is set, and unmarks it on return', async () => {
    const el = await fixture<AwayProbe>(html`<away-probe></away-probe>`);
    setVisibility('hidden');
    el.dispatchEvent(new SucceededEvent(jobEventDetail(record)));
    expect(document.title, 'without notify: nothing').to.equal('My page');
    el.notify = true;
    await el.updateComplete;
    await until(
      async () => {
        el.dispatchEvent(
          new FailedEvent({ ...jobEventDetail({ ...record, status: 'failed' }), reason: 'unknown', params: {} }),
        );
        return document.title.startsWith('●');
      },
      3_000,
      'the mark',
    );
    expect(document.title).to.equal('● My page');
    setVisibility('visible');
    expect(document.title).to.equal('My page');
    await expect(el).to.be.accessible();
  });
});
