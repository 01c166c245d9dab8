/**
 * Who hears about a job in this tab, for as long as the poller lives: listeners per job id, each
 * called in turn (one that throws is logged and the others still hear), and the bytes of the
 * uploads this tab is sending, with the latest report kept for a listener that comes late.
 */
import type { UploadProgress } from '../events/upload-progressed.js';

/** Listeners by job id. */
export class Listeners<T> {
  readonly #byId = new Map<string, Set<(value: T) => void>>();
  readonly #what: string;

  /** `what`: the listener in the console's words when one throws ("a job listener"). */
  constructor(what: string) {
    this.#what = what;
  }

  /** Adds a listener; returns the function that removes it, which answers whether it was the job's last. */
  add(id: string, listener: (value: T) => void): () => boolean {
    let set = this.#byId.get(id);
    if (!set) this.#byId.set(id, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size > 0 || this.#byId.get(id) !== set) return false;
      this.#byId.delete(id);
      return true;
    };
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  emit(id: string, value: T): void {
    for (const listener of this.#byId.get(id) ?? []) {
      try {
        listener(value);
      } catch (err) {
        console.error(`[mediakit] ${this.#what} threw`, err);
      }
    }
  }

  clear(): void {
    this.#byId.clear();
  }
}

/** `listener`, called only with what differs (by `key`) from what it heard last. */
export function distinct<T>(listener: (value: T) => void, key: (value: T) => string): (value: T) => void {
  let heard: string | undefined;
  return (value) => {
    const k = key(value);
    if (k === heard) return;
    heard = k;
    listener(value);
  };
}

/** The bytes of the creating uploads in flight in this tab (never stored, never posted to other tabs). */
export class UploadFeed {
  readonly #listeners = new Listeners<UploadProgress | undefined>('an upload listener');
  /** The latest report of each upload in flight. */
  readonly #latest = new Map<string, UploadProgress>();

  /** Calls `listener` with each report, starting with the latest one when an upload is under way. */
  listen(id: string, listener: (progress: UploadProgress | undefined) => void): () => void {
    const remove = this.#listeners.add(id, listener);
    const now = this.#latest.get(id);
    if (now) listener(now);
    return () => void remove();
  }

  report(id: string, progress: UploadProgress): void {
    this.#latest.set(id, progress);
    this.#listeners.emit(id, progress);
  }

  /** The upload ended; when it did not create the job, its listeners hear `undefined`. */
  end(id: string, created: boolean): void {
    if (this.#latest.delete(id) && !created) this.#listeners.emit(id, undefined);
  }

  clear(): void {
    this.#listeners.clear();
  }
}
