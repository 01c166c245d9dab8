/**
 * `ModelHistoryController`: the user's recent 3D jobs at this endpoint, read once from the job
 * store when the element first connects (this device's records, so they survive a reload) and
 * kept in step with the job on screen. The host decides what to adopt from the list.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { MediaClient } from '../../client/media-client.js';
import { JobPoller } from '../../jobs/job-poller.js';
import type { JobRecord } from '../../jobs/job-store.js';
import type { ModelResultController } from './model-result.js';

export interface ModelHistoryOptions {
  client(): MediaClient;
  result: ModelResultController;
  /** The records were read (newest first): the host may adopt one. */
  onRestored(records: readonly JobRecord[]): void;
}

export class ModelHistoryController implements ReactiveController {
  readonly host: ReactiveControllerHost;
  #records: JobRecord[] = [];
  #restored = false;
  readonly #o: ModelHistoryOptions;

  constructor(host: ReactiveControllerHost, options: ModelHistoryOptions) {
    this.host = host;
    this.#o = options;
    host.addController(this);
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

  /** Up to eight recent jobs for the list, without the one shown and without unsent ones. */
  recent(current: string | undefined): JobRecord[] {
    return this.#records.filter((r) => r.id !== current && r.status !== 'creating').slice(0, 8);
  }

  /** The job on screen changed: its newest copy replaces the listed one, or it joins the list once sent. */
  track(record: JobRecord): void {
    const i = this.#records.findIndex((r) => r.id === record.id);
    if (i >= 0 && this.#records[i] !== record) this.#set(this.#records.map((r) => (r.id === record.id ? record : r)));
    else if (i < 0 && record.status !== 'creating') this.#set([record, ...this.#records]);
  }

  #set(records: JobRecord[]): void {
    this.#records = records;
    this.host.requestUpdate();
  }

  async #restore(): Promise<void> {
    try {
      const records = (await JobPoller.for(this.#o.client()).resume()).filter((r) => r.kind === 'model');
      this.#set(records);
      this.#o.onRestored(records);
      await this.#o.result.readThumbs(records.slice(0, 8));
    } catch (err) {
      console.warn('[mediakit] could not read the job list', err);
    }
  }
}
