/**
 * The half of the one job flow that comes with the job engine (job-run.ts is the other): the job
 * bridge (JobController), the request controller (one Idempotency-Key per input, the abort, the
 * 429 countdown, the page's one ticker), how the jobs a job element shows become its value, and
 * adopting a job, resuming it, or following a value's (its record made here when this browser
 * never saw it). Never part of a page's first load: an element loads it as it connects, or with
 * its first file or job.
 *
 * The value follows the job shown: a job with a handle that the value does not name yet becomes
 * the running value (`input`); a job that succeeded is committed and its files kept (`change` once
 * kept); a job this page started that failed takes its running value with it. A value set from
 * outside is the site's: a succeeded one's job ending again is no new result, and no failure of its
 * job erases it.
 */
import type { ReactiveControllerHost } from 'lit';
import type { MediaClient } from '../../client/media-client.js';
import { jobDetail } from '../../events/job-events.js';
import { JobController } from '../../jobs/job-controller.js';
import { isTerminal, type JobKind, type JobRecord } from '../../jobs/job-store.js';
import { pollerFor } from './job-history.js';
import type { JobEngine, JobRunController } from './job-run.js';
import { RequestController } from './request-controller.js';
import type { KeepFile, ResultAsset, ResultValueBase, ResultValueController } from './result-value.js';

export interface JobValueOptions<K extends JobKind, V extends ResultValueBase> {
  kind: K;
  client(): MediaClient;
  /** A job is queued or processing: its elapsed clock ticks. */
  running(): boolean;
  /** The element's value. */
  results: ResultValueController<V>;
  /** The value of a job shown: running (its handle), or succeeded (nothing kept yet). */
  toValue(record: JobRecord, status: 'running' | 'succeeded'): V;
  /** The files of a succeeded job to keep, and how the kept ones go into its value. */
  keep(record: JobRecord): { files: KeepFile[]; place(value: V, assets: ResultAsset[]): V };
  /** What the job list shows of a job known only by a value's handle. */
  summary(value: V): JobRecord['summary'];
}

/** Makes the engine of `run`: the job bridge and the request controller, with the value following the job shown. */
export function jobEngine<K extends JobKind, V extends ResultValueBase>(
  host: ReactiveControllerHost & HTMLElement,
  run: Pick<JobRunController<V, K, JobEngine<K, V>>, 'follows'>,
  o: JobValueOptions<K, V>,
): JobEngine<K, V> {
  const jobs = new JobController(host, { kind: o.kind, client: o.client });
  const request = new RequestController(host, { running: o.running });
  const on = (e: Event): void => {
    const r = jobDetail(e);
    if (!r?.handle) return;
    const { results } = o;
    // What the value says of this job: nothing (another job's, or none), running, or succeeded.
    const named = results.value?.job === r.handle ? results.value.status : undefined;
    // Undefined: not a value's job; else whether its end is a new result (its value was running).
    const followed = run.follows(r);
    if (e.type === 'mk-succeeded') {
      if (named === 'succeeded' || followed === false || !r.job) return;
      const { files, place } = o.keep(r);
      results.commit(o.toValue(r, 'succeeded'), files, place);
    } else if (e.type === 'mk-failed') {
      if (named === 'running' && followed === undefined) results.update(null);
    } else if (!named && followed === undefined && !isTerminal(r.status)) {
      // Cleared first: the last result's keeping, if still out, must not land over this job's value.
      results.clear();
      results.update(o.toValue(r, 'running'));
    }
  };
  for (const type of ['mk-job-created', 'mk-job-progressed', 'mk-succeeded', 'mk-failed'] as const)
    host.addEventListener(type, on);
  // A finished job from an earlier visit: asked once whether it still exists (and for fresh links).
  const refreshed = (known: JobRecord | undefined, refresh?: boolean) =>
    refresh &&
    known?.status === 'succeeded' &&
    void pollerFor(o.client())
      .then((poller) => poller.refresh(known.id))
      .catch(() => undefined);
  return {
    jobs,
    request,
    busy: () => request.busy,
    // Resumed when this browser knew it unfinished.
    adopt(id, known, refresh) {
      jobs.adopt(known?.id ?? id, { resumed: known !== undefined && !isTerminal(known.status) });
      refreshed(known, refresh);
    },
    send: (input, summary, options) =>
      request.send(
        ({ key, signal, onWait }) => jobs.start(input, { idempotencyKey: key, signal, summary, onWait }),
        options,
      ),
    /**
     * Follows a value's job: the record this browser knows by its handle, else one made for it here
     * (another device or editor started the job; its id is its handle, as no creating request of
     * this browser names it), polled once to say where it is; then adopted, `resumed` when the value
     * says it runs and this browser did not see it end.
     */
    async follow(value, current, refresh) {
      const handle = value.job!;
      const client = o.client();
      const poller = await pollerFor(client);
      const known = (await poller.list()).find((r) => r.handle === handle);
      if (!known) {
        await poller.store.put({
          id: handle,
          idempotencyKey: handle,
          handle,
          kind: o.kind,
          scope: await client.scope(),
          summary: o.summary(value),
          createdAt: Date.parse(value.created),
          updatedAt: Date.now(),
          status: 'queued',
          progress: 0,
        });
        await poller.refresh(handle).catch(() => undefined);
      }
      const resumed = value.status === 'running' && !(known && isTerminal(known.status));
      if (!current()) return;
      jobs.adopt(known?.id ?? handle, { resumed });
      refreshed(known, refresh);
    },
  };
}
