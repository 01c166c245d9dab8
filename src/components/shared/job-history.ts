/**
 * `JobHistoryController`: the user's recent jobs of one kind at this endpoint, for an element's
 * "recent" list. Read once from the job store when the element first connects (this device's
 * records, so they survive a reload; `JobPoller.resume()` also sends again what a reload cut and
 * polls what is unfinished), then kept in step with the job on screen. The host decides what to
 * adopt from the list (`onRestored`); `resumesUnfinished()` says whether it may take this device's
 * unfinished job without being given it.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { MediaClient } from '../../client/media-client.js';
import type { JobPoller } from '../../jobs/job-poller.js';
import type { JobKind, JobRecord } from '../../jobs/job-store.js';
import { loadOnce } from '../../internal/small.js';

// The job engine (sending, polling, the cross-tab channel) is not part of the page's first load:
// it is imported when the element connects, while the session is asked for, and the first render
// (the element's idle view) never waits for it.
const loadEngine = loadOnce(() => import('../../jobs/job-poller.js'));
/** The page's one poller for a client, its module imported on first use (memoized; a failed import is asked again). */
export const pollerFor = (client: MediaClient): Promise<JobPoller> => loadEngine().then((m) => m.JobPoller.for(client));

export interface JobHistoryOptions {
  kind: JobKind;
  client(): MediaClient;
  /** The records were read (newest first): the host may adopt one, read thumbnails... */
  onRestored?(records: readonly JobRecord[]): void;
  /** How many `recent()` lists at most. Default 8. */
  limit?: number;
  /** Default: the page's poller for that client (as JobController's). */
  poller?: (client: MediaClient) => JobPoller;
}

/** What decides whether an element may take this device's unfinished job by itself. */
export interface ResumeHost {
  /** `auto` (default) or `none`. */
  resume: 'auto' | 'none';
  appearance: 'full' | 'field';
  name: string;
  readonly form: HTMLFormElement | null;
}

/**
 * Whether an element with no value and no `job-id` shows this device's unfinished job (the one a
 * reload cut): only a standalone element on a plain page. A field (`appearance="field"`), a named
 * control in a form, or `resume="none"` stands for one document's value, and any document of the
 * same browser may be open in it: it shows only the job it started, or the one its value names,
 * never another document's.
 */
export function resumesUnfinished(host: ResumeHost): boolean {
  return host.resume !== 'none' && host.appearance !== 'field' && !(host.name && host.form);
}

const RETRY_MS = [1000, 3000, 10_000, 30_000];

export class JobHistoryController implements ReactiveController {
  readonly host: ReactiveControllerHost;
  readonly #o: JobHistoryOptions;
  #records: readonly JobRecord[] = [];
  #restored = false;

  constructor(host: ReactiveControllerHost, options: JobHistoryOptions) {
    this.host = host;
    this.#o = options;
    host.addController(this);
  }

  /** Every known record, newest first. */
  get records(): readonly JobRecord[] {
    return this.#records;
  }

  hostConnected(): void {
    if (this.#restored) return;
    this.#restored = true;
    void this.#restore();
  }

  /** A known record by id or handle. */
  find(id: string): JobRecord | undefined {
    return this.#records.find((r) => r.id === id || r.handle === id);
  }

  /** The recent jobs for the list: without the one shown (`current`, an id) and without unsent ones. */
  recent(current?: string): JobRecord[] {
    return this.#records.filter((r) => r.id !== current && r.status !== 'creating').slice(0, this.#o.limit ?? 8);
  }

  /** The job on screen changed: its newest copy replaces the listed one, or it joins the list once sent. */
  track(record: JobRecord | undefined): void {
    if (!record) return;
    const i = this.#records.findIndex((r) => r.id === record.id);
    if (i >= 0 && this.#records[i] !== record) this.#set(this.#records.map((r) => (r.id === record.id ? record : r)));
    else if (i < 0 && record.status !== 'creating') this.#set([record, ...this.#records]);
  }

  #set(records: readonly JobRecord[]): void {
    this.#records = records;
    this.host.requestUpdate();
  }

  /**
   * Reads the records, and reads again after a failure (a session not ready yet, storage busy while
   * the previous page goes away): an element never stays idle over a job this device knows about.
   * Tries again after 1, 3, 10 and 30 s, and at once when the page comes back or goes online.
   */
  async #restore(attempt = 0): Promise<void> {
    try {
      const client = this.#o.client();
      // The session (the scope of the job list) is asked for while the engine's code loads.
      void client.scope().catch(() => undefined);
      const poller = this.#o.poller ? this.#o.poller(client) : await pollerFor(client);
      const records = (await poller.resume()).filter((r) => r.kind === this.#o.kind);
      this.#set(records);
      this.#o.onRestored?.(records);
    } catch (err) {
      const delay = RETRY_MS[attempt];
      console.warn(
        `[mediakit] could not read the job list${delay === undefined ? '' : `; trying again in ${delay / 1000} s`}`,
        err,
      );
      if (delay === undefined || typeof window === 'undefined') return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          window.removeEventListener('pageshow', done);
          window.removeEventListener('online', done);
          resolve();
        };
        const timer = setTimeout(done, delay);
        window.addEventListener('pageshow', done);
        window.addEventListener('online', done);
      });
      return this.#restore(attempt + 1);
    }
  }
}
