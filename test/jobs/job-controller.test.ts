/**
 * JobController inside a real Lit element: it creates a job, renders its state, dispatches the
 * mk-job-* events, stops polling when the element leaves the page and resumes when it returns.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement, html as litHtml } from 'lit';
import { JobController, JobPoller, JobStore, MediaClient, type JobEvent } from '../../src/index.js';
import { advance, until } from '../fixtures/browser.js';

const client = new MediaClient({ endpoint: '/mediakit' });
const poller = new JobPoller(client, {
  store: new JobStore({ database: `test-controller-${crypto.randomUUID()}` }),
  cadence: { model: { firstMs: 100, maxMs: 100, factor: 1 } },
  channel: `test-${crypto.randomUUID()}`,
});
let polls = 0;
const getModelJob = client.getModelJob.bind(client);
client.getModelJob = (...a) => (polls++, getModelJob(...a));

class JobProbe extends LitElement {
  readonly job = new JobController(this, { kind: 'model', client: () => client, poller: () => poller });

  override render() {
    const r = this.job.record;
    return litHtml`<p>${r ? `${r.status} ${r.progress}` : 'idle'}</p>`;
  }
}
customElements.define('job-probe', JobProbe);

describe('JobController', () => {
  it('creates a job, renders it, and dispatches created, progress and succeeded', async () => {
    const el = await fixture<JobProbe>(html`<job-probe></job-probe>`);
    const events: string[] = [];
    for (const type of ['mk-job-created', 'mk-job-progressed', 'mk-succeeded', 'mk-failed'] as const)
      el.addEventListener(type, (e: Event) => events.push(e.type));
    const record = await el.job.start({ mode: 'text', prompt: 'a paper boat', quality: 'fast' });
    expect(record.handle).to.be.a('string');
    await until(async () => {
      await advance('mediakit', 10_000);
      return el.job.record?.status === 'succeeded';
    });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('p')!.textContent).to.equal('succeeded 100');
    expect(events[0]).to.equal('mk-job-created');
    expect(events.at(-1)).to.equal('mk-succeeded');
    expect(events.filter((e) => e === 'mk-succeeded')).to.have.length(1);
  });

  it('reports a refused request through the task, without a job', async () => {
    const el = await fixture<JobProbe>(html`<job-probe></job-probe>`);
    const err = await el.job.start({ mode: 'text', prompt: '' }).catch((e: Error) => e);
    expect((err as Error).message).to.match(/3 to 300/);
    expect(el.job.record).to.equal(undefined);
    expect(el.job.active).to.equal(false);
  });

  it('stops polling while the element is off the page and resumes when it returns', async () => {
    const el = await fixture<JobProbe>(html`<job-probe></job-probe>`);
    await el.job.start({ mode: 'text', prompt: 'a glass bird', quality: 'high' });
    await until(() => polls > 0 && el.job.record?.status !== 'creating', 5_000, 'polling');
    const parent = el.parentElement!;
    el.remove();
    await new Promise((r) => setTimeout(r, 150)); // a poll in flight may still land
    const stopped = polls;
    await new Promise((r) => setTimeout(r, 500));
    expect(polls, 'no polls while detached').to.equal(stopped);
    parent.append(el);
    await until(async () => {
      await advance('mediakit', 20_000);
      return el.job.record?.status === 'succeeded';
    });
    expect(polls).to.be.greaterThan(stopped);
  });

  it('moving the element in the DOM keeps the job going', async () => {
    const el = await fixture<JobProbe>(html`<job-probe></job-probe>`);
    await el.job.start({ mode: 'text', prompt: 'a stone frog', quality: 'fast' });
    const other = document.createElement('div');
    document.body.append(other);
    other.append(el); // disconnect + connect in one task
    await until(async () => {
      await advance('mediakit', 10_000);
      return el.job.record?.status === 'succeeded';
    });
    other.remove();
  });
  it('a job adopted unfinished after a reload says it ended while away, even when the poller had its end first', async () => {
    const first = await fixture<JobProbe>(html`<job-probe></job-probe>`);
    const { id } = await first.job.start({ mode: 'text', prompt: 'a tin whistle', quality: 'fast' });
    await until(() => first.job.record?.status === 'processing' || first.job.record?.status === 'queued', 5_000);
    first.remove(); // the page closes with the job unfinished
    await advance('mediakit', 60_000);
    // The poller reads the end before the reloaded element shows anything: the race the element can lose.
    await until(async () => (await poller.refresh(id))?.status === 'succeeded', 10_000, 'the poller sees the end');
    const second = await fixture<JobProbe>(html`<job-probe></job-probe>`);
    const ended: JobEvent[] = [];
    second.addEventListener('mk-succeeded', (e) => ended.push(e as Event as JobEvent));
    second.job.adopt(id, { resumed: true }); // the element read it unfinished from the store after the reload
    await until(() => second.job.record?.status === 'succeeded', 5_000, 'the adopted job shows its end');
    await new Promise((r) => setTimeout(r, 300));
    expect(ended, 'mk-succeeded once').to.have.length(1);
    expect(ended[0]!.detail.whileAway).to.equal(true);
  });
});
