/**
 * Charged calls (job creation, headshots, image tools): checked, priced, reserved, forwarded,
 * settled.
 *
 * Budget rules: the most a call can cost is reserved before anything goes upstream. Once the body
 * has been handed upstream, the browser going away no longer cancels the call: the proxy waits for
 * the answer and settles at X-Credits-Charged. A reservation is released only when upstream
 * certainly charged nothing (a free non-2xx answer, a connection never made, a body that broke
 * before it was complete). On a timeout or an unknown outcome it is kept, and the log says so.
 * An answer that upstream marks as a replay settles at 0; any other success is a new charge. A job
 * handle carries what its own call settled and the window it settled in, so a failed job is
 * refunded once, into the window that paid for it (a replay's handle refunds nothing).
 */
import {
  ApiError,
  HEADERS,
  IDEMPOTENCY_KEY_PATTERN,
  JSON_TOO_DEEP,
  jsonDepth,
  MAX_JSON_DEPTH,
  maxRequestBytes,
  routePath,
} from '../../api/index.js';
import { guardBody, type GuardState } from '../edge/body-guard.js';
import { readBuffered } from '../edge/buffered-read.js';
import { answer, kept } from './charged-answer.js';
import type { Call, Ctx } from '../context.js';
import type { ChargedPolicy, ParsedBody } from '../edge/policy.js';
import { checkRemoteImage } from '../edge/remote-images.js';
import { refuse } from '../edge/respond.js';
import { hmac } from '../tokens/secrets.js';
import { anySignal } from '../runtime.js';
import { UpstreamFailure } from '../edge/upstream.js';

const encoder = new TextEncoder();

function contentType(request: Request, policy: ChargedPolicy): string {
  const type = request.headers.get('content-type') ?? '';
  const isJson = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i.test(type);
  const isMultipart = /^multipart\/form-data;\s*boundary=("?)[0-9A-Za-z'()+_,./:=?-]{1,70}\1$/i.test(type);
  if (!((isJson && policy.types.includes('json')) || (isMultipart && policy.types.includes('multipart')))) {
    refuse(
      'unsupported_content_type',
      `This endpoint takes ${policy.typesText}; the request's Content-Type was ${type ? `"${type.slice(0, 60)}"` : 'missing'}.`,
    );
  }
  return type;
}

function tooDeep(): never {
  refuse('invalid_request', JSON_TOO_DEEP);
}

/** Parses a buffered body, checks its image URLs, and returns what is forwarded: exactly what was checked. */
async function prepare(
  ctx: Ctx,
  bytes: Uint8Array,
  type: string,
  policy: ChargedPolicy,
): Promise<{ parsed: ParsedBody; bytes: Uint8Array; type: string }> {
  let parsed: ParsedBody;
  let out: Uint8Array;
  let outType = type;
  if (/^application\/json/i.test(type)) {
    if (jsonDepth(bytes) > MAX_JSON_DEPTH) tooDeep();
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch (err) {
      if (err instanceof RangeError) tooDeep();
      refuse('invalid_request', 'The body is not valid UTF-8 JSON. Send a JSON object.');
    }
    if (!value || typeof value !== 'object' || Array.isArray(value))
      refuse('invalid_request', 'The JSON body must be an object with the parameters as fields.');
    parsed = { json: value as Record<string, unknown> };
    // Re-serialized: duplicate keys or odd spellings another parser might read differently never reach upstream.
    try {
      out = encoder.encode(JSON.stringify(value));
    } catch (err) {
      if (err instanceof RangeError) tooDeep();
      throw err;
    }
  } else {
    let form: FormData;
    try {
      form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).formData();
    } catch {
      refuse(
        'invalid_request',
        'The body is not valid multipart/form-data (check the boundary and that every part is complete).',
      );
    }
    parsed = { form };
    const encoded = new Response(form);
    // Read before the body: Bun 1.4 drops a FormData Response's Content-Type once its body is read.
    outType = encoded.headers.get('content-type')!;
    out = new Uint8Array(await encoded.arrayBuffer());
  }
  for (const [name, value] of policy.imageUrls?.(parsed) ?? []) {
    if (typeof value === 'string' && value !== '') await checkRemoteImage(name, value, ctx.settings.remoteImages);
  }
  return { parsed, bytes: out, type: outType };
}

export async function charged(ctx: Ctx, call: Call, policy: ChargedPolicy): Promise<Response> {
  const { request, route, session } = call;
  const settings = ctx.settings;
  const key = settings.keys[policy.capability]!;
  let type = contentType(request, policy);
  const max = maxRequestBytes(route.name as Parameters<typeof maxRequestBytes>[0]);
  const declaredHeader = request.headers.get('content-length');
  const declared = declaredHeader !== null && /^\d{1,15}$/.test(declaredHeader) ? Number(declaredHeader) : undefined;
  if (declared !== undefined && declared > max) refuse('payload_too_large', policy.tooLarge);
  if (policy.lengthRequired && declared === undefined)
    refuse(
      'length_required',
      'Video uploads need a Content-Length header (browsers send one for a File or FormData body).',
    );
  const idempotencyKey = request.headers.get(HEADERS.idempotencyKey);
  if (idempotencyKey !== null && !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
    refuse(
      'invalid_request',
      'Idempotency-Key must be 1-255 printable ASCII characters without spaces (a UUID is ideal).',
    );
  }
  const upstreamHeaders: Record<string, string> = { authorization: `Bearer ${key}` };
  // The browser's key, namespaced per subject and route under a key only the server knows, so one
  // user's key can never name another user's request upstream.
  if (idempotencyKey !== null)
    upstreamHeaders[HEADERS.idempotencyKey] =
      'mk_' + (await hmac(encoder.encode(key), `${session.subject}\n${route.name}\n${idempotencyKey}`));
  if (policy.forwardsAcceptJson && /application\/json/i.test(request.headers.get('accept') ?? ''))
    upstreamHeaders['accept'] = 'application/json';

  const state: GuardState = { failure: undefined, broken: false, complete: false };
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const startClock = () =>
    (timer = setTimeout(
      () => controller.abort(new DOMException('upstream timeout', 'TimeoutError')),
      settings.upstreamTimeoutMs,
    ));
  let giveBack = () => {};
  // Ends the guarded body once this call is over: an upstream that answered without reading it all leaves no watchdog running.
  const finished = new AbortController();
  try {
    let body: Uint8Array | ReadableStream<Uint8Array> | undefined;
    let cost: number;
    if (policy.body === 'buffer') {
      const read = await readBuffered(request.body, {
        max,
        declared,
        subject: call.subject,
        pool: ctx.pool,
        idleMs: settings.idleMs,
        deadlineMs: settings.bodyTimeoutMs,
        tooLarge: policy.tooLarge,
        signal: request.signal,
      });
      giveBack = read.done;
      const prepared = await prepare(ctx, read.bytes, type, policy);
      body = prepared.bytes;
      type = prepared.type;
      cost = policy.maxCost(prepared.parsed);
      state.complete = true;
      upstreamHeaders['content-length'] = String(body.byteLength);
    } else {
      cost = policy.maxCost(undefined);
      if (request.body)
        body = guardBody(
          request.body,
          declared,
          max,
          settings.idleMs,
          policy.tooLarge,
          state,
          startClock,
          anySignal([request.signal, finished.signal]),
        );
      if (declared !== undefined) upstreamHeaders['content-length'] = String(declared);
      // The browser leaving mid-upload breaks the body: upstream cannot process half a body.
      const onAbort = () => {
        if (state.complete) return;
        state.broken = true;
        controller.abort(request.signal.reason);
      };
      if (request.signal.aborted) onAbort();
      else request.signal.addEventListener('abort', onAbort, { once: true });
    }
    upstreamHeaders['content-type'] = type;

    const reservation = await ctx.budget.reserve(session, call.subject, cost);
    if (policy.body === 'buffer') startClock();
    let response: Response;
    try {
      response = await ctx.upstream.call(
        ctx.upstream.url(routePath(route.name)),
        // redirect 'error': Node's fetch keeps no replay copy of a streamed body (no redirect can follow).
        {
          method: 'POST',
          headers: upstreamHeaders,
          body: body as BodyInit | undefined,
          duplex: 'half',
          redirect: 'error',
        },
        controller.signal,
        () => state.broken,
      );
    } catch (err) {
      if (!(err instanceof UpstreamFailure)) throw err;
      if (err.outcome === 'not-sent') {
        await ctx.budget.release(reservation);
        if (state.failure) throw state.failure;
        if (request.signal.aborted) throw ApiError.of('invalid_request', 'The request was cancelled.');
        ctx.log('warn', `upstream could not be reached: ${err.message}`);
        throw new ApiError(
          502,
          'upstream_error',
          'The media service could not be reached. Nothing was charged; try again in a moment.',
        );
      }
      return kept(
        ctx,
        reservation,
        err.outcome === 'timeout' ? 'did not answer in time' : `failed mid-call (${err.message})`,
      );
    }
    return await answer(ctx, call, policy, response, reservation, cost);
  } finally {
    clearTimeout(timer);
    finished.abort(new Error('the call is over'));
    giveBack();
  }
}
