/**
 * What <video-to-3d-uploader> needs once there is a video to send or a job to show, and not
 * before: the job bridge (JobController), the request controller (the
 * send's key, abort and 429 countdown, the page's one ticker) and the scene of a finished job. The
 * element loads this module with the first video chosen or the first job it shows, beside its views.
 */
import type { ReactiveControllerHost } from 'lit';
import type { MediaClient } from '../../client/media-client.js';
import type { CheckedVideo } from '../../client/validate-video.js';
import { JobController } from '../../jobs/job-controller.js';
import { RequestController } from '../shared/request-controller.js';
import { SceneController } from './scene.js';

export interface Running {
  jobs: JobController<'video'>;
  request: RequestController;
  scene: SceneController;
  /** Uploads the checked `file` and creates its job; resolves once the job exists, rejects as the send does. */
  send(file: File, checked: CheckedVideo): Promise<unknown>;
}

export interface RunningOptions {
  client(): MediaClient;
  /** The host shows a running clock now. */
  ticking(): boolean;
}

export function running(host: ReactiveControllerHost & HTMLElement, { client, ticking }: RunningOptions): Running {
  const jobs = new JobController(host, { kind: 'video', client });
  const request = new RequestController(host, { running: ticking });
  return {
    jobs,
    request,
    scene: new SceneController(host, client, () => jobs.refresh()),
    send: (file, checked) => {
      const summary = { name: file.name, bytes: file.size, seconds: Math.round(checked.durationSeconds) };
      // One key per chosen file: a retry after a lost answer replays the job instead of charging again; a double click sends once.
      return request.send(
        ({ key, signal, onWait }) => jobs.start(file, { idempotencyKey: key, signal, summary, onWait }),
        { input: file },
      );
    },
  };
}
