/**
 * How a job record changes: what a 202 or a poll makes of it, what a listener would notice, when
 * a record was cut by a reload, and the summary a new record starts with. No I/O here.
 */
import type { ModelJob, VideoJob, VideoJobCreated, ModelJobCreated } from '../api/index.js';
import type { ModelJobInput } from '../client/media-client.js';
import { isTerminal, type JobKind, type JobRecord } from './job-store.js';

/** A record still being created this long after its last write, without its request, was cut by a reload. */
const ORPHAN_AFTER_MS = 10_000;

/** Cut by a reload before its request was kept, so it cannot be sent again. */
export function wasCut(record: JobRecord): boolean {
  return (
    record.status === 'creating' &&
    record.request === undefined &&
    !record.handle &&
    Date.now() - record.updatedAt > ORPHAN_AFTER_MS
  );
}

/** What a listener would notice: the fields that change between polls, not the re-signed link strings. */
export function changeKey(r: JobRecord): string {
  const output = r.job?.output;
  return JSON.stringify([
    r.status,
    r.progress,
    r.handle ?? null,
    r.error?.code ?? null,
    r.error?.message ?? null,
    r.error?.params ?? null,
    r.linksExpireAt ?? null,
    r.finishedAt ?? null,
    output ? Object.keys(output).sort() : null,
    r.job && 'reference_image_url' in r.job ? Boolean(r.job.reference_image_url) : null,
  ]);
}

/** The record after its creating request was answered: the handle, and no request kept any more. */
export function applyCreated(record: JobRecord, job: VideoJobCreated['data'] | ModelJobCreated['data']): JobRecord {
  const next: JobRecord = {
    ...record,
    handle: job.job_id,
    status: job.status,
    progress: 'progress' in job && typeof job.progress === 'number' ? job.progress : 0,
    ...('output' in job ? { job: job as ModelJob } : {}),
    updatedAt: Date.now(),
  };
  delete next.request;
  return next;
}

/** The record after a poll answered `view`. */
export function applyView(record: JobRecord, view: VideoJob | ModelJob): JobRecord {
  const now = Date.now();
  const expires =
    view.output && 'links_expire_at' in view.output && view.output.links_expire_at
      ? Date.parse(view.output.links_expire_at)
      : undefined;
  const next: JobRecord = { ...record, status: view.status, progress: view.progress, job: view, updatedAt: now };
  if (expires !== undefined && Number.isFinite(expires)) next.linksExpireAt = expires;
  else delete next.linksExpireAt;
  if (view.error) next.error = view.error;
  else delete next.error;
  if (view.status === 'expired' && !view.error) next.error = { code: 'expired' };
  if (isTerminal(view.status)) next.finishedAt ??= now;
  return next;
}

/** The record after a poll found the job gone: 410, purged after its retention period; 404, unknown to this session. */
export function applyGone(record: JobRecord, status: number): JobRecord {
  const now = Date.now();
  const gone =
    status === 410
      ? { status: 'expired' as const, error: { code: 'expired' } }
      : { status: 'failed' as const, error: { code: 'not_found' } };
  return { ...record, ...gone, finishedAt: now, updatedAt: now };
}

/** What a new record says about its request, for lists and labels (no file contents). */
export function summarize(kind: JobKind, request: Blob | ModelJobInput): JobRecord['summary'] {
  if (kind === 'video') {
    const file = request as Blob;
    return { name: file instanceof File ? file.name : 'video', bytes: file.size };
  }
  const r = request as ModelJobInput;
  return {
    mode: r.mode,
    quality: r.quality ?? 'standard',
    ...(r.prompt ? { prompt: r.prompt.slice(0, 300) } : {}),
    ...(r.images ? { images: r.images.length } : {}),
  };
}
