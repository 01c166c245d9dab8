/**
 * `LazyAwayController`: "finished while you were away" (AwayController: a notification and a mark
 * in the tab's title) for an element with a `notify` property, told of each job's end
 * (`mk-succeeded`, `mk-failed`) in the element's own words. Its code loads when `notify` is
 * first set: a page that never asks for notifications never downloads it.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { jobDetail, type JobEvent } from '../../events/job-events.js';
import type { AwayController } from './away.js';

type Host = ReactiveControllerHost & HTMLElement & { notify: boolean };

export class LazyAwayController implements ReactiveController {
  readonly host: Host;
  #away: AwayController | undefined;
  #loading = false;

  /** `words`: the notification's title and body for a job that ended. */
  constructor(host: Host, words: (event: JobEvent) => [title: string, body: string]) {
    this.host = host;
    host.addController(this);
    // A job's end (a refused request's `mk-failed` ends no job).
    const ended = (e: Event) => jobDetail(e) && this.#away?.finished(...words(e as JobEvent));
    host.addEventListener('mk-succeeded', ended);
    host.addEventListener('mk-failed', ended);
  }

  hostUpdate(): void {
    if (!this.host.notify || this.#loading) return;
    this.#loading = true;
    void import('./away.js').then(
      (m) => (this.#away = new m.AwayController(this.host)),
      () => (this.#loading = false),
    );
  }

  /** Call from a click handler (AwayController.askPermission): asks once, only with `notify`. */
  askPermission(): void {
    this.#away?.askPermission();
  }
}
