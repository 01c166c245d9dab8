/**
 * The ProxyStore on Deno KV (`await Deno.openKv()`, on Deno Deploy shared by every instance): one
 * value per key, each step a checked atomic commit retried when another instance changed the value
 * first, so budgets, idempotency and rate limits hold across instances.
 *
 * ```js
 * import { createProxy } from '@mediakit/elements/proxy';
 * import { DenoKvStore } from '@mediakit/elements/proxy/deno-kv';
 * createProxy({ ..., store: new DenoKvStore(await Deno.openKv()) });
 * ```
 *
 * A Deno KV value holds at most 64 KiB: a subject's budget window records every call id it
 * settled (about 45 bytes each), so one subject can make about 1,400 charged calls a window.
 */
import type { ProxyStore } from './state-store.js';
import { forgetAt, runStep, unchanged, type StepName, type StoreRecord } from './state-records.js';

type KvKey = readonly unknown[];

/** The parts of a `Deno.Kv` the store uses. */
export interface DenoKvLike {
  get(key: KvKey): Promise<{ key: KvKey; value: unknown; versionstamp: string | null }>;
  atomic(): DenoKvAtomicLike;
}

export interface DenoKvAtomicLike {
  check(...checks: { key: KvKey; versionstamp: string | null }[]): DenoKvAtomicLike;
  set(key: KvKey, value: unknown, options?: { expireIn?: number }): DenoKvAtomicLike;
  delete(key: KvKey): DenoKvAtomicLike;
  commit(): Promise<{ ok: boolean }>;
}

const MAX_TRIES = 100;

export class DenoKvStore implements ProxyStore {
  readonly #kv: DenoKvLike;
  readonly #prefix: string;

  /** `kv`: an open `Deno.Kv`; `prefix`: the first part of every key (default `mediakit`). */
  constructor(kv: DenoKvLike, options: { prefix?: string } = {}) {
    if (!kv || typeof kv.get !== 'function' || typeof kv.atomic !== 'function')
      throw new TypeError('DenoKvStore needs an open Deno KV database: new DenoKvStore(await Deno.openKv()).');
    this.#kv = kv;
    this.#prefix = options.prefix ?? 'mediakit';
  }

  async #step<T>(name: string, step: StepName, args: unknown[]): Promise<T> {
    const key = [this.#prefix, name] as const;
    for (let i = 0; i < MAX_TRIES; i++) {
      const entry = await this.#kv.get(key);
      const now = Date.now();
      const out = runStep(step, (entry.value ?? undefined) as StoreRecord | undefined, now, args);
      if (out.next === unchanged) return out.result as T;
      const tx = this.#kv.atomic().check(entry);
      if (out.next === undefined) tx.delete(key);
      else {
        const at = forgetAt(out.next);
        // Deno KV deletes an expired value on its own (some time after); the record's own times decide before that.
        tx.set(key, out.next, at === undefined ? undefined : { expireIn: Math.max(1, at - now) });
      }
      if ((await tx.commit()).ok) return out.result as T;
      // Another instance changed the value since it was read: read it again.
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 ** i)));
    }
    throw new Error(`DenoKvStore: ${step} on "${name}" lost ${MAX_TRIES} races in a row`);
  }

  reserve(ledger: string, id: string, amount: number, limit: number, ttlSeconds: number) {
    return this.#step<{ ok: boolean; used: number; created: boolean }>(ledger, 'reserve', [
      id,
      amount,
      limit,
      ttlSeconds,
    ]);
  }
  settle(ledger: string, id: string, amount: number, ttlSeconds: number) {
    return this.#step<number>(ledger, 'settle', [id, amount, ttlSeconds]);
  }
  release(ledger: string, id: string) {
    return this.#step<number>(ledger, 'release', [id]);
  }
  used(ledger: string) {
    return this.#step<number>(ledger, 'used', []);
  }
  hit(counter: string, windowSeconds: number) {
    return this.#step<{ count: number; resetMs: number }>(counter, 'hit', [windowSeconds]);
  }
  holdBytes(ledger: string, id: string, bytes: number, limit: number, from?: string, ttlSeconds?: number) {
    return this.#step<{ ok: boolean; used: number }>(ledger, 'holdBytes', [id, bytes, limit, from, ttlSeconds]);
  }
  dropBytes(ledger: string, id: string) {
    return this.#step<number>(ledger, 'dropBytes', [id]);
  }
  bytesUsed(ledger: string) {
    return this.#step<number>(ledger, 'bytesUsed', []);
  }
}
