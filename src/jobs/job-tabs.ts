/**
 * What the tabs of one browser share about jobs, for as long as their poller lives: a Web Lock per
 * job so that one tab polls it (the others wait, and one of them takes over when that tab closes),
 * a Web Lock per job being created so that a resend after a reload never races the tab still
 * sending it, and a BroadcastChannel on which the polling tab posts each new record.
 */
import type { JobRecord } from './job-store.js';

interface Message {
  scope: string;
  record: JobRecord;
}

export class JobTabs {
  readonly #prefix: string;
  readonly #channel: BroadcastChannel;

  /** `prefix`: the channel's name and the locks' prefix. `onRecord`: a record another tab posted. */
  constructor(prefix: string, onRecord: (scope: string, record: JobRecord) => void) {
    this.#prefix = prefix;
    this.#channel = new BroadcastChannel(prefix);
    this.#channel.onmessage = (e: MessageEvent<Partial<Message> | null>) => {
      const { scope, record } = e.data ?? {};
      if (record && typeof scope === 'string') onRecord(scope, record);
    };
  }

  /** Tells the other tabs a record's new state. */
  post(scope: string, record: JobRecord): void {
    this.#channel.postMessage({ scope, record } satisfies Message);
  }

  /** Runs `send` holding the job's creation lock (waiting while another tab holds it). */
  async creating<T>(scope: string, id: string, send: () => Promise<T>): Promise<T> {
    return navigator.locks.request(this.#name('create', scope, id), send);
  }

  /** Runs `work` holding the job's creation lock when no tab is creating that job now; else does nothing. */
  async ifNotCreating(scope: string, id: string, work: () => Promise<void>): Promise<void> {
    await navigator.locks.request(this.#name('create', scope, id), { ifAvailable: true }, async (lock) => {
      if (lock) await work();
    });
  }

  /** Runs `poll` as the job's one polling tab; waits while another tab is (until `signal` aborts). */
  async polling(scope: string, id: string, signal: AbortSignal, poll: () => Promise<void>): Promise<void> {
    await navigator.locks.request(this.#name('poll', scope, id), { signal }, poll);
  }

  close(): void {
    this.#channel.close();
  }

  #name(lock: 'create' | 'poll', scope: string, id: string): string {
    return `${this.#prefix}:${lock}:${scope}:${id}`;
  }
}
