/**
 * JobHistoryController in a real Lit element, over a real job store and the proxy's session: it
 * reads this device's records of its kind once when the element first connects, lists the recent
 * ones, finds a record by id or handle, and keeps the list in step with the job on screen.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement, html as litHtml } from 'lit';
import { MediaClient } from '../../../src/client/media-client.js';
import { JobHistoryController } from '../../../src/components/shared/job-history.js';
import { JobPoller } from '../../../src/jobs/job-poller.js';
import { JobStore, type JobRecord } from '../../../src/jobs/job-store.js';
import { until } from '../../fixtures/browser.js';

const client = new MediaClient({ endpoint: '/mediakit' });
const poller = new JobPoller(client, {
  store: new JobStore({ database: `test-history-${crypto.randomUUID()}` }),
  channel: `test-${crypto.randomUUID()}`,
});
let restored: (readonly JobRecord[])[] = [];

class HistoryProbe extends LitElement {
  readonly history = new JobHistoryController(this, {
    kind: 'video',
    client: () => client,
    poller: () => poller,
    limit: 3,
    onRestored: (r) => restored.push(r),
  });
  current: string | undefined;

  override render() {
    return litHtml`<ul>${this.history.recent(this.current).map((r) => litHtml`<li>${r.summary['name']}</li>`)}</ul>`;
  }
}
customElements.define('history-probe', HistoryProbe);

/** A poller whose first read of the records fails (storage busy while the previous page goes away). */
let failures = 0;
class FlakyProbe extends LitElement {
  readonly history = new JobHistoryController(this, {
    kind: 'video',
    client: () => client,
    poller: () => {
      if (failures > 0) {
        failures--;
        return { resume: () => Promise.reject(new Error('the job store is busy')) } as unknown as JobPoller;
      }
      return poller;
    },
    onRestored: (r) => restored.push(r),
  });
}
customElements.define('flaky-probe', FlakyProbe);

const names = (el: Element) => [...el.shadowRoot!.querySelectorAll('li')].map((li) => li.textContent);

async function seed(): Promise<JobRecord[]> {
  const scope = await client.scope();
  const at = Date.now() - 60_000;
  const make = (i: number, kind: 'video' | 'model', status: JobRecord['status']): JobRecord => ({
    id: `job-${i}`,
    scope,
    kind,
    idempotencyKey: `job-${i}`,
    summary: { name: `scan ${i}` },
    createdAt: at + i * 1000,
    updatedAt: at + i * 1000,
    status,
    progress: status === 'succeeded' ? 100 : 0,
    ...(status === 'creating' ? {} : { handle: `handle-${i}`, finishedAt: at + i * 1000 }),
  });
  const records = [
    make(1, 'video', 'succeeded'),
    make(2, 'video', 'failed'),
    make(3, 'model', 'succeeded'),
    make(4, 'video', 'succeeded'),
    make(5, 'video', 'succeeded'),
    make(6, 'video', 'expired'),
  ];
  for (const r of records) await poller.store.put(r);
  return records;
}

describe('JobHistoryController', function () {
  this.timeout(20_000);
  before(seed);
  beforeEach(() => (restored = []));

  it('reads this kind of job once, newest first, and lists the recent ones up to its limit', async () => {
    const el = await fixture<HistoryProbe>(html`<history-probe></history-probe>`);
    await until(() => restored.length === 1, 10_000, 'the records');
    expect(restored[0]!.map((r) => r.id)).to.deep.equal(['job-6', 'job-5', 'job-4', 'job-2', 'job-1']);
    await el.updateComplete;
    expect(names(el)).to.deep.equal(['scan 6', 'scan 5', 'scan 4']);
    // Back on the page: no second read.
    const parent = el.parentElement!;
    el.remove();
    parent.append(el);
    await new Promise((r) => setTimeout(r, 300));
    expect(restored).to.have.length(1);
    await expect(el).to.be.accessible();
  });

  it('finds a record by id or by handle, and leaves the one shown out of the list', async () => {
    const el = await fixture<HistoryProbe>(html`<history-probe></history-probe>`);
    await until(() => restored.length === 1, 10_000, 'the records');
    expect(el.history.find('job-5')?.id).to.equal('job-5');
    expect(el.history.find('handle-4')?.id).to.equal('job-4');
    expect(el.history.find('nope')).to.equal(undefined);
    el.current = 'job-6';
    el.requestUpdate();
    await el.updateComplete;
    expect(names(el)).to.deep.equal(['scan 5', 'scan 4', 'scan 2']);
  });

  it('follows the job on screen: a new copy replaces the listed one; a new job joins once it is sent', async () => {
    const el = await fixture<HistoryProbe>(html`<history-probe></history-probe>`);
    await until(() => restored.length === 1, 10_000, 'the records');
    const five = el.history.find('job-5')!;
    el.history.track({ ...five, summary: { name: 'scan 5, renamed' } });
    await el.updateComplete;
    expect(names(el)).to.include('scan 5, renamed');
    const fresh: JobRecord = {
      ...five,
      id: 'job-9',
      idempotencyKey: 'job-9',
      handle: undefined,
      status: 'creating',
      summary: { name: 'scan 9' },
      createdAt: Date.now(),
    };
    el.history.track(fresh);
    await el.updateComplete;
    expect(el.history.find('job-9'), 'not listed while it is being sent').to.equal(undefined);
    el.history.track({ ...fresh, status: 'queued', handle: 'handle-9' });
    await el.updateComplete;
    expect(names(el)[0]).to.equal('scan 9');
  });

  it('reads again after a failed first read, so an element never stays idle over a known job', async () => {
    failures = 1;
    await fixture<FlakyProbe>(html`<flaky-probe></flaky-probe>`);
    await until(() => restored.length === 1, 10_000, 'the records on the second read');
    expect(restored[0]!.map((r) => r.id)).to.include('job-5');
    expect(failures).to.equal(0);
  });
});
