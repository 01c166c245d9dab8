/**
 * A result is kept once: a keep whose id the store already holds (under one of its ids, made
 * before a secret rotation too) answers what is stored; one whose id is being kept in this
 * instance joins that keep; and instances sharing a store take the store's lock of the id, so two
 * keeping it at once store it once.
 */
import { keptOf, storeCall, type KeepDeps, type Kept } from './kept.js';

/** How often a keep that waits for another instance's keep of the same result looks again. */
const LOCK_POLL_MS = 200;

export interface KeepOutcome {
  kept: Kept;
  /** Whether this keep stored it (201), or found it stored or being stored (200). */
  created: boolean;
}

export class KeepOnce {
  readonly #inflight = new Map<string, Promise<KeepOutcome>>();

  constructor(private readonly deps: KeepDeps) {}

  /**
   * The kept result under one of `ids`, the one being kept now, or a new one made by `make` under
   * `ids[0]`. `skip` runs when nothing new is kept (it drops the body the request still holds).
   */
  async run(
    ids: string[],
    skip: (() => unknown) | undefined,
    make: (key: string) => Promise<Kept>,
  ): Promise<KeepOutcome> {
    const store = this.deps.results.store;
    for (const id of ids) {
      const found = await storeCall(this.deps, store.head(id));
      if (found) {
        await skip?.();
        return { kept: keptOf(this.deps, id, found), created: false };
      }
    }
    const key = ids[0]!;
    const running = this.#inflight.get(key);
    if (running) {
      await skip?.();
      return { kept: (await running).kept, created: false };
    }
    const promise = this.#locked(key, skip, make).finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, promise);
    return promise;
  }

  /**
   * Keeps under the store's lock of `key`, so that instances sharing a store keep a result once:
   * the lock is an entry of its own byte ledger that holds at most one (taken when no other is
   * there, renewed while the keep runs, dropped after; a proxy that dies mid-keep leaves one that
   * expires). Whoever finds it taken waits for the result to be stored, or takes the lock when
   * its holder gave up, and keeps it then.
   */
  async #locked(
    key: string,
    skip: (() => unknown) | undefined,
    make: (key: string) => Promise<Kept>,
  ): Promise<KeepOutcome> {
    const { ctx, results, ledgers } = this.deps;
    const { budget } = ctx;
    const ledger = `keep-lock:${key}`;
    const token = crypto.randomUUID();
    const ttl = results.holdSeconds;
    const take = () => budget.guarded(ledgers.holdBytes(ledger, token, 1, 1, undefined, ttl));
    const stored = async (): Promise<KeepOutcome | undefined> => {
      const found = await storeCall(this.deps, results.store.head(key));
      if (!found) return undefined;
      await skip?.();
      return { kept: keptOf(this.deps, key, found), created: false };
    };
    while (!(await take()).ok) {
      await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
      const done = await stored();
      if (done) return done;
    }
    const renew = setInterval(() => void take().catch(() => undefined), Math.max(1000, (ttl * 1000) / 3));
    try {
      // Stored by another instance between the first look and the lock.
      return (await stored()) ?? { kept: await make(key), created: true };
    } finally {
      clearInterval(renew);
      await budget
        .guarded(ledgers.dropBytes(ledger, token))
        .catch(() => ctx.log('error', 'the store failed to drop a keep lock (it expires)'));
    }
  }
}
