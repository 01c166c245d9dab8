/**
 * Taking over a job still being created whose sender is gone (a reload cut its upload, or its
 * answer was lost), for `JobPoller.resume()`, once no tab holds the job's creation lock: sent again
 * with its Idempotency-Key (the API replays the original job and charges nothing twice), or, when
 * it cannot be, ended `failed` saying why.
 */
import type { ModelJobInput } from '../client/media-client.js';
import { wasCut } from './job-records.js';
import { sendJob, type SendContext } from './job-sender.js';
import { isTerminal, type JobRecord } from './job-store.js';
import type { JobTabs } from './job-tabs.js';

export interface TakeOverContext extends SendContext {
  tabs: JobTabs;
  /** Whether a listener in this tab watches the job. */
  watched(id: string): boolean;
  /** Polls the job unless a loop already does. */
  ensureLoop(id: string): void;
  /** Polls the job in a new loop (a loop that saw it still creating has ended). */
  restartLoop(id: string): void;
}

/**
 * Whether every file of a kept request can still be read: the browser may have dropped a video
 * kept in IndexedDB (storage cleared or evicted under quota pressure, the blob's file gone), and
 * a send of it would fail the same way on every visit. Reads its first and last byte.
 */
async function readable(request: Blob | ModelJobInput): Promise<boolean> {
  const files =
    request instanceof Blob ? [request] : (request.images ?? []).filter((i): i is Blob => i instanceof Blob);
  try {
    for (const file of files) {
      if (file.size === 0) continue;
      await file.slice(0, 1).arrayBuffer();
      await file.slice(file.size - 1).arrayBuffer();
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Run while holding the job's creation lock: reads the record again. Created meanwhile: it is
 * polled. Still creating: sent again with its key (the others see the result through the
 * channel); or, when its request was never kept or the browser lost the kept video, it ends
 * `failed` (`interrupted`, `video_gone`) and stays in the store, so whoever shows it says so.
 */
export async function takeOverCreating(
  ctx: TakeOverContext,
  scope: string,
  id: string,
  signal: AbortSignal,
): Promise<void> {
  const current = await ctx.store.get(scope, id);
  if (!current || current.status !== 'creating' || current.handle) {
    // Created (or refused) by the tab that held the lock: follow what it wrote.
    if (current?.handle && !isTerminal(current.status) && ctx.watched(id)) ctx.ensureLoop(id);
    return;
  }
  if (current.request === undefined) {
    // Cut before its request was kept. With Web Locks the lock says no tab is still writing
    // it; with this page's own locks, only the orphan time does.
    if ((await ctx.tabs.shared()) || wasCut(current)) await cannotResend(ctx, current, 'interrupted');
    return;
  }
  if (!(await readable(current.request))) return cannotResend(ctx, current, 'video_gone');
  try {
    await sendJob(ctx, current, { signal }, true);
    ctx.restartLoop(id);
  } catch {
    // Kept (and retried on the next load) or dropped by sendJob; listeners were told.
  }
}

/** A job that cannot be sent again ends failed with `code`, without its request, told to every tab. */
async function cannotResend(sender: SendContext, record: JobRecord, code: 'interrupted' | 'video_gone'): Promise<void> {
  const now = Date.now();
  await sender.update(record.scope, record.id, (r) => {
    const { request: _dropped, ...rest } = r;
    return { ...rest, status: 'failed', error: { code }, finishedAt: now, updatedAt: now };
  });
}
