/**
 * What a job's answer links to: the views a poll answers (a job's files behind signed, expiring
 * links, so a job id alone opens nothing) and the downloads those links open.
 */
import { LIMITS, routePath, type ModelJob, type RouteMatch, type VideoJob } from '../api/index.js';
import type { SandboxClock } from './clock.js';
import { bytesResponse, fail } from './http.js';
import { viewModelJob, viewVideoJob, type JobRecord, type ModelJobRecord, type VideoJobRecord } from './jobs.js';
import type { LinkSigner } from './links.js';

/** The 3D job's files; each is its own signature scope, so one file's link opens no other. */
type ModelFile = 'downloadModel' | 'downloadTurntable' | 'downloadReference';
const FILE_LABEL: Record<ModelFile, string> = {
  downloadModel: 'model',
  downloadTurntable: 'turntable',
  downloadReference: 'reference image',
};
const FILE_FIELD: Record<ModelFile, string> = {
  downloadModel: 'output.model_url',
  downloadTurntable: 'output.turntable_url',
  downloadReference: 'reference_image_url',
};

/** A video job as a poll answers it: once succeeded, its signed, expiring download links. */
export function videoView(job: VideoJobRecord, clock: SandboxClock, links: LinkSigner): VideoJob {
  const now = clock.now();
  const view = viewVideoJob(job, now);
  let output: VideoJob['output'] = null;
  if (view.status === 'succeeded') {
    const expires = now + LIMITS.archiveLinkLifetimeMs;
    const q = links.query(job.id, 'archive', expires);
    output = {
      ply_url: `${routePath('downloadVideoJob', job.id)}?extract=ply&${q}`,
      archive_url: `${routePath('downloadVideoJob', job.id)}?${q}`,
      kind: 'gaussian_splat_ply',
      links_expire_at: new Date(expires).toISOString(),
    };
  }
  return { job_id: job.id, status: view.status, progress: view.progress, output, error: view.error };
}

/** A 3D job as a poll answers it: its files behind signed, expiring links. */
export function modelView(job: ModelJobRecord, clock: SandboxClock, links: LinkSigner): ModelJob {
  const now = clock.now();
  const view = viewModelJob(job, now);
  const out: ModelJob = {
    job_id: job.id,
    status: view.status,
    progress: view.progress,
    mode: job.mode,
    quality: job.quality,
    seed: job.seed,
    output: null,
    error: view.error,
  };
  // Signed and expiring like the archive links, so a job id alone (from a ledger, a log) opens
  // nothing: the GLB's texture and the reference are the visitor's own pictures.
  const expires = now + LIMITS.archiveLinkLifetimeMs;
  const signed = (route: ModelFile) => `${routePath(route, job.id)}?${links.query(job.id, route, expires)}`;
  if (job.mode === 'text') out.reference_image_url = signed('downloadReference');
  if (view.status === 'succeeded' && job.artifact) {
    out.output = {
      model_url: signed('downloadModel'),
      provider_model_url: `/__provider/models/${job.id}.glb?${links.query(job.id, 'provider', expires)}`,
      turntable_url: signed('downloadTurntable'),
      stats: job.artifact.stats,
    };
  }
  return out;
}

/** A job's file behind a signed link (the job settled first by the caller). */
export function downloadFile(
  job: JobRecord,
  match: RouteMatch,
  url: URL,
  clock: SandboxClock,
  links: LinkSigner,
): Response {
  if (match.route.name === 'downloadVideoJob') {
    if (job.kind !== 'video') fail('not_found', 'No video job with this id exists.');
    const verdict = links.verify(
      job.id,
      'archive',
      url.searchParams.get('expires'),
      url.searchParams.get('sig'),
      clock.now(),
    );
    if (verdict !== 'ok')
      fail(
        'link_expired',
        verdict === 'expired'
          ? 'This download link has expired (links last about 60 minutes). Poll the job again for fresh links.'
          : 'This download link is not valid. Use the ply_url or archive_url of a fresh poll of the job.',
      );
    const view = viewVideoJob(job, clock.now());
    if (view.status === 'expired')
      fail('expired', 'The provider purged this result. Start a new job to reconstruct the video again.');
    if (view.status !== 'succeeded' || !job.artifact)
      fail('not_found', 'This job has no result yet; download once its status is succeeded.');
    const extract = url.searchParams.get('extract');
    if (extract !== null && extract !== 'ply')
      fail('invalid_request', 'extract may only be "ply" (the raw .ply); leave it out for the zip archive.');
    return extract === 'ply'
      ? bytesResponse(job.artifact.ply, 'application/octet-stream', {
          'content-disposition': 'attachment; filename="scene.ply"',
        })
      : bytesResponse(job.artifact.zip, 'application/zip', {
          'content-disposition': 'attachment; filename="scene.zip"',
        });
  }
  if (job.kind !== 'model') fail('not_found', 'No 3D generation job with this id exists.');
  const file = match.route.name as ModelFile;
  const verdict = links.verify(job.id, file, url.searchParams.get('expires'), url.searchParams.get('sig'), clock.now());
  if (verdict !== 'ok')
    fail(
      'link_expired',
      verdict === 'expired'
        ? `This ${FILE_LABEL[file]} link has expired (links last about 60 minutes). Poll the job again for a fresh one.`
        : `This ${FILE_LABEL[file]} link is not valid: a job id alone downloads nothing. Poll the job again and use its ${FILE_FIELD[file]}.`,
    );
  if (file === 'downloadReference') {
    if (!job.reference) fail('not_found', 'This job has no reference image: only text-mode jobs render one.');
    return bytesResponse(job.reference, 'image/png');
  }
  const view = viewModelJob(job, clock.now());
  if (view.status !== 'succeeded' || !job.artifact)
    fail('not_found', 'This job has no model yet; download once its status is succeeded.');
  if (match.route.name === 'downloadTurntable') return bytesResponse(job.artifact.turntable, 'video/mp4');
  const download = url.searchParams.get('download');
  if (download !== null && download !== '1' && download !== '0')
    fail('invalid_request', 'download may be 1 (save as a file) or 0.');
  return bytesResponse(
    job.artifact.glb,
    'model/gltf-binary',
    download === '1' ? { 'content-disposition': 'attachment; filename="model.glb"' } : {},
  );
}

/** The provider's own link to a 3D job's model (`provider_model_url`). */
export function providerModelFile(
  job: JobRecord | undefined,
  url: URL,
  clock: SandboxClock,
  links: LinkSigner,
): Response {
  if (!job || job.kind !== 'model' || !job.artifact) fail('not_found', 'No model at this address.');
  const verdict = links.verify(
    job.id,
    'provider',
    url.searchParams.get('expires'),
    url.searchParams.get('sig'),
    clock.now(),
  );
  if (verdict !== 'ok')
    fail(
      'link_expired',
      'This provider link has expired or is not valid. Use model_url, or poll the job for a fresh provider_model_url.',
    );
  return bytesResponse(job.artifact.glb, 'model/gltf-binary');
}
