/**
 * Polls and files: job polls (views rebuilt, failed jobs refunded to the budget once), the
 * mirrored download endpoints, and download tickets. Downloads stream; a ticket counts against
 * the poll rate limit of the subject it was minted for.
 */
import { ApiError, routePath, type Capability } from '../../api/index.js';
import type { Call, Ctx } from '../context.js';
import type { JobHandle } from '../tokens/handles.js';
import type { DownloadPolicy, PollPolicy } from './policy.js';
import { json, refuse } from './respond.js';
import { FILE_KINDS, modelJobView, videoJobView, type FileKind } from './rewrite.js';
import { anySignal } from '../runtime.js';

const MAX_JOB_BYTES = 1024 * 1024;

export async function fetchJob(
  ctx: Ctx,
  capability: Capability,
  job: 'video' | 'model',
  handle: JobHandle,
): Promise<Record<string, unknown>> {
  const url = ctx.upstream.url(routePath(job === 'video' ? 'getVideoJob' : 'getModelJob', handle.jobId));
  const answer = await ctx.upstream.getSmall(
    url,
    { authorization: `Bearer ${ctx.settings.keys[capability]!}` },
    ctx.settings.upstreamTimeoutMs,
    MAX_JOB_BYTES,
  );
  if (answer.status === 404) refuse('not_found', 'No job with this id exists for this session.');
  if (answer.status < 200 || answer.status > 299) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (answer.retryAfter) headers['retry-after'] = answer.retryAfter;
    throw await ctx.upstream.error(new Response(answer.text ?? '', { status: answer.status, headers }), capability);
  }
  let body: { data?: Record<string, unknown> } | undefined;
  try {
    body = answer.text === undefined ? undefined : (JSON.parse(answer.text) as typeof body);
  } catch {
    body = undefined;
  }
  if (!body || typeof body !== 'object')
    refuse('upstream_error', 'The media service sent a job that could not be read; poll again in a moment.');
  return body.data ?? {};
}

export async function poll(ctx: Ctx, call: Call, policy: PollPolicy, id: string, handle: JobHandle): Promise<Response> {
  const data = await fetchJob(ctx, policy.capability, policy.job, handle);
  // Upstream refunds a failed job; the budget that paid gets the credits back, once (in a scope,
  // another subject may be the one polling).
  if (data['status'] === 'failed' && handle.charged > 0)
    await ctx.budget.refund(handle.chargedTo ?? call.subject, handle.window, handle.jobId, handle.charged);
  const rw = ctx.sealer.rewriter(call.subject, ctx.redact);
  const view = policy.job === 'video' ? await videoJobView(data, id, rw) : await modelJobView(data, id, rw);
  return json({ data: view }, 200, call.headers);
}

/** The mirrored download endpoints, for fetch with a Bearer token: the same bytes as the job's tickets. */
export async function downloadByHandle(
  ctx: Ctx,
  call: Call,
  policy: DownloadPolicy,
  handle: JobHandle,
): Promise<Response> {
  const { url, request } = call;
  let target: string;
  let kind: FileKind;
  if (policy.file === 'videoOutput') {
    const extract = url.searchParams.get('extract');
    if (extract !== null && extract !== 'ply')
      refuse('invalid_request', 'extract may only be "ply" (the raw .ply); leave it out for the zip archive.');
    const data = await fetchJob(ctx, policy.capability, 'video', handle);
    const output = data['output'] as { ply_url?: unknown; archive_url?: unknown } | null | undefined;
    if (data['status'] === 'expired')
      refuse('expired', 'This result was purged by the provider. Start a new job to reconstruct the video again.');
    if (typeof output?.ply_url !== 'string' || typeof output.archive_url !== 'string')
      refuse('not_found', 'This job has no result yet; download once its status is succeeded.');
    target = extract === 'ply' ? output.ply_url : output.archive_url;
    kind = extract === 'ply' ? 'ply' : 'zip';
  } else {
    // The upstream's model, turntable and reference links are signed and expire (a job id alone
    // opens nothing), so the file is fetched from the link a fresh poll of the job gives.
    const data = await fetchJob(ctx, policy.capability, 'model', handle);
    const output = data['output'] as { model_url?: unknown; turntable_url?: unknown } | null | undefined;
    const link =
      policy.file === 'image'
        ? data['reference_image_url']
        : policy.file === 'mp4'
          ? output?.turntable_url
          : output?.model_url;
    if (typeof link !== 'string' || !link) {
      refuse(
        'not_found',
        policy.file === 'image'
          ? 'This job has no reference image: only text-mode jobs render one.'
          : 'This job has no result yet; download once its status is succeeded.',
      );
    }
    target = link;
    kind = policy.file;
  }
  return streamFile(ctx, request, target, kind, url.searchParams.get('download') === '1', call.headers);
}

export async function serveFile(
  ctx: Ctx,
  request: Request,
  sealed: string,
  url: URL,
  headers: Record<string, string>,
): Promise<Response> {
  const ticket = await ctx.sealer.openTicket(sealed);
  const limit = await ctx.budget.rateLimit('poll', ticket.subject);
  return streamFile(ctx, request, ticket.url, ticket.kind, url.searchParams.get('download') === '1', {
    ...headers,
    ...limit,
  });
}

/**
 * The one check of a link the proxy fetches a job's file from (a download, a ticket, a keep): the
 * link resolved against the upstream, http(s) only, on the upstream's origin or a provider's named
 * in `downloadOrigins`, so a link (or a ticket forged with a stolen secret) naming any other host
 * reaches no internal service. Anything else ends in `refused()`, the caller's refusal in its own
 * words; a link on another host is logged (`notDone`: what did not happen), since it may be the
 * provider's storage the site has not named yet.
 */
export function downloadTarget(ctx: Ctx, link: string, refused: () => never, notDone = 'nothing was fetched'): URL {
  let resolved: URL;
  try {
    resolved = new URL(link, ctx.upstream.base);
  } catch {
    refused();
  }
  if (resolved.protocol !== 'https:' && resolved.protocol !== 'http:') refused();
  if (resolved.origin !== ctx.upstream.base.origin && !ctx.settings.downloadOrigins.has(resolved.origin)) {
    ctx.log(
      'warn',
      `a file link names ${resolved.origin}, which is neither the upstream's origin nor in downloadOrigins; ${notDone}. If it is your provider's storage, add it to downloadOrigins.`,
    );
    refused();
  }
  return resolved;
}

async function streamFile(
  ctx: Ctx,
  request: Request,
  target: string,
  kind: FileKind,
  attachment: boolean,
  headers: Record<string, string>,
): Promise<Response> {
  const resolved = downloadTarget(ctx, target, () => refuse('not_found', 'This file is not available.'));
  const range = request.headers.get('range');
  const upstreamHeaders: Record<string, string> = {};
  if (range && /^bytes=\d*-\d*$/.test(range)) upstreamHeaders['range'] = range;
  // Downloads are authorized by their signed URL alone: no key goes with them (they may redirect to the provider's storage).
  const response = await ctx.upstream.call(
    resolved,
    { headers: upstreamHeaders, redirect: 'follow' },
    anySignal([request.signal, AbortSignal.timeout(ctx.settings.upstreamTimeoutMs)]),
  );
  if (!response.ok) {
    await response.body?.cancel();
    if (response.status === 403)
      refuse('link_expired', 'This download link has expired. Poll the job again for fresh links.');
    if (response.status === 410)
      refuse('expired', 'This result was purged by the provider. Start a new job to make it again.');
    if (response.status === 404)
      refuse('not_found', 'This file is not available (yet): download once the job has succeeded.');
    if (response.status === 416)
      return new Response(null, {
        status: 416,
        headers: { ...headers, 'content-range': response.headers.get('content-range') ?? '' },
      });
    throw ctx.upstream.errorFrom(
      response.status,
      new ApiError(response.status, 'http_' + response.status, 'The download failed.'),
      kind === 'ply' || kind === 'zip' ? 'video' : 'generate',
    );
  }
  const spec = FILE_KINDS[kind];
  let type: string = spec.type;
  if (kind === 'image')
    type =
      /^image\/(png|jpeg|webp)$/.exec(response.headers.get('content-type') ?? '')?.[0] ?? 'application/octet-stream';
  const out: Record<string, string> = {
    ...headers,
    'content-type': type,
    'content-disposition': `${attachment || spec.attachment ? 'attachment' : 'inline'}; filename="${spec.name}"`,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; sandbox",
    'referrer-policy': 'no-referrer',
  };
  const length = response.headers.get('content-length');
  if (length && /^\d+$/.test(length)) out['content-length'] = length;
  if (response.headers.get('accept-ranges') === 'bytes') out['accept-ranges'] = 'bytes';
  const contentRange = response.headers.get('content-range');
  if (response.status === 206 && contentRange && /^bytes \d+-\d+\/(\d+|\*)$/.test(contentRange))
    out['content-range'] = contentRange;
  if (request.method === 'HEAD') {
    await response.body?.cancel();
    return new Response(null, { status: response.status, headers: out });
  }
  return new Response(response.body, { status: response.status === 206 ? 206 : 200, headers: out });
}
