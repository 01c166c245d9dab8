/**
 * The ProxyStore's rules as pure functions over one key's record, for stores that keep one JSON
 * value per key and make each step atomic their own way (a Durable Object's single thread, Deno
 * KV's checked commits). Each step takes the stored record (undefined when absent) and the time,
 * and returns the record to store (undefined: delete it) and the method's answer. The rules are
 * MemoryStore's: a ledger, a counter or a byte ledger per key, expiry by the stored time.
 */

export interface LedgerRecord {
  used: number;
  reserved: Record<string, number>;
  settled: Record<string, true>;
  expiresAt: number;
}

export interface CounterRecord {
  count: number;
  expiresAt: number;
}

export interface BytesRecord {
  used: number;
  entries: Record<string, number>;
  /** When entries set with a time to live expire (ms). */
  expires: Record<string, number>;
}

export type StoreRecord = LedgerRecord | CounterRecord | BytesRecord;

export interface Step<T> {
  /** The record to store; undefined deletes the key; `unchanged` leaves it as it is. */
  next: StoreRecord | undefined | typeof unchanged;
  result: T;
}

export const unchanged = Symbol('unchanged');

const live = <T extends { expiresAt: number }>(rec: StoreRecord | undefined, now: number): T | undefined =>
  rec && (rec as unknown as T).expiresAt > now ? (rec as unknown as T) : undefined;

function ledgerOf(rec: StoreRecord | undefined, now: number, ttlSeconds: number): LedgerRecord {
  const found = live<LedgerRecord>(rec, now);
  const ledger = found
    ? { ...found, reserved: { ...found.reserved }, settled: { ...found.settled } }
    : { used: 0, reserved: {}, settled: {}, expiresAt: 0 };
  ledger.expiresAt = Math.max(ledger.expiresAt, now + ttlSeconds * 1000);
  return ledger;
}

/** The live entries of a byte ledger (expired ones dropped), copied. */
function bytesOf(rec: StoreRecord | undefined, now: number): BytesRecord {
  const found = rec as BytesRecord | undefined;
  const out: BytesRecord = { used: 0, entries: {}, expires: {} };
  if (!found) return out;
  for (const [id, bytes] of Object.entries(found.entries)) {
    const at = found.expires[id];
    if (at !== undefined && at <= now) continue;
    out.entries[id] = bytes;
    out.used += bytes;
    if (at !== undefined) out.expires[id] = at;
  }
  return out;
}

const bytesNext = (b: BytesRecord) => (Object.keys(b.entries).length === 0 ? undefined : b);

export const steps = {
  reserve(
    rec: StoreRecord | undefined,
    now: number,
    id: string,
    amount: number,
    limit: number,
    ttlSeconds: number,
  ): Step<{ ok: boolean; used: number; created: boolean }> {
    const ledger = ledgerOf(rec, now, ttlSeconds);
    if (id in ledger.reserved || id in ledger.settled)
      return { next: ledger, result: { ok: true, used: ledger.used, created: false } };
    if (ledger.used + amount > limit) return { next: ledger, result: { ok: false, used: ledger.used, created: false } };
    ledger.used += amount;
    ledger.reserved[id] = amount;
    return { next: ledger, result: { ok: true, used: ledger.used, created: true } };
  },

  settle(rec: StoreRecord | undefined, now: number, id: string, amount: number, ttlSeconds: number): Step<number> {
    const ledger = ledgerOf(rec, now, ttlSeconds);
    if (id in ledger.settled) return { next: ledger, result: ledger.used };
    ledger.used += amount - (ledger.reserved[id] ?? 0);
    delete ledger.reserved[id];
    ledger.settled[id] = true;
    return { next: ledger, result: ledger.used };
  },

  release(rec: StoreRecord | undefined, now: number, id: string): Step<number> {
    const found = live<LedgerRecord>(rec, now);
    if (!found) return { next: rec ? undefined : unchanged, result: 0 };
    const amount = found.reserved[id];
    if (amount === undefined) return { next: unchanged, result: found.used };
    const reserved = { ...found.reserved };
    delete reserved[id];
    const next = { ...found, reserved, used: found.used - amount };
    return { next, result: next.used };
  },

  used(rec: StoreRecord | undefined, now: number): Step<number> {
    return { next: unchanged, result: live<LedgerRecord>(rec, now)?.used ?? 0 };
  },

  hit(rec: StoreRecord | undefined, now: number, windowSeconds: number): Step<{ count: number; resetMs: number }> {
    const found = live<CounterRecord>(rec, now);
    const counter = found ? { ...found } : { count: 0, expiresAt: now + windowSeconds * 1000 };
    counter.count++;
    return { next: counter, result: { count: counter.count, resetMs: counter.expiresAt - now } };
  },

  holdBytes(
    rec: StoreRecord | undefined,
    now: number,
    id: string,
    bytes: number,
    limit: number,
    from?: string | null,
    ttlSeconds?: number | null,
  ): Step<{ ok: boolean; used: number }> {
    const ledger = bytesOf(rec, now);
    const moving = from !== undefined && from !== null && from !== id;
    const moved = moving ? (ledger.entries[from] ?? 0) : 0;
    const after = ledger.used - (ledger.entries[id] ?? 0) - moved + bytes;
    if (after > limit) return { next: bytesNext(ledger), result: { ok: false, used: ledger.used } };
    ledger.entries[id] = bytes;
    if (ttlSeconds !== undefined && ttlSeconds !== null) ledger.expires[id] = now + ttlSeconds * 1000;
    else delete ledger.expires[id];
    if (moving) {
      delete ledger.entries[from];
      delete ledger.expires[from];
    }
    ledger.used = after;
    return { next: ledger, result: { ok: true, used: after } };
  },

  dropBytes(rec: StoreRecord | undefined, now: number, id: string): Step<number> {
    const ledger = bytesOf(rec, now);
    ledger.used -= ledger.entries[id] ?? 0;
    delete ledger.entries[id];
    delete ledger.expires[id];
    return { next: bytesNext(ledger), result: ledger.used };
  },

  bytesUsed(rec: StoreRecord | undefined, now: number): Step<number> {
    return { next: unchanged, result: bytesOf(rec, now).used };
  },
};

export type StepName = keyof typeof steps;

/** Runs step `name` with the method's arguments after the key (JSON-safe: undefined passed as null). */
export function runStep(name: StepName, rec: StoreRecord | undefined, now: number, args: unknown[]): Step<unknown> {
  if (!Object.prototype.hasOwnProperty.call(steps, name)) throw new TypeError(`no store step "${String(name)}"`);
  return (steps[name] as (rec: StoreRecord | undefined, now: number, ...a: unknown[]) => Step<unknown>)(
    rec,
    now,
    ...args,
  );
}

/** When a record may be forgotten (ms since the epoch), for stores that expire keys; undefined: never. */
export function forgetAt(rec: StoreRecord): number | undefined {
  if ('expiresAt' in rec) return rec.expiresAt;
  const times = Object.values((rec as BytesRecord).expires);
  return times.length === Object.keys((rec as BytesRecord).entries).length && times.length > 0
    ? Math.max(...times)
    : undefined;
}
