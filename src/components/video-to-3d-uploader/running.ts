/**
 * What <video-to-3d-uploader> needs once there is a video to send or a job to show, and not
 * before: the job bridge (JobController), the request controller (the
 * send's key, abort and 429 countdown, the page's one ticker) and the scene of a finished job. The
 * element loads this module with the first video chosen or the first job it shows, beside its views.
 */
import type { ReactiveControllerHost } from 'lit';
import type { MediaClient } from '../../client/media-client.js';
import { JobController } from '../../jobs/job-controller.js';
import { RequestController } from '../shared/request-controller.js';
import { SceneController } from './scene.js';

export interface Running {
  jobs: JobController<'video'>;
  request: RequestController;
  scene: SceneController;
}

/** `ticking`: the host shows a running clock now. */
export function running(
  host: ReactiveControllerHost & HTMLElement,
  client: () => MediaClient,
  ticking: () => boolean,
): Running {
  const jobs = new JobController(host, { kind: 'video', client });
  return {
    jobs,
    request: new RequestController(host, { running: ticking }),
    scene: new SceneController(host, client, () => jobs.refresh()),
  };
}
