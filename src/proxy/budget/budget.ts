/**
 * Budgets and rate limits on the store, fail closed: every store call is bounded by
 * `storeTimeoutMs`; a failure refuses the request (503) before anything goes upstream, except a
 * release, which is bounded the same way but only logged (the reservation then stays counted).
 *
 * Keys carry a digest of the proxy's audience, so two sites on one store never share a subject's
 * budget. Each charged call reserves under an id of its own: a request can only ever settle or
 * release the reservation it created.
 */
import { HEADERS } from '../../api/index.js';
import type { RateBucket, Settings } from '../settings.js';
import { messageOf, refuse, refuseWith, type Log } from '../edge/respond.js';
import { digestName } from '../tokens/secrets.js';
import type { ProxyStore } from '../state/state-store.js';
import type { SessionClaims } from '../tokens/tokens.js';

/** One call's hold on the budget: the ledgers it reserved in (the subject's, and the site-wide one when configured). */
export interface Reservation {
  id: string;
  window: number;
  cost: number;
  ledgers: string[];
}

/** What a budget has left: never below 0, and never above the budget (a ledger below 0 would be a refund counted twice). */
export function remainingOf(budget: number, used: number): number {
  return Math.min(budget, Math.max(0, budget - used));
}

export interface BudgetView {
  limit: number;
  used: number;
  remaining: number;
  window_seconds: number;
  resets_at: string;
}

export class Budget {
  readonly #digests = new Map<string, string>();
  readonly #namespace: Promise<string>;

  constructor(
    private readonly store: ProxyStore,
    private readonly settings: Settings,
    private readonly log: Log,
    audience: string,
  ) {
    this.#namespace = digestName('audience\n' + audience);
  }

  /** A store call within `storeTimeoutMs`, or a 503 (nothing was sent, nothing charged). */
  async guarded<T>(op: Promise<T>): Promise<T> {
    try {
      return await this.#bounded(op);
    } catch (err) {
      this.log('error', `store failed: ${messageOf(err)}`);
      refuse(
        'unavailable',
        'The service cannot check budgets right now, so nothing was sent and nothing was charged. Try again in a moment.',
        5,
      );
    }
  }

  #bounded<T>(op: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = this.settings.storeTimeoutMs;
    return Promise.race([
      op,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`store did not answer within ${limit} ms`)), limit)),
      ),
    ]).finally(() => clearTimeout(timer));
  }

  windowOf(nowMs: number): number {
    return Math.floor(nowMs / 1000 / this.settings.windowSeconds);
  }

  /** The subject's store name (a digest: subjects are not stored in clear). */
  async subjectDigest(subject: string): Promise<string> {
    let d = this.#digests.get(subject);
    if (d === undefined) {
      d = await digestName(subject);
      if (this.#digests.size > 10_000) this.#digests.clear();
      this.#digests.set(subject, d);
    }
    return d;
  }

  async #ledgers(subjectDigest: string, window: number): Promise<string[]> {
    const ns = await this.#namespace;
    const own = `budget:${ns}:${subjectDigest}:${window}`;
    return this.settings.totalBudget === undefined ? [own] : [own, `budget-total:${ns}:${window}`];
  }

  get #ttl(): number {
    return this.settings.windowSeconds + 3600;
  }

  /** Reserves `cost` for one call, or refuses with 402. */
  async reserve(session: SessionClaims, subjectDigest: string, cost: number): Promise<Reservation> {
    const window = this.windowOf(Date.now());
    const ledgers = await this.#ledgers(subjectDigest, window);
    const id = 'r_' + crypto.randomUUID();
    const limits = [session.budget, this.settings.totalBudget ?? 0];
    const taken: string[] = [];
    for (const [i, ledger] of ledgers.entries()) {
      const r = await this.guarded(this.store.reserve(ledger, id, cost, limits[i]!, this.#ttl)).catch(
        async (err: unknown) => {
          await this.release({ id, window, cost, ledgers: taken });
          throw err;
        },
      );
      if (!r.ok) {
        await this.release({ id, window, cost, ledgers: taken });
        if (i === 0) {
          const left = Math.max(0, session.budget - r.used);
          refuse(
            'insufficient_credits',
            `This call costs up to ${cost} credits and this session has ${left} left of its ${session.budget} for the period. Nothing was charged.`,
          );
        }
        refuse(
          'insufficient_credits',
          'This site has spent the credits it allows for all visitors in this period. Nothing was charged; try again later.',
        );
      }
      if (r.created !== false) taken.push(ledger);
    }
    return { id, window, cost, ledgers: taken };
  }

  /** Fixes the reservation at what upstream charged; returns the subject's use. */
  async settle(reservation: Reservation, amount: number): Promise<number> {
    const used = await Promise.all(
      reservation.ledgers.map((l) => this.guarded(this.store.settle(l, reservation.id, amount, this.#ttl))),
    );
    return used[0] ?? 0;
  }

  /** Gives a reservation back (only when upstream certainly charged nothing). Bounded, never throws. */
  async release(reservation: Reservation): Promise<void> {
    await Promise.all(
      reservation.ledgers.map((l) =>
        this.#bounded(this.store.release(l, reservation.id)).catch((err: unknown) =>
          this.log(
            'error',
            `store failed to release a reservation of ${reservation.cost} credits (it stays counted): ${messageOf(err)}`,
          ),
        ),
      ),
    );
  }

  /** The refund of a failed job, once per job (upstream refunds it too). */
  async refund(subjectDigest: string, window: number, jobId: string, amount: number): Promise<void> {
    const id = 'refund_' + (await digestName(jobId));
    for (const ledger of await this.#ledgers(subjectDigest, window))
      await this.guarded(this.store.settle(ledger, id, -amount, this.#ttl));
  }

  async view(session: SessionClaims, subjectDigest: string, used?: number): Promise<BudgetView> {
    const window = this.windowOf(Date.now());
    const [own] = await this.#ledgers(subjectDigest, window);
    const u = used ?? (await this.guarded(this.store.used(own!)));
    const w = this.settings.windowSeconds;
    return {
      limit: session.budget,
      used: u,
      remaining: remainingOf(session.budget, u),
      window_seconds: w,
      resets_at: new Date((window + 1) * w * 1000).toISOString(),
    };
  }

  /** The byte ledger of a subject's kept results (no window: a kept result counts until it is deleted). */
  async storageLedger(subjectDigest: string): Promise<string> {
    return `storage:${await this.#namespace}:${subjectDigest}`;
  }

  /** Counts a request against the subject's bucket; refuses with 429 past the limit. */
  async rateLimit(bucket: RateBucket, subjectDigest: string): Promise<Record<string, string>> {
    const { limit, windowSeconds } = this.settings.limits[bucket];
    const ns = await this.#namespace;
    const { count, resetMs } = await this.guarded(this.store.hit(`rl:${ns}:${bucket}:${subjectDigest}`, windowSeconds));
    const headers = {
      [HEADERS.rateLimitLimit]: String(limit),
      [HEADERS.rateLimitRemaining]: String(Math.max(0, limit - count)),
    };
    if (count > limit) {
      const retry = Math.max(1, Math.ceil(resetMs / 1000));
      const what =
        bucket === 'create'
          ? 'new requests'
          : bucket === 'poll'
            ? 'status checks and downloads'
            : bucket === 'keep'
              ? 'requests to keep results'
              : 'session requests';
      refuseWith(
        headers,
        'rate_limited',
        `Too many ${what} from this session; wait ${retry} s and try again. Nothing was charged.`,
        retry,
      );
    }
    return headers;
  }
}
