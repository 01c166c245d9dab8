/**
 * Exclusive locks within one page, for where the browser has no Web Locks or refuses them (an
 * opaque-origin sandboxed frame rejects every request): the waits job-tabs.ts needs inside the
 * page, without any coordination between tabs.
 */
export interface LockOptions {
  ifAvailable?: boolean;
  signal?: AbortSignal;
}
export type Locks = { request<T>(name: string, options: LockOptions, work: (lock: unknown) => Promise<T>): Promise<T> };

/** Exclusive locks within this page, by name, granted in the order asked; `ifAvailable` and `signal` as in Web Locks. */
export class PageLocks implements Locks {
  /** A held lock's waiters, first to be granted first. */
  readonly #held = new Map<string, (() => void)[]>();

  async request<T>(name: string, options: LockOptions, work: (lock: unknown) => Promise<T>): Promise<T> {
    const { signal } = options;
    signal?.throwIfAborted();
    const waiters = this.#held.get(name);
    if (!waiters) this.#held.set(name, []);
    else if (options.ifAvailable) return work(null);
    else {
      await new Promise<void>((resolve, reject) => {
        const grant = () => {
          signal?.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          waiters.splice(waiters.indexOf(grant), 1);
          reject(signal!.reason);
        };
        waiters.push(grant);
        signal?.addEventListener('abort', abort, { once: true });
      });
    }
    try {
      return await work({ name });
    } finally {
      // Handed straight to the next waiter, so no one else slips in between.
      const next = this.#held.get(name)!.shift();
      if (next) next();
      else this.#held.delete(name);
    }
  }
}
