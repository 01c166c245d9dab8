/**
 * `LazyAwayController`: "finished while you were away" (AwayController: a notification and a mark
 * in the tab's title) for an element with a `notify` property, told of each job's end
 * (`mk-succeeded`, `mk-failed`) in the element's own words. Its code, and the words for why a job
 * failed (job-error.ts), load when `notify` is first set: a page that never asks for notifications
 * never downloads them.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { jobDetail, type JobEvent } from '../../events/job-events.js';
import type { AwayController } from './away.js';
import type { jobErrorText } from './job-error.js';

/** The notification's title and body for a job that ended; `why` words a failed job's error. */
export type AwayWords = (event: JobEvent, why: typeof jobErrorText) => [title: string, body: string];

type Host = ReactiveControllerHost & HTMLElement & { notify: boolean };

export class LazyAwayController implements ReactiveController {
  readonly host: Host;
  #away: AwayController | undefined;
  #why: typeof jobErrorText | undefined;
  #loading = false;

  constructor(host: Host, words: AwayWords) {
    this.host = host;
    host.addController(this);
    // A job's end (a refused request's `mk-failed` ends no job).
    const ended = (e: Event) => jobDetail(e) && this.#why && this.#away?.finished(...words(e as JobEvent, this.#why));
    host.addEventListener('mk-succeeded', ended);
    host.addEventListener('mk-failed', ended);
  }

  hostUpdate(): void {
    if (!this.host.notify || this.#loading) return;
    this.#loading = true;
    void Promise.all([import('./away.js'), import('./job-error.js')]).then(
      ([m, { jobErrorText }]) => ((this.#why = jobErrorText), (this.#away = new m.AwayController(this.host))),
      () => (this.#loading = false),
    );
  }

  /** Call from a click handler (AwayController.askPermission): asks once, only with `notify`. */
  askPermission(): void {
    this.#away?.askPermission();
  }
}
