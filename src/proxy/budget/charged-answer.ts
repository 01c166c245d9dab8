/**
 * A charged call's answer: the reservation settled at what upstream charged (X-Credits-Charged,
 * else the body's credits_charged, else the price reserved; a replay at 0), released only when
 * upstream's answer is free by the spec, kept when the outcome is unknown; the answer rebuilt
 * field by field, a job's id sealed into a handle that carries what its own call settled.
 */
import { ApiError, HEADERS, routePath } from '../../api/index.js';
import { remainingOf, type Reservation } from './budget.js';
import { readJson, readText, type Call, type Ctx } from '../context.js';
import type { ChargedPolicy } from '../edge/policy.js';
import { json } from '../edge/respond.js';
import { headshotView, imageToolView, modelJobView } from '../edge/rewrite.js';
import { Upstream } from '../edge/upstream.js';

/** The largest JSON answer read from upstream (a headshot batch of four PNGs is a few MB). */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** An outcome upstream may have charged for: the reservation stays counted. */
export function kept(ctx: Ctx, reservation: Reservation, what: string): never {
  ctx.log(
    'warn',
    `upstream ${what}; the reservation of ${reservation.cost} credits is kept (upstream may have charged)`,
  );
  throw new ApiError(
    504,
    'upstream_error',
    "The media service did not finish answering. It may have done the work, so its credits stay counted in this session's budget; check your results before trying again.",
  );
}

export async function answer(
  ctx: Ctx,
  call: Call,
  policy: ChargedPolicy,
  response: Response,
  reservation: Reservation,
  cost: number,
): Promise<Response> {
  const { settings, budget } = ctx;
  if (!response.ok) {
    const text = await readText(response.body, 64 * 1024);
    const parsed =
      text === undefined
        ? new ApiError(response.status, 'http_' + response.status, 'The request failed.')
        : await ApiError.fromResponse(new Response(text, { status: response.status, headers: response.headers }));
    if (Upstream.isFree(response.status, parsed.code)) await budget.release(reservation);
    else
      ctx.log(
        'warn',
        `upstream answered ${response.status} ${parsed.code}; the reservation of ${reservation.cost} credits is kept (the spec does not say this answer is free)`,
      );
    throw ctx.upstream.errorFrom(response.status, parsed, policy.capability);
  }
  const replayed = response.headers.get('idempotent-replayed') === 'true';
  const header = response.headers.get(HEADERS.creditsCharged);
  const chargedHeader = header !== null && /^\d{1,9}$/.test(header) ? Number(header) : undefined;
  const contentType = response.headers.get('content-type') ?? '';
  let data: Record<string, unknown> | undefined;
  if (contentType.startsWith('application/json')) {
    const value = await readJson(response.body, MAX_ANSWER_BYTES);
    if (!value || typeof value !== 'object') {
      if (chargedHeader !== undefined) await budget.settle(reservation, replayed ? 0 : chargedHeader);
      else kept(ctx, reservation, 'sent a success answer that could not be read');
      throw new ApiError(
        502,
        'upstream_error',
        "The media service sent an answer that could not be read. Its charge is counted in this session's budget; check your results before trying again.",
      );
    }
    data = value as Record<string, unknown>;
  }
  const bodyCharge =
    typeof data?.['credits_charged'] === 'number' &&
    Number.isInteger(data['credits_charged']) &&
    (data['credits_charged'] as number) >= 0
      ? (data['credits_charged'] as number)
      : undefined;
  const chargedCredits = chargedHeader ?? bodyCharge ?? cost;
  const used = await budget.settle(reservation, replayed ? 0 : chargedCredits);
  const upstreamRemaining = response.headers.get(HEADERS.creditsRemaining);
  const remaining = settings.exposeAccountBalance
    ? upstreamRemaining !== null && /^\d{1,15}$/.test(upstreamRemaining)
      ? upstreamRemaining
      : ''
    : String(remainingOf(call.session.budget, used));
  const out: Record<string, string> = {
    ...call.headers,
    [HEADERS.creditsCharged]: String(chargedCredits),
    [HEADERS.creditsRemaining]: remaining,
  };
  if (replayed) out['idempotent-replayed'] = 'true';

  if (!data) {
    // Image tools' binary answer: the image, with a Content-Type from a fixed list.
    const imageType = /^image\/(png|jpeg)\b/.exec(contentType)?.[0] ?? 'application/octet-stream';
    return new Response(response.body, {
      status: response.status,
      headers: { ...out, 'content-type': imageType, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
    });
  }
  // Rebuilt field by field from the spec: nothing upstream adds reaches the browser.
  const result: Record<string, unknown> = {
    data: undefined,
    credits_charged: chargedCredits,
    credits_remaining: remaining === '' ? null : Number(remaining),
  };
  const job = (data['data'] ?? {}) as Record<string, unknown>;
  if (policy.view === 'videoJob' || policy.view === 'modelJob') {
    const capability = policy.capability;
    // The handle refunds what its own reservation settled: a replay settled 0 in this window (the
    // charge sits in the window of the first call, whose handle refunds it), so it refunds nothing.
    const handle = await ctx.sealer.sealHandle(call.session, call.subject, capability, {
      jobId: String(job['job_id']),
      charged: replayed ? 0 : chargedCredits,
      window: reservation.window,
    });
    if (policy.view === 'videoJob')
      result['data'] = {
        job_id: handle,
        status: job['status'] === 'queued' || job['status'] === 'processing' ? job['status'] : 'queued',
      };
    else {
      result['data'] = await modelJobView(job, handle, ctx.sealer.rewriter(call.subject, ctx.redact));
      out[HEADERS.location] = `${ctx.basePath}${routePath('getModelJob', handle)}`;
    }
  } else if (policy.view === 'headshots') result['data'] = headshotView(job, ctx);
  else result['data'] = imageToolView(job);
  return json(result, response.status, out);
}
