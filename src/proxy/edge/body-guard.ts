/**
 * Every request body the proxy touches is bounded in time and memory, and stops when the sender
 * goes away (`request.signal`).
 * - Streamed uploads (videos) pass through `guardBody`: never more than declared (or the route's
 *   most), cut when the browser sends nothing for `idleMs`, chunks forwarded untouched. Kept
 *   results stream through `guardStream`, the same guard with a deadline for the whole body.
 * - Bodies the proxy must read before acting go through `readBuffered` (buffered-read.ts), with
 *   the same idle watchdog.
 */
import { ApiError } from '../../api/index.js';

/** The default refusals: the whole body took too long, or the sender stopped sending. */
const late = (deadlineMs: number) =>
  ApiError.of(
    'upload_timeout',
    `The upload took longer than ${Math.round(deadlineMs / 1000)} s and was stopped. Nothing was charged; try again on a faster connection or with a smaller file.`,
  );

export const stalled = (idleMs: number) =>
  ApiError.of(
    'upload_timeout',
    `The upload stalled (nothing received for ${Number((idleMs / 1000).toFixed(1))} s) and was stopped. Nothing was charged; check the connection and try again.`,
  );

export interface GuardState {
  /** Why the guard stopped the body (answered to the browser). */
  failure: ApiError | undefined;
  /** The body broke before it was complete (browser gone, guard stopped it): upstream cannot have processed it. */
  broken: boolean;
  /** Every byte was handed on. */
  complete: boolean;
}

export interface GuardOptions {
  /** The Content-Length the body declared; a body that ends short of it or passes it is refused. */
  declared?: number | undefined;
  /** The most bytes taken, and the refusal past it. */
  max: number;
  tooLarge: string;
  /** The body is cut when the sender sends nothing for this long while a read waits. */
  idleMs: number;
  /** The whole body must arrive within this long from the first read. Default: no limit. */
  deadlineMs?: number;
  state?: GuardState;
  /** Runs when the last byte was handed on. */
  onComplete?: () => void;
  /** The sender went away (`request.signal`): the body breaks at once. */
  signal?: AbortSignal | undefined;
  /** The refusal when the sender stops sending (default: 408 upload_timeout). */
  stalled?: () => ApiError;
  /** The refusal when the whole body took longer than `deadlineMs` (default: 408 upload_timeout). */
  late?: () => ApiError;
}

/**
 * The upload as it streams upstream: never more than declared (or `max`) bytes, and cut when
 * the browser sends nothing for `idleMs`. Chunks pass through untouched (no copy). `onComplete`
 * runs when the last byte was handed on.
 *
 * A body that breaks (the guard cut it, or `signal` aborted before the last byte: the browser went
 * away) errors the stream at once and stops the watchdog, so whoever reads it (an upstream in the
 * same process too) sees the failure instead of waiting forever for bytes that will not come.
 */
export function guardBody(
  source: ReadableStream<Uint8Array>,
  declared: number | undefined,
  max: number,
  idleMs: number,
  tooLarge: string,
  state: GuardState,
  onComplete: () => void,
  signal?: AbortSignal,
): ReadableStream<Uint8Array> {
  return guardStream(source, { declared, max, idleMs, tooLarge, state, onComplete, signal });
}

/** `guardBody` with its options named, a deadline for the whole body, and the refusals the caller words. */
export function guardStream(source: ReadableStream<Uint8Array>, o: GuardOptions): ReadableStream<Uint8Array> {
  const { declared, max, idleMs, tooLarge, signal } = o;
  const state = o.state ?? { failure: undefined, broken: false, complete: false };
  const reader = source.getReader();
  const limit = Math.min(declared ?? max, max);
  let total = 0;
  // Idle means the browser sent nothing while we waited for it; a slow upstream that is not asking for more does not count.
  let waitingSince: number | undefined;
  let deadline: number | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  let ctrl: ReadableStreamDefaultController<Uint8Array> | undefined;
  const onAbort = () => {
    if (state.complete || !ctrl) return;
    fail(ctrl, signal?.reason ?? new Error('the request was cancelled'));
  };
  const stop = () => {
    clearInterval(timer);
    signal?.removeEventListener('abort', onAbort);
  };
  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, err: unknown) => {
    stop();
    state.broken = true;
    // A no-op on a stream that is already errored or closed.
    controller.error(err);
    void reader.cancel().catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        ctrl = controller;
        if (signal?.aborted) onAbort();
        else signal?.addEventListener('abort', onAbort, { once: true });
      },
      async pull(controller) {
        if (state.broken) return fail(controller, state.failure ?? new Error('the request body was cut off'));
        // The watchdog starts with the first read: a body that is never forwarded leaves no timer behind.
        if (o.deadlineMs !== undefined) deadline ??= Date.now() + o.deadlineMs;
        timer ??= setInterval(
          () => {
            const now = Date.now();
            if (deadline !== undefined && now >= deadline) {
              state.failure = o.late?.() ?? late(o.deadlineMs!);
              fail(controller, state.failure);
              return;
            }
            if (waitingSince === undefined || now - waitingSince < idleMs) return;
            state.failure = o.stalled?.() ?? stalled(idleMs);
            fail(controller, state.failure);
          },
          Math.max(50, Math.min(1000, idleMs / 4, (o.deadlineMs ?? Infinity) / 4)),
        );
        try {
          waitingSince = Date.now();
          const { done, value } = await reader.read();
          waitingSince = undefined;
          // Broken while this read waited: the stream is already errored (fail again only makes sure).
          if (state.broken) return fail(controller, state.failure ?? new Error('the request body was cut off'));
          if (done) {
            if (declared !== undefined && total !== declared) {
              state.failure = ApiError.of(
                'invalid_request',
                'The body ended before its Content-Length. Send it again.',
              );
              fail(controller, state.failure);
              return;
            }
            stop();
            state.complete = true;
            controller.close();
            o.onComplete?.();
            return;
          }
          total += value.byteLength;
          if (total > limit) {
            state.failure =
              total > max
                ? ApiError.of('payload_too_large', tooLarge)
                : ApiError.of('invalid_request', 'The body is longer than its Content-Length.');
            fail(controller, state.failure);
            return;
          }
          controller.enqueue(value);
        } catch (err) {
          fail(controller, err);
        }
      },
      cancel(reason) {
        stop();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
