/**
 * `UploaderJobs`: the job <video-to-3d-uploader> shows and this device's list of them. What
 * sends and follows a job (running.ts: the job bridge, the request controller, the scene) loads
 * with the first video chosen or the first job shown, not with the page: until then `run` is
 * undefined. A job is adopted by id or handle (from `job-id`, a recent scene, or the unfinished one
 * a reload left). Not a controller itself: the ones it makes are the host's.
 */
import type { ReactiveControllerHost } from 'lit';
import { JobPoller } from '../../jobs/job-poller.js';
import { isTerminal, type JobRecord } from '../../jobs/job-store.js';
import { JobHistoryController } from '../shared/job-history.js';
import type { VideoCheckController } from './check.js';
import type { Running, RunningOptions } from './running.js';

// The job bridge with the request controller, loaded with the first video chosen or job shown.
const loadRunning = () => import('./running.js');

type Host = ReactiveControllerHost & HTMLElement & { jobId: string };

export interface UploaderJobsOptions extends RunningOptions {
  /** The video chosen: adopting a job forgets it, and an unfinished job is not resumed over it. */
  video: VideoCheckController;
}

export class UploaderJobs {
  readonly history: JobHistoryController;
  /** What sends and follows a job, once loaded. */
  run: Running | undefined;
  readonly #host: Host;
  readonly #o: UploaderJobsOptions;

  constructor(host: Host, options: UploaderJobsOptions) {
    this.#host = host;
    this.#o = options;
    this.history = new JobHistoryController(host, {
      kind: 'video',
      client: options.client,
      onRestored: (records) => this.#restored(records),
    });
  }

  /** Loads what sends and follows a job (once). */
  async running(): Promise<Running> {
    const { running } = await loadRunning();
    return (this.run ??= running(this.#host, this.#o));
  }

  /** No job shown, no key (a new video gets a new Idempotency-Key), no scene. */
  clear(): void {
    this.run?.jobs.clear();
    this.run?.request.forget();
    this.run?.scene.clear();
  }

  /** Shows the job `id` (an id or handle) instead of the video or job shown. */
  adopt(id: string): void {
    const known = this.history.find(id);
    this.#o.video.clear();
    this.run?.request.forget();
    this.run?.scene.clear();
    void this.running().then(({ jobs }) =>
      jobs.adopt(known?.id ?? id, { resumed: known !== undefined && !isTerminal(known.status) }),
    );
    // A finished job from an earlier visit: ask once whether it still exists (and get fresh links).
    if (known?.status === 'succeeded')
      void JobPoller.for(this.#o.client())
        .refresh(known.id)
        .catch(() => undefined);
  }

  /** This device's jobs were read: show the one asked for, else resume an unfinished one. */
  #restored(records: readonly JobRecord[]): void {
    const unfinished = records.find((r) => !isTerminal(r.status));
    if (this.#host.jobId) this.adopt(this.#host.jobId);
    else if (unfinished)
      void this.running().then(
        ({ jobs, request }) =>
          jobs.record || this.#o.video.file || request.busy || jobs.adopt(unfinished.id, { resumed: true }),
      );
  }
}
