/**
 * Job state machines of the spec ("States and transitions"), evaluated against the sandbox clock.
 * A job's timeline is fixed at creation (queued, then stage-based processing, then done), so a
 * poll only reads where the clock is; transitions with side effects (the refund of a failed job,
 * expiry) are settled once, when first observed or when the ledger is read.
 */
import type { JobError, ModelJob, ModelQuality, ModelMode, ModelStats, VideoJobStatus } from '../api/index.js';
import type { SceneArtifact } from './platform.js';

/** Sandbox time a reconstruction takes: 3 minutes plus 20 s per second of footage (3 min clip: 63 min). */
export function videoJobDurationMs(videoSeconds: number): number {
  return (180 + 20 * videoSeconds) * 1000;
}

/** Sandbox time a generation takes: 30/45/60 s by quality, +15 s for text mode's reference image, +5 s per extra view. */
export function modelJobDurationMs(quality: ModelQuality, mode: ModelMode, images: number): number {
  const base = { fast: 30, standard: 45, high: 60 }[quality];
  return (base + (mode === 'text' ? 15 : 0) + Math.max(0, images - 1) * 5) * 1000;
}

/** Video stages (fraction of the timeline where each starts, progress reported during it). */
const VIDEO_STAGES: readonly [number, number][] = [
  [0.1, 10], // extracting frames
  [0.25, 25], // estimating camera poses
  [0.45, 50], // training the splats
  [0.85, 85], // exporting
];

const QUEUED_FRACTION = 0.1;
const FAIL_FRACTION = 0.5;

interface JobBase {
  id: string;
  accountId: string;
  apiKey: string;
  createdAt: number;
  durationMs: number;
  /** Fails at FAIL_FRACTION of its timeline (a job_fail fault). */
  failing: boolean;
  /** Artifact generation failed: the job fails as soon as it would have succeeded. */
  artifactFailed: boolean;
  refunded: boolean;
}

export interface VideoJobRecord extends JobBase {
  kind: 'video';
  artifact: SceneArtifact | undefined;
  expired: boolean;
}

export interface ModelArtifact {
  glb: Uint8Array;
  turntable: Uint8Array;
  stats: ModelStats;
}

export interface ModelJobRecord extends JobBase {
  kind: 'model';
  mode: ModelMode;
  quality: ModelQuality;
  seed: number;
  reference: Uint8Array | undefined;
  artifact: ModelArtifact | undefined;
}

export type JobRecord = VideoJobRecord | ModelJobRecord;

export interface JobView<S> {
  status: S;
  progress: number;
  error: JobError | null;
  /** Sandbox time of the failure, when failed (for the refund's ledger entry). */
  failedAt?: number;
}

const FAILURE_MESSAGES = {
  video:
    'Reconstruction failed: too few frames could be matched to each other. Film one continuous take, moving slowly around the scene with steady light, and keep textured surfaces in view. Your credits were refunded.',
  model:
    'Generation failed at the provider. Your credits were refunded; try again, or use a photo with one centred object on a clean background.',
  artifact: 'The provider could not produce the result. Your credits were refunded; try again.',
};

function timeline(job: JobBase, now: number): { t: number; failedAt: number | undefined } {
  const t = Math.max(0, (now - job.createdAt) / job.durationMs);
  if (job.failing && t >= FAIL_FRACTION) return { t, failedAt: job.createdAt + job.durationMs * FAIL_FRACTION };
  return { t, failedAt: undefined };
}

export function viewVideoJob(job: VideoJobRecord, now: number): JobView<VideoJobStatus> {
  const { t, failedAt } = timeline(job, now);
  if (failedAt !== undefined)
    return {
      status: 'failed',
      progress: 50,
      error: { code: 'reconstruction_failed', message: FAILURE_MESSAGES.video },
      failedAt,
    };
  if (t < QUEUED_FRACTION) return { status: 'queued', progress: 0, error: null };
  if (t >= 1 && job.artifactFailed)
    return {
      status: 'failed',
      progress: 85,
      error: { code: 'provider_error', message: FAILURE_MESSAGES.artifact },
      failedAt: job.createdAt + job.durationMs,
    };
  if (t >= 1 && job.artifact) {
    if (job.expired)
      return {
        status: 'expired',
        progress: 100,
        error: {
          code: 'expired',
          message: 'The provider purged this result. Start a new job to reconstruct the video again.',
        },
      };
    return { status: 'succeeded', progress: 100, error: null };
  }
  let progress = 0;
  for (const [start, p] of VIDEO_STAGES) if (t >= start) progress = p;
  // Past the timeline but the artifact is still being written: the last stage goes on.
  return { status: 'processing', progress, error: null };
}

export function viewModelJob(job: ModelJobRecord, now: number): JobView<ModelJob['status']> {
  const { t, failedAt } = timeline(job, now);
  if (failedAt !== undefined)
    return {
      status: 'failed',
      progress: Math.round(FAIL_FRACTION * 100),
      error: { code: 'provider_error', message: FAILURE_MESSAGES.model },
      failedAt,
    };
  if (t < QUEUED_FRACTION) return { status: 'queued', progress: 0, error: null };
  if (t >= 1 && job.artifactFailed)
    return {
      status: 'failed',
      progress: 99,
      error: { code: 'provider_error', message: FAILURE_MESSAGES.artifact },
      failedAt: job.createdAt + job.durationMs,
    };
  if (t >= 1 && job.artifact) return { status: 'succeeded', progress: 100, error: null };
  const progress = Math.min(99, Math.floor(((t - QUEUED_FRACTION) / (1 - QUEUED_FRACTION)) * 100));
  return { status: 'processing', progress, error: null };
}
