/**
 * One job's polling loop for `JobPoller`: polls at its kind's cadence until it ends, and a
 * succeeded job again shortly before its download links expire, so the links in hand always work.
 * A 404 or 410 ends the job (`applyGone`); Retry-After is honoured.
 */
import { ApiError, type ModelJob, type VideoJob } from '../api/index.js';
import { applyGone, applyView } from './job-records.js';
import type { SendContext } from './job-sender.js';
import type { JobKind, JobRecord } from './job-store.js';
import { PollCadence, type Cadence } from './poll-cadence.js';

export interface PollContext extends SendContext {
  cadence: Record<JobKind, Cadence>;
  /** Waits are this many times longer while the tab is hidden. */
  hiddenFactor: number;
  /** A succeeded job is polled again this long (ms) before its links expire. */
  margin: number;
}

/** Polls the job `id` until it ends or `signal` aborts (this tab holds its polling lock). */
export async function pollLoop(ctx: PollContext, scope: string, id: string, signal: AbortSignal): Promise<void> {
  let record = await ctx.store.get(scope, id);
  if (!record) return;
  ctx.notify(record);
  const cadence = new PollCadence(ctx.cadence[record.kind], ctx.hiddenFactor);
  while (!signal.aborted) {
    record = await ctx.store.get(scope, id);
    // Still being created: the created record (resent here, or posted by another tab) starts a new loop.
    if (!record || !record.handle) return;
    if (record.status === 'failed' || record.status === 'expired') return;
    if (record.status === 'succeeded') {
      if (record.linksExpireAt === undefined) return;
      // By the server's clock (the expiry is its instant).
      await cadence.beforeRenewal(record.linksExpireAt - ctx.margin - ctx.client.serverNow(), signal);
    } else {
      await cadence.beforePoll(signal);
    }
    try {
      await pollOnce(ctx, record, signal);
    } catch (err) {
      if (signal.aborted) return;
      if (err instanceof ApiError && err.retryAfter !== undefined) cadence.retryAfter(err.retryAfter);
    }
  }
}

/** Polls once, records the result and tells everyone. */
export async function pollOnce(ctx: SendContext, record: JobRecord, signal?: AbortSignal): Promise<JobRecord> {
  let view: VideoJob | ModelJob;
  try {
    view =
      record.kind === 'video'
        ? await ctx.client.getVideoJob(record.handle!, { signal })
        : await ctx.client.getModelJob(record.handle!, { signal });
  } catch (err) {
    if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 410)) throw err;
    const { status } = err;
    return (await ctx.update(record.scope, record.id, (r) => applyGone(r, status))) ?? record;
  }
  return (await ctx.update(record.scope, record.id, (r) => applyView(r, view))) ?? record;
}
