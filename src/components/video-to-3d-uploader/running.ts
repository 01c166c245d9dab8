/**
 * What <video-to-3d-uploader> needs once there is a video to send or a job to show, and not
 * before: the job bridge (JobController), the request controller (the
 * send's key, abort and 429 countdown, the page's one ticker), the scene of a finished job, and
 * how jobs become the element's value (scene-value.ts). The element loads this module with the
 * first video chosen, job shown or value set, beside its views.
 */
import type { ReactiveControllerHost } from 'lit';
import type { MediaClient } from '../../client/media-client.js';
import type { CheckedVideo } from '../../client/validate-video.js';
import { JobController } from '../../jobs/job-controller.js';
import { JobPoller } from '../../jobs/job-poller.js';
import { RequestController } from '../shared/request-controller.js';
import type { ResultValueController } from '../shared/result-value.js';
import { SceneController } from './scene.js';
import { followValue } from './scene-value.js';
import type { SceneValue } from './value.js';

export interface Running {
  jobs: JobController<'video'>;
  request: RequestController;
  scene: SceneController;
  /** Uploads the checked `file` and creates its job; resolves once the job exists, rejects as the send does. */
  send(file: File, checked: CheckedVideo): Promise<unknown>;
  /**
   * Shows a value set from outside while `current()`: its kept scene, or its job, which `adopt` is
   * given by its id in this browser's list, where it is added (and polled once) when this browser
   * never saw it (another device's, another editor's of the same scope).
   */
  show(value: SceneValue, current: () => boolean, adopt: (id: string) => void): Promise<unknown>;
}

export interface RunningOptions {
  client(): MediaClient;
  /** The host shows a running clock now. */
  ticking(): boolean;
  /** The host's value. */
  results: ResultValueController<SceneValue>;
}

export function running(
  host: ReactiveControllerHost & HTMLElement,
  { client, ticking, results }: RunningOptions,
): Running {
  const jobs = new JobController(host, { kind: 'video', client });
  const request = new RequestController(host, { running: ticking });
  const scene = new SceneController(host, client, () => jobs.refresh());
  const restored = followValue(host, {
    results,
    blob: async (record) => (await scene.original(record)) ?? Promise.reject(new Error('The scene is gone.')),
  });
  return {
    jobs,
    request,
    scene,
    send: (file, checked) => {
      const summary = { name: file.name, bytes: file.size, seconds: Math.round(checked.durationSeconds) };
      // One key per chosen file: a retry after a lost answer replays the job instead of charging again; a double click sends once.
      return request.send(
        ({ key, signal, onWait }) => jobs.start(file, { idempotencyKey: key, signal, summary, onWait }),
        { input: file },
      );
    },
    show: async (value, current, adopt) => {
      if (value.asset) return current() && scene.showKept(value.asset.url);
      const { job, name, created } = value;
      restored(job!);
      try {
        const poller = JobPoller.for(client());
        const known = (await poller.list()).find((r) => r.handle === job);
        if (!known) {
          // Its id is its handle (no creating request of this browser's names it); the poll says where it is.
          await poller.store.put({
            id: job!,
            idempotencyKey: job!,
            handle: job!,
            kind: 'video',
            scope: await client().scope(),
            summary: { name },
            createdAt: Date.parse(created),
            updatedAt: Date.now(),
            status: 'queued',
            progress: 0,
          });
          await poller.refresh(job!).catch(() => undefined);
        }
        if (current()) adopt(known?.id ?? job!);
      } catch (err) {
        // No session (offline, refused): the value stays as it is, its job not followed.
        console.warn('[mediakit] <video-to-3d-uploader> could not follow the job of its value', err);
      }
    },
  };
}
