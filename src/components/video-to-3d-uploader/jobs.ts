/**
 * `UploaderJobs`: the kit's one job flow (JobRunController: send, adopt, resume, history, the
 * value) as <video-to-3d-uploader> runs it, and the phases it shows. Its engine with the scene
 * (running.ts) loads with the first video chosen, job shown or value set, not with the page; a
 * value's kept scene is shown from its URL; adopting a job forgets the video chosen, and no
 * unfinished job is resumed over one. Its phase: converting or uploading, else the job's, else
 * the video's checks; announced, focused and timed (PhaseController, PhaseTimingsController).
 * With `notify`, a user who is not looking hears when the job ends (LazyAwayController).
 */
import type { ReactiveControllerHost } from 'lit';
import type { MediaClient } from '../../client/media-client.js';
import { isAbort } from '../../internal/small.js';
import type { AnnouncerController } from '../shared/announcer.js';
import type { FieldFacts } from '../shared/field.js';
import type { ResumeHost } from '../shared/job-history.js';
import { JobRunController } from '../shared/job-run.js';
import { LazyAwayController } from '../shared/lazy-away.js';
import type { LocalizeController } from '../shared/localize.js';
import { PhaseController } from '../shared/phase-controller.js';
import { PhaseTimingsController } from '../shared/phase-timings.js';
import type { ResultValueController } from '../shared/result-value.js';
import type { VideoCheckController } from './check.js';
import type { Running } from './running.js';
import { FOCUS, PHASES, RUNNING, SAY, TIMED, type Strings, type UploaderStatus } from './types.js';
import type { SceneValue } from './value.js';

// The job engine with the scene, loaded with the first video chosen, job shown or value set.
const loadRunning = () => import('./running.js');

type Host = ReactiveControllerHost &
  HTMLElement &
  ResumeHost & {
    jobId: string;
    value: string;
    notify: boolean;
    readonly status: UploaderStatus;
    readonly renderRoot: ParentNode;
  };

export interface UploaderJobsOptions {
  t: LocalizeController<Strings>;
  announce: AnnouncerController;
  client(): MediaClient;
  /** The element's value. */
  results: ResultValueController<SceneValue>;
  /** The video chosen: adopting a job forgets it, and an unfinished job is not resumed over it. */
  video: VideoCheckController;
  /** Shows the phase (the element's custom states). */
  states(names: readonly UploaderStatus[], now: UploaderStatus): void;
}

export class UploaderJobs extends JobRunController<SceneValue, 'video', Running> {
  readonly phases: PhaseController<UploaderStatus>;
  // User Timing: validate, upload, queue, process, first-frame (README "Telemetry").
  readonly timings: PhaseTimingsController<UploaderStatus>;
  readonly away: LazyAwayController;
  readonly #video: VideoCheckController;
  readonly #t: LocalizeController<Strings>;
  readonly #announce: AnnouncerController;

  constructor(host: Host, { t, announce, client, results, video, states }: UploaderJobsOptions) {
    super(host, {
      kind: 'video',
      client,
      results,
      load: async (run) =>
        (await loadRunning()).running(host, run, {
          client,
          ticking: () => RUNNING.includes(host.status),
          results,
        }),
      showKept: (value, run) => run.scene.showKept(value.asset!.url),
      // Adopting a job forgets the video chosen, the key and the scene shown.
      onShow: () => (video.clear(), this.run?.request.forget(), this.run?.scene.clear()),
      // No session (offline, refused): the value stays as it is, its job not followed.
      onFollowFailed: (err) =>
        console.warn('[mediakit] <video-to-3d-uploader> could not follow the job of its value', err),
      busy: () => video.file !== undefined,
      refreshFinished: true,
    });
    this.#video = video;
    this.#t = t;
    this.#announce = announce;
    this.phases = new PhaseController<UploaderStatus>(host, {
      phases: PHASES,
      derive: () => this.#phase(),
      states,
      announcer: announce,
      say: (now) => (now in SAY ? t.term(SAY[now as keyof typeof SAY]) : undefined),
      focus: (now) => FOCUS[now],
      // A resend counts its quarters from zero again, as its bytes do.
      onChange: (now) => now === 'resending' && announce.resetProgress(),
    });
    this.timings = new PhaseTimingsController(host, {
      tag: 'video-to-3d-uploader',
      phase: () => this.phases.phase,
      spans: TIMED,
      endOn: { 'first-frame': 'mk-viewer-loaded' },
    });
    this.away = new LazyAwayController(host, (e, jobErrorText) =>
      e.type === 'mk-succeeded'
        ? [t.term('vtNotifyTitle'), String(e.detail.summary['name'] ?? '')]
        : [t.term('vtNotifyFailedTitle'), jobErrorText(t, e.detail.error)],
    );
  }

  /**
   * Uploads the checked video and starts the job (the host checked that one is ready and none is
   * being sent); a video that breaks a limit is converted first (once: a retry sends the same
   * converted file with the same Idempotency-Key). `fail` is told a failure's error, or a cancel's
   * notice (none when a reset or a value set cut it).
   */
  async upload(fail: (error: unknown, notice: string) => void): Promise<void> {
    const video = this.#video;
    const { fit } = video;
    this.away.askPermission();
    try {
      await (await this.running()).upload(video, this.#announce);
    } catch (err) {
      if (!isAbort(err)) fail(err, '');
      else
        fail(undefined, video.file ? this.#t.term(fit && !fit.converted ? 'vtConvertCancelled' : 'vtCancelled') : '');
    }
  }

  override hostUpdate(): void {
    super.hostUpdate();
    this.run?.scene.follow(this.record);
  }

  /** What field mode's box says of the element. */
  fieldFacts(t: LocalizeController<Strings>, error: unknown): FieldFacts {
    const status = this.phases.phase;
    return {
      t,
      title: t.term('vtTitle'),
      detail: this.results.value?.name,
      icon: 'scene',
      busy: ['uploading', 'resending', 'queued', 'processing'].includes(status),
      failed: status === 'failed' || status === 'expired',
      jobError: this.record?.error?.code,
      error: error ?? this.run?.scene.error,
    };
  }

  #phase(): UploaderStatus {
    const video = this.#video;
    if (video.fit?.converting) return 'converting';
    if (this.busy) return 'uploading';
    const record = this.record;
    if (record) return record.status === 'creating' ? 'resending' : record.status;
    if (this.kept) return 'succeeded';
    return video.checking ? 'checking' : video.checked ? 'ready' : 'idle';
  }
}
