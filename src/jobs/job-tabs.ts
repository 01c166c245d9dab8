/**
 * What the tabs of one browser share about jobs, for as long as their poller lives: a Web Lock per
 * job so that one tab polls it (the others wait, and one of them takes over when that tab closes),
 * a Web Lock per job being created, held by the tab sending it, and a BroadcastChannel on which
 * the polling tab posts each new record.
 *
 * A page that finds a job still being created waits for its creation lock rather than asking
 * whether it is free: a page going away (a reload) keeps its locks for a moment after the new page
 * runs, and a page that asked only once, in that moment, took the job for another tab's and never
 * looked again. Once granted, no tab is sending the job, whenever the page came.
 *
 * Where the browser has no Web Locks or refuses them (an opaque-origin sandboxed frame rejects
 * every request with a SecurityError), the locks are this page's own: the same waits inside the
 * page, and no coordination with other tabs. Such a page keeps its jobs in memory anyway (its
 * storage is refused too), so no other tab knows them; where only the locks are missing (older
 * browsers), two tabs may both poll a job, and a resend that races the first send is answered
 * with the same job (the Idempotency-Key), never charged twice. Without a BroadcastChannel (no
 * browser with Web Locks lacks one) a waiting tab hears a job's news only once it polls itself.
 */
import type { JobRecord } from './job-store.js';
import type { Locks } from './page-locks.js';

interface Message {
  scope: string;
  record: JobRecord;
}

let locksOnce: Promise<Locks> | undefined;

/** The browser's Web Locks where it grants them, else this page's own (asked once per page). */
function locks(): Promise<Locks> {
  return (locksOnce ??= (async () => {
    try {
      const manager = navigator.locks;
      // query() is refused exactly where request() is, and holds nothing.
      await manager.query();
      return manager as unknown as Locks;
    } catch {
      // Loaded only here: most pages never need it.
      return new (await import('./page-locks.js')).PageLocks();
    }
  })());
}

export class JobTabs {
  readonly #prefix: string;
  readonly #channel: BroadcastChannel | undefined;

  /** `prefix`: the channel's name and the locks' prefix. `onRecord`: a record another tab posted. */
  constructor(prefix: string, onRecord: (scope: string, record: JobRecord) => void) {
    this.#prefix = prefix;
    let channel: BroadcastChannel;
    try {
      channel = new BroadcastChannel(prefix);
    } catch {
      // Missing or refused: this tab polls for itself.
      return;
    }
    channel.onmessage = (e: MessageEvent<Partial<Message> | null>) => {
      const { scope, record } = e.data ?? {};
      if (record && typeof scope === 'string') onRecord(scope, record);
    };
    this.#channel = channel;
  }

  /** Tells the other tabs a record's new state. */
  post(scope: string, record: JobRecord): void {
    try {
      this.#channel?.postMessage({ scope, record } satisfies Message);
    } catch {
      // A closed channel (the poller was disposed) or a record it cannot copy: the other tabs
      // learn it from their own polls, and this tab's record is already written.
    }
  }

  /** Runs `send` holding the job's creation lock (waiting while another tab holds it). */
  async creating<T>(scope: string, id: string, send: () => Promise<T>): Promise<T> {
    return (await locks()).request(this.#name('create', scope, id), {}, send);
  }

  /**
   * Runs `work` holding the job's creation lock, once the tab sending the job (a live tab, or a
   * page going away that still holds it) lets go, or at once when none does; until `signal` aborts.
   */
  async takeOver<T>(scope: string, id: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    return (await locks()).request(this.#name('create', scope, id), { signal }, work);
  }

  /** Whether the locks are shared with the other tabs (Web Locks), not only this page's own. */
  async shared(): Promise<boolean> {
    return (await locks()) === (navigator.locks as unknown);
  }

  /** Runs `poll` as the job's one polling tab; waits while another tab is (until `signal` aborts). */
  async polling(scope: string, id: string, signal: AbortSignal, poll: () => Promise<void>): Promise<void> {
    await (await locks()).request(this.#name('poll', scope, id), { signal }, poll);
  }

  close(): void {
    this.#channel?.close();
  }

  #name(lock: 'create' | 'poll', scope: string, id: string): string {
    return `${this.#prefix}:${lock}:${scope}:${id}`;
  }
}
