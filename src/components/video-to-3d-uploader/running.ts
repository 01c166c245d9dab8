/**
 * What <video-to-3d-uploader> needs once there is a video to send or a job to show, and not
 * before: the kit's job engine (job-engine.ts: the job bridge, the request controller, the value
 * following the job shown), the scene of a finished job, and how a job becomes the scene value: a
 * running value once it has its handle, and the committed scene once it succeeded, its PLY kept
 * (the proxy streams it from upstream into the site's store, or the site's `assetHandler` takes
 * the bytes: the viewer's own download, not a second one). The element loads this module with the
 * first video chosen, job shown or value set, beside its views; its first load only checks values.
 */
import type { ReactiveControllerHost } from 'lit';
import type { MediaClient } from '../../client/media-client.js';
import type { JobRecord } from '../../jobs/job-store.js';
import { jobEngine } from '../shared/job-engine.js';
import type { JobEngine, JobRunController } from '../shared/job-run.js';
import type { AnnouncerController } from '../shared/announcer.js';
import type { KeepFile, ResultValueController } from '../shared/result-value.js';
import type { VideoCheckController } from './check.js';
import { SceneController } from './scene.js';
import type { SceneValue } from './value.js';

export interface Running extends JobEngine<'video', SceneValue> {
  scene: SceneController;
  /** Makes the chosen video fit where it breaks a limit (once), uploads it and creates its job; rejects as the send does. */
  upload(video: VideoCheckController, announce: AnnouncerController): Promise<void>;
}

export interface RunningOptions {
  client(): MediaClient;
  /** The host shows a running clock now. */
  ticking(): boolean;
  /** The host's value. */
  results: ResultValueController<SceneValue>;
}

/** The value of a job the page knows (`status` as given: the job may be further already). */
const toValue = (record: JobRecord, status: SceneValue['status']): SceneValue => ({
  v: 1,
  kind: 'scene',
  status,
  asset: null,
  job: record.handle!,
  created: new Date(record.createdAt).toISOString(),
  name: String(record.summary['name'] ?? ''),
});

export function running(
  host: ReactiveControllerHost & HTMLElement,
  run: JobRunController<SceneValue, 'video', Running>,
  { client, ticking, results }: RunningOptions,
): Running {
  const engine = jobEngine(host, run, {
    kind: 'video',
    client,
    running: ticking,
    results,
    toValue,
    // What is kept of a succeeded job: its PLY only (the zip holds the same PLY).
    keep: (record) => {
      const stem = String(record.summary['name'] ?? '').replace(/\.[^.]*$/, '') || 'scene';
      // The bytes for an `assetHandler`: the viewer's own download, not a second one.
      const blob = async () => (await scene.original(record)) ?? Promise.reject(new Error('The scene is gone.'));
      // The type the proxy serves a PLY with (there is no registered one).
      const file: KeepFile = {
        name: `${stem}.ply`,
        type: 'application/octet-stream',
        job: { job: record.handle!, file: 'ply' },
        blob,
      };
      return {
        files: [file],
        // The job's handle goes once the PLY is kept (the kept file outlives the job).
        place: ({ job: _kept, ...value }, [asset]) => ({ ...value, asset: asset ?? null }),
      };
    },
    summary: (value) => ({ name: value.name }),
  });
  const scene = new SceneController(host, client, () => engine.jobs.refresh());
  return {
    ...engine,
    scene,
    upload: async (video, announce) => {
      const { file: chosen, fit } = video;
      announce.resetProgress();
      const { file, checked } = fit ? await fit.toSend(chosen!) : { file: chosen!, checked: video.checked! };
      announce.resetProgress();
      const summary = { name: file.name, bytes: file.size, seconds: Math.round(checked.durationSeconds) };
      // One key per chosen file: a retry after a lost answer replays the job instead of charging again; a double click sends once.
      await engine.send(file, summary, { input: file });
      video.clear();
    },
  };
}
