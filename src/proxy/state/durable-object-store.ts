/**
 * The ProxyStore on Cloudflare Durable Objects: one object per key (a subject's budget window, a
 * rate-limit counter, a byte ledger), so every step on a key runs inside its one object, one at a
 * time (`blockConcurrencyWhile`), and its record lives in the object's storage. Any number of
 * Worker isolates share budgets, idempotency and rate limits through it.
 *
 * ```js
 * import { createProxy } from '@mediakit/elements/proxy';
 * import { DurableObjectStore } from '@mediakit/elements/proxy/durable-object';
 * export { ProxyStoreObject } from '@mediakit/elements/proxy/durable-object';
 * // wrangler: durable_objects.bindings = [{ name = "MEDIAKIT_STORE", class_name = "ProxyStoreObject" }]
 * //           migrations = [{ tag = "v1", new_sqlite_classes = ["ProxyStoreObject"] }]
 * createProxy({ ..., store: new DurableObjectStore(env.MEDIAKIT_STORE) });
 * ```
 */
import type { ProxyStore } from './state-store.js';
import { forgetAt, runStep, unchanged, type StepName, type StoreRecord } from './state-records.js';

/** The parts of a Durable Object namespace binding the store uses. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/** The parts of a Durable Object's state the object uses. */
export interface DurableObjectStateLike {
  storage: {
    get(key: string): Promise<unknown>;
    put(key: string, value: unknown): Promise<void>;
    delete(key: string): Promise<boolean>;
    setAlarm?(at: number): Promise<void>;
    getAlarm?(): Promise<number | null>;
  };
  blockConcurrencyWhile<T>(fn: () => Promise<T>): Promise<T>;
}

const RECORD = 'record';

/** The Durable Object class: export it from the Worker under the name its binding's `class_name` gives. */
export class ProxyStoreObject {
  readonly #state: DurableObjectStateLike;

  constructor(state: DurableObjectStateLike, _env?: unknown) {
    this.#state = state;
  }

  async fetch(request: Request): Promise<Response> {
    let call: { step: StepName; args: unknown[] };
    try {
      call = (await request.json()) as typeof call;
      if (typeof call.step !== 'string' || !Array.isArray(call.args)) throw new TypeError('bad call');
    } catch {
      return new Response('a store call is { step, args }', { status: 400 });
    }
    const storage = this.#state.storage;
    try {
      const result = await this.#state.blockConcurrencyWhile(async () => {
        const rec = (await storage.get(RECORD)) as StoreRecord | undefined;
        const step = runStep(call.step, rec, Date.now(), call.args);
        if (step.next === undefined) await storage.delete(RECORD);
        else if (step.next !== unchanged) {
          await storage.put(RECORD, step.next);
          // An expiring record is deleted at its time, so budget windows and counters leave nothing behind.
          const at = forgetAt(step.next);
          if (at !== undefined && storage.setAlarm && storage.getAlarm) {
            const current = await storage.getAlarm();
            if (current === null || current < at) await storage.setAlarm(at);
          }
        }
        return step.result;
      });
      return Response.json({ result });
    } catch (err) {
      return new Response(String((err as Error)?.message ?? err), { status: 500 });
    }
  }

  async alarm(): Promise<void> {
    await this.#state.blockConcurrencyWhile(async () => {
      const rec = (await this.#state.storage.get(RECORD)) as StoreRecord | undefined;
      const at = rec ? forgetAt(rec) : undefined;
      if (!rec) return;
      if (at !== undefined && at <= Date.now()) await this.#state.storage.delete(RECORD);
      else if (at !== undefined) await this.#state.storage.setAlarm?.(at);
    });
  }
}

export class DurableObjectStore implements ProxyStore {
  readonly #namespace: DurableObjectNamespaceLike;
  readonly #prefix: string;

  /** `namespace`: the Worker's binding of `ProxyStoreObject`; `prefix` namespaces keys (default `mediakit:`). */
  constructor(namespace: DurableObjectNamespaceLike, options: { prefix?: string } = {}) {
    if (!namespace || typeof namespace.idFromName !== 'function' || typeof namespace.get !== 'function')
      throw new TypeError(
        'DurableObjectStore needs the Durable Object namespace binding of ProxyStoreObject (env.MEDIAKIT_STORE).',
      );
    this.#namespace = namespace;
    this.#prefix = options.prefix ?? 'mediakit:';
  }

  async #call<T>(key: string, step: StepName, args: unknown[]): Promise<T> {
    const stub = this.#namespace.get(this.#namespace.idFromName(this.#prefix + key) as never);
    const response = await stub.fetch('https://mediakit-store/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ step, args: args.map((a) => (a === undefined ? null : a)) }),
    });
    if (!response.ok)
      throw new Error(`DurableObjectStore: ${step} failed (${response.status}): ${await response.text()}`);
    return ((await response.json()) as { result: T }).result;
  }

  reserve(ledger: string, id: string, amount: number, limit: number, ttlSeconds: number) {
    return this.#call<{ ok: boolean; used: number; created: boolean }>(ledger, 'reserve', [
      id,
      amount,
      limit,
      ttlSeconds,
    ]);
  }
  settle(ledger: string, id: string, amount: number, ttlSeconds: number) {
    return this.#call<number>(ledger, 'settle', [id, amount, ttlSeconds]);
  }
  release(ledger: string, id: string) {
    return this.#call<number>(ledger, 'release', [id]);
  }
  used(ledger: string) {
    return this.#call<number>(ledger, 'used', []);
  }
  hit(counter: string, windowSeconds: number) {
    return this.#call<{ count: number; resetMs: number }>(counter, 'hit', [windowSeconds]);
  }
  holdBytes(ledger: string, id: string, bytes: number, limit: number, from?: string, ttlSeconds?: number) {
    // JSON has no Infinity: an unlimited hold is the largest safe integer.
    return this.#call<{ ok: boolean; used: number }>(ledger, 'holdBytes', [
      id,
      bytes,
      Math.min(limit, Number.MAX_SAFE_INTEGER),
      from,
      ttlSeconds,
    ]);
  }
  dropBytes(ledger: string, id: string) {
    return this.#call<number>(ledger, 'dropBytes', [id]);
  }
  bytesUsed(ledger: string) {
    return this.#call<number>(ledger, 'bytesUsed', []);
  }
}
