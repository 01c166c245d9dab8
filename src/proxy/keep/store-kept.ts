/**
 * Streams a keep's body into the result store, counting its bytes against the subject's storage
 * quota: the quota is held ahead of the stream (a step at a time, under a pending entry) and the
 * stream is cut when the next hold is refused, when it passes `max`, or when it says more than
 * its Content-Length. Once stored, the pending hold becomes the result's entry in one store step.
 * The pending hold expires unless renewed, and is renewed while the keep runs: a proxy that dies
 * mid-keep holds no quota for good. A keep that fails leaves nothing: no object, no hold.
 */
import { ApiError } from '../../api/index.js';
import { messageOf, refuse } from '../edge/respond.js';
import type { Binding } from '../tokens/handles.js';
import type { SessionClaims } from '../tokens/tokens.js';
import { countedBody, PendingHold, type CountedSpec } from './keep-body.js';
import { bytesText, urlOf, type KeepDeps, type Kept } from './kept.js';
import type { KeptMeta } from './result-store.js';

export interface StoreJob extends CountedSpec {
  key: string;
  type: string;
  name: string;
  owner: Binding;
  session: SessionClaims;
  subject: string;
}

/** Stores `job.body` under `job.key` within the quota, and answers what was kept. */
export async function storeKept(deps: KeepDeps, job: StoreJob): Promise<Kept> {
  const { ctx, ledgers, results } = deps;
  const { budget } = ctx;
  const quota = job.session.storageQuota ?? results.quotaBytes;
  const ledger = await budget.storageLedger(job.subject);
  const overQuota = (bytes: number, more: boolean) =>
    ApiError.of(
      'payload_too_large',
      `Keeping this would use ${more ? 'more than ' : ''}${bytesText(bytes)} of your ${bytesText(quota)} storage; remove kept results or ask the site for more.`,
    );
  const hold = new PendingHold(ctx, ledgers, ledger, `pending:${job.key}`, quota, results.holdSeconds);
  const counted = countedBody(ctx, job, hold, overQuota);
  if (job.declared !== undefined) {
    const r = await hold.hold(job.declared).catch(async (err: unknown) => {
      await hold.settle();
      await counted.cancel();
      throw err;
    });
    if (!r.ok) {
      await hold.settle();
      await counted.cancel();
      throw overQuota(r.used + job.declared, false);
    }
  }

  const sealer = ctx.sealer;
  let stored: { bytes: number; url?: string };
  try {
    const meta: KeptMeta = {
      type: job.type,
      name: job.name,
      owner: await sealer.sealOwner(job.key, job.owner),
      subject: (await sealer.resultIds(JSON.stringify(['subject', job.session.subject])))[0]!,
      created: new Date().toISOString(),
    };
    stored = await results.store.put(job.key, counted.stream, meta);
    if (counted.failure) throw counted.failure;
    await hold.settle();
    await budget.guarded(ledgers.holdBytes(ledger, job.key, counted.total, Number.MAX_SAFE_INTEGER, hold.id));
  } catch (err) {
    await hold.settle();
    await counted.cancel();
    // Nothing half-kept: the store's object (if any) goes, and so does the hold.
    await results.store
      .delete(job.key)
      .catch((e: unknown) => ctx.log('error', `the result store failed to delete a failed keep: ${messageOf(e)}`));
    await budget
      .guarded(ledgers.dropBytes(ledger, hold.id))
      .catch(() => ctx.log('error', 'the store failed to drop the quota hold of a failed keep (it expires)'));
    if (counted.failure) throw counted.failure;
    if (err instanceof ApiError) throw err;
    ctx.log('error', `the result store failed to keep a result: ${messageOf(err)}`);
    refuse('unavailable', 'The result could not be stored right now, so nothing was kept. Try again in a moment.', 5);
  }
  return {
    id: job.key,
    url: urlOf(deps, job.key, job.name, stored.url),
    type: job.type,
    bytes: counted.total,
    name: job.name,
  };
}
