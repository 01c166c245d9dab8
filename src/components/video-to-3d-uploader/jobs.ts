/**
 * `UploaderJobs`: the job <video-to-3d-uploader> shows and this device's list of them. What
 * sends and follows a job (running.ts: the job bridge, the request controller, the scene) loads
 * with the first video chosen or the first job shown, not with the page: until then `run` is
 * undefined. A job is adopted by id or handle (from `job-id`, a recent scene, the unfinished one a
 * reload left, or a value's); a value's kept scene is shown with no job. Not a controller itself:
 * the ones it makes are the host's.
 */
import type { ReactiveControllerHost } from 'lit';
import type { JobRecord } from '../../jobs/job-store.js';
import { isTerminal } from '../../jobs/job-status.js';
import { JobHistoryController, pollerFor, resumesUnfinished, type ResumeHost } from '../shared/job-history.js';
import { ResultValueController, type AssetHandler } from '../shared/result-value.js';
import type { VideoCheckController } from './check.js';
import type { Running, RunningOptions } from './running.js';
import { checkScene, type SceneValue } from './value.js';

// The job bridge with the request controller, loaded with the first video chosen or job shown.
const loadRunning = () => import('./running.js');

type Host = ReactiveControllerHost &
  HTMLElement &
  ResumeHost & { jobId: string; value: string; assetHandler: AssetHandler | undefined; keep: 'auto' | 'none' };

export interface UploaderJobsOptions extends Omit<RunningOptions, 'results'> {
  /** The video chosen: adopting a job forgets it, and an unfinished job is not resumed over it. */
  video: VideoCheckController;
  /** Stops what the host shows and runs, with no event (as a reset), before a value set from outside shows. */
  stop(): void;
}

export class UploaderJobs {
  readonly history: JobHistoryController;
  /** The host's value (value.ts): a value set from outside shows its kept scene, or follows its job. */
  readonly results: ResultValueController<SceneValue>;
  /** What sends and follows a job, once loaded. */
  run: Running | undefined;
  /** The URL of the kept scene shown (a value's asset), when no job is shown. */
  kept = '';
  readonly #host: Host;
  readonly #o: UploaderJobsOptions;
  /** Counts the values shown, so a slower earlier one never lands over a later one. */
  #shown = 0;

  constructor(host: Host, options: UploaderJobsOptions) {
    this.#host = host;
    this.#o = options;
    this.history = new JobHistoryController(host, {
      kind: 'video',
      client: options.client,
      onRestored: (records) => this.#restored(records),
    });
    this.results = new ResultValueController<SceneValue>(host, {
      kind: 'scene',
      client: options.client,
      check: checkScene,
      show: (value) => (options.stop(), value && this.show(value)),
    });
  }

  /** Loads what sends and follows a job (once). */
  async running(): Promise<Running> {
    const { running } = await loadRunning();
    return (this.run ??= running(this.#host, { ...this.#o, results: this.results }));
  }

  /** No job shown, no key (a new video gets a new Idempotency-Key), no scene. */
  clear(): void {
    this.kept = '';
    this.#shown++;
    this.run?.jobs.clear();
    this.run?.request.forget();
    this.run?.scene.clear();
  }

  /** Shows the job `id` (an id or handle) instead of the video or job shown. */
  adopt(id: string): void {
    const known = this.history.find(id);
    this.kept = '';
    this.#shown++;
    this.#o.video.clear();
    this.run?.request.forget();
    this.run?.scene.clear();
    void this.running().then(({ jobs }) =>
      jobs.adopt(known?.id ?? id, { resumed: known !== undefined && !isTerminal(known.status) }),
    );
    // A finished job from an earlier visit: ask once whether it still exists (and get fresh links).
    if (known?.status === 'succeeded')
      void pollerFor(this.#o.client())
        .then((poller) => poller.refresh(known.id))
        .catch(() => undefined);
  }

  /**
   * Shows a value set from outside (after `clear()`): its kept scene from its URL, with no API call;
   * else its job, followed again (a scene not kept is shown from the job's links).
   */
  show(value: SceneValue): void {
    const shown = ++this.#shown;
    this.kept = value.asset?.url ?? '';
    void this.running().then((run) =>
      run.show(
        value,
        () => shown === this.#shown,
        (id) => this.adopt(id),
      ),
    );
  }

  /**
   * This device's jobs were read: show the one asked for, else (a standalone element only,
   * `resumesUnfinished`) resume an unfinished one.
   */
  #restored(records: readonly JobRecord[]): void {
    const unfinished = resumesUnfinished(this.#host) ? records.find((r) => !isTerminal(r.status)) : undefined;
    if (this.#host.jobId) this.adopt(this.#host.jobId);
    // Not over a value the site set, nor over what the user is doing.
    else if (unfinished && !this.#host.value)
      void this.running().then(
        ({ jobs, request }) =>
          this.#host.value ||
          jobs.record ||
          this.#o.video.file ||
          request.busy ||
          jobs.adopt(unfinished.id, { resumed: true }),
      );
  }
}
