import type { ErrorParams, ErrorReason, ModelJob, ModelStats, VideoJob } from '../api/index.js';

export type JobKind = 'video' | 'model';
/** `creating`: recorded, no handle yet (sending, or the answer was lost). The rest are the API's. */
export type JobStatus = 'creating' | 'queued' | 'processing' | 'succeeded' | 'failed' | 'expired';

/**
 * A job as the page knows it: what every job event carries (the job engine's `JobRecord` adds only
 * the request it keeps until the job exists). Defined with the events, which import nothing but the
 * API's types, so the engine depends on its events and never the other way round.
 */
export interface JobSnapshot {
  /** Local id: the creating call's Idempotency-Key. */
  id: string;
  /** Endpoint and hashed session subject. */
  scope: string;
  kind: JobKind;
  idempotencyKey: string;
  /** What was asked, for lists and labels (file name and size, prompt, quality). No file contents. */
  summary: Record<string, string | number | boolean>;
  createdAt: number;
  updatedAt: number;
  status: JobStatus;
  progress: number;
  /** The proxy's job handle, once the 202 arrived. */
  handle?: string;
  /** The latest job view from the proxy (output links, stats, seed, error). */
  job?: VideoJob | ModelJob;
  error?: JobRecordError;
  /** When the output's download links stop working (ms since the epoch). */
  linksExpireAt?: number;
  finishedAt?: number;
}

/** What the engine itself reports, beside the API's job error codes. */
export type EngineErrorCode = 'interrupted' | 'video_gone' | 'expired' | 'not_found' | 'cancelled';

/**
 * Why a job failed or expired. `code`: the engine's own (`interrupted`: cut by a reload before its
 * video was kept; `video_gone`: cut by a reload, and the browser no longer has the video it kept
 * to send again; `expired`: purged upstream; `not_found`: unknown to this session; `cancelled`: its
 * upload was stopped) or the API's. `message`: the API's English sentence, for developers only;
 * the engine's own conditions have none. Elements show text made from `code` and `params`.
 */
export interface JobRecordError {
  code: EngineErrorCode | (string & {});
  params?: ErrorParams;
  message?: string;
}

/**
 * The job's own moments, dispatched by JobController on its host element: the job exists (created,
 * or adopted after a reload) and it moved. Its end is the family's `mk-succeeded` or `mk-failed`
 * (README "The family's words"), whose detail is the same record.
 */
export type JobEventType = 'mk-job-created' | 'mk-job-progressed';

/** What a job event says beside the record. */
export interface JobEventExtras {
  /** The job ended while the page was closed or before it was reloaded (the first answer after a reload). */
  whileAway: boolean;
  /** A failed job whose charge was refunded (every job that was created and then failed). */
  refunded: boolean;
  /** A failed or expired job: why, in the kit's stable words (`mk-failed` only). */
  reason?: ErrorReason;
  /** With `reason` (`mk-failed` only). */
  params?: ErrorParams;
  /** A succeeded 3D job's result: the GLB's download URL (absolute; a proxy link that expires, see `job.output.links_expire_at`), its statistics and its seed. */
  model?: ModelResult;
}

/** What a succeeded 3D model job made. */
export interface ModelResult {
  url: string;
  stats: ModelStats;
  seed: number;
}

/** What a job event says: the record and the extras (also the detail of a job's `mk-succeeded` and `mk-failed`). */
export type JobEventDetail = JobSnapshot & JobEventExtras;

/** The detail of a job event: the record, `whileAway` and `refunded` always, the model and the reason when there are. */
export function jobEventDetail(record: JobSnapshot, extras: Partial<JobEventExtras> = {}): JobEventDetail {
  return {
    ...record,
    whileAway: extras.whileAway ?? false,
    refunded: extras.refunded ?? false,
    ...(extras.model ? { model: extras.model } : {}),
    ...(extras.reason ? { reason: extras.reason, params: extras.params ?? {} } : {}),
  };
}

/** A job was created (or adopted) or moved; `detail` is its record. Its end is `mk-succeeded` or `mk-failed` (events/outcome.ts) with the same detail. */
export class JobEvent extends Event {
  readonly detail: JobEventDetail;

  constructor(type: JobEventType, record: JobSnapshot, extras: Partial<JobEventExtras> = {}) {
    super(type, { bubbles: true, composed: true });
    this.detail = jobEventDetail(record, extras);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-job-created': JobEvent;
    'mk-job-progressed': JobEvent;
  }
}

/** The job record an event carries: a job event's, or a job's `mk-succeeded`/`mk-failed` (a refused request's `mk-failed` carries none). */
export function jobDetail(event: Event): JobEventDetail | undefined {
  const detail = (event as Event & { detail?: unknown }).detail;
  return detail && typeof detail === 'object' && 'kind' in detail && 'status' in detail
    ? (detail as JobEventDetail)
    : undefined;
}
