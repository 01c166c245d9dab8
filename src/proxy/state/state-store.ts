/**
 * The proxy's only state: budget ledgers and rate-limit counters, behind one small interface
 * whose every operation is atomic, so any number of proxy instances can share one store.
 *
 * A ledger counts the credits a subject has used in one budget window. Each call that may charge
 * adds a *reservation* under an id before anything goes upstream; the reservation is then
 * settled at the real charge or released. Ids make every step safe to repeat: reserving an id
 * that exists adds nothing (a retried Idempotency-Key), settling a settled id changes nothing
 * (a replayed response), releasing touches only an unsettled reservation. Settling an id that was
 * never reserved records it once (used for refunds of failed jobs, with a negative amount).
 * "Set if absent" is the reservation itself: one entry per id, created only when absent.
 *
 * Kept results (the `results` option) add byte ledgers: the bytes each subject keeps, one entry per
 * kept result, with no expiry (a kept result lasts until it is deleted). Setting an entry replaces
 * what it held, so keeping the same result twice counts it once. A keep in progress holds its
 * bytes under a pending entry set with a time to live, which the keep renews while it streams: a
 * proxy that dies mid-keep leaves a hold that expires, never one counted for good.
 */
export interface ProxyStore {
  /**
   * Adds `amount` to the ledger if it stays within `limit`; `ok` is true when `id` is (now or
   * already) reserved, `created` only when this call made the entry (only its creator may release it).
   */
  reserve(
    ledger: string,
    id: string,
    amount: number,
    limit: number,
    ttlSeconds: number,
  ): Promise<{ ok: boolean; used: number; created?: boolean }>;
  /** Fixes reservation `id` at `amount` (once). Returns the ledger's use. */
  settle(ledger: string, id: string, amount: number, ttlSeconds: number): Promise<number>;
  /** Drops reservation `id` if not settled. Returns the ledger's use. */
  release(ledger: string, id: string): Promise<number>;
  /** The ledger's use (0 when unknown). */
  used(ledger: string): Promise<number>;
  /** Counts a hit in a fixed window that starts at the first hit; returns the count and the ms until the window ends. */
  hit(counter: string, windowSeconds: number): Promise<{ count: number; resetMs: number }>;
  /**
   * Sets entry `id` of byte ledger `ledger` to `bytes` (replacing what it held) if the ledger's
   * total then stays within `limit`, else changes nothing; `ok` says which, `used` is the total
   * after. With `from`, that entry is dropped in the same step (a pending hold becoming the kept
   * result). With `ttlSeconds`, the entry expires (drops out of the total) that long after this
   * call unless set again; without it, it lasts until dropped. Needed only with the proxy's
   * `results` option.
   */
  holdBytes?(
    ledger: string,
    id: string,
    bytes: number,
    limit: number,
    from?: string,
    ttlSeconds?: number,
  ): Promise<{ ok: boolean; used: number }>;
  /** Drops entry `id` of a byte ledger; returns the ledger's total. */
  dropBytes?(ledger: string, id: string): Promise<number>;
  /** A byte ledger's total (0 when unknown). */
  bytesUsed?(ledger: string): Promise<number>;
}

/** The byte-ledger methods of a store (present on MemoryStore and RedisStore). */
export type ByteLedgers = Required<Pick<ProxyStore, 'holdBytes' | 'dropBytes' | 'bytesUsed'>>;

interface ByteLedger {
  used: number;
  entries: Map<string, number>;
  /** When entries set with a time to live expire (ms). */
  expires: Map<string, number>;
}

interface Ledger {
  used: number;
  reserved: Map<string, number>;
  settled: Set<string>;
  expiresAt: number;
}

/** The default store: one process's memory (budgets and limits are per instance). */
export class MemoryStore implements ProxyStore {
  readonly #ledgers = new Map<string, Ledger>();
  readonly #counters = new Map<string, { count: number; expiresAt: number }>();
  readonly #bytes = new Map<string, ByteLedger>();
  readonly #now: () => number;
  #ops = 0;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  async reserve(key: string, id: string, amount: number, limit: number, ttlSeconds: number) {
    const ledger = this.#ledger(key, ttlSeconds);
    if (ledger.reserved.has(id) || ledger.settled.has(id)) return { ok: true, used: ledger.used, created: false };
    if (ledger.used + amount > limit) return { ok: false, used: ledger.used, created: false };
    ledger.used += amount;
    ledger.reserved.set(id, amount);
    return { ok: true, used: ledger.used, created: true };
  }

  async settle(key: string, id: string, amount: number, ttlSeconds: number) {
    const ledger = this.#ledger(key, ttlSeconds);
    if (ledger.settled.has(id)) return ledger.used;
    ledger.used += amount - (ledger.reserved.get(id) ?? 0);
    ledger.reserved.delete(id);
    ledger.settled.add(id);
    return ledger.used;
  }

  async release(key: string, id: string) {
    const ledger = this.#live(this.#ledgers, key);
    if (!ledger) return 0;
    const amount = ledger.reserved.get(id);
    if (amount !== undefined) {
      ledger.used -= amount;
      ledger.reserved.delete(id);
    }
    return ledger.used;
  }

  async used(key: string) {
    return this.#live(this.#ledgers, key)?.used ?? 0;
  }

  async hit(key: string, windowSeconds: number) {
    this.#sweep();
    const now = this.#now();
    let counter = this.#live(this.#counters, key);
    if (!counter) this.#counters.set(key, (counter = { count: 0, expiresAt: now + windowSeconds * 1000 }));
    counter.count++;
    return { count: counter.count, resetMs: counter.expiresAt - now };
  }

  async holdBytes(key: string, id: string, bytes: number, limit: number, from?: string, ttlSeconds?: number) {
    let ledger = this.#byteLedger(key);
    if (!ledger) this.#bytes.set(key, (ledger = { used: 0, entries: new Map(), expires: new Map() }));
    const moved = from !== undefined && from !== id ? (ledger.entries.get(from) ?? 0) : 0;
    const after = ledger.used - (ledger.entries.get(id) ?? 0) - moved + bytes;
    if (after > limit) return { ok: false, used: ledger.used };
    ledger.entries.set(id, bytes);
    if (typeof ttlSeconds === 'number') ledger.expires.set(id, this.#now() + ttlSeconds * 1000);
    else ledger.expires.delete(id);
    if (from !== undefined && from !== id) {
      ledger.entries.delete(from);
      ledger.expires.delete(from);
    }
    ledger.used = after;
    return { ok: true, used: after };
  }

  async dropBytes(key: string, id: string) {
    const ledger = this.#byteLedger(key);
    if (!ledger) return 0;
    ledger.used -= ledger.entries.get(id) ?? 0;
    ledger.entries.delete(id);
    ledger.expires.delete(id);
    if (ledger.entries.size === 0) this.#bytes.delete(key);
    return ledger.used;
  }

  async bytesUsed(key: string) {
    return this.#byteLedger(key)?.used ?? 0;
  }

  /** A byte ledger with its expired entries dropped. */
  #byteLedger(key: string): ByteLedger | undefined {
    const ledger = this.#bytes.get(key);
    if (!ledger || ledger.expires.size === 0) return ledger;
    const now = this.#now();
    for (const [id, at] of ledger.expires) {
      if (at > now) continue;
      ledger.used -= ledger.entries.get(id) ?? 0;
      ledger.entries.delete(id);
      ledger.expires.delete(id);
    }
    if (ledger.entries.size > 0) return ledger;
    this.#bytes.delete(key);
    return undefined;
  }

  #ledger(key: string, ttlSeconds: number): Ledger {
    this.#sweep();
    let ledger = this.#live(this.#ledgers, key);
    if (!ledger) this.#ledgers.set(key, (ledger = { used: 0, reserved: new Map(), settled: new Set(), expiresAt: 0 }));
    ledger.expiresAt = Math.max(ledger.expiresAt, this.#now() + ttlSeconds * 1000);
    return ledger;
  }

  #live<T extends { expiresAt: number }>(map: Map<string, T>, key: string): T | undefined {
    const value = map.get(key);
    if (value && value.expiresAt <= this.#now()) {
      map.delete(key);
      return undefined;
    }
    return value;
  }

  /** Drops expired entries now and then, so memory stays bounded by live subjects. */
  #sweep(): void {
    if (++this.#ops % 1000 !== 0) return;
    const now = this.#now();
    for (const map of [this.#ledgers, this.#counters] as Map<string, { expiresAt: number }>[]) {
      for (const [key, value] of map) if (value.expiresAt <= now) map.delete(key);
    }
  }
}
