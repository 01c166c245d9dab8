/**
 * Every request body the proxy touches is bounded in time and memory, and stops when the sender
 * goes away (`request.signal`).
 * - Streamed uploads (videos) pass through `guardBody`: never more than declared (or the route's
 *   most), cut when the browser sends nothing for `idleMs`, chunks forwarded untouched. Kept
 *   results stream through `guardStream`, the same guard with a deadline for the whole body.
 * - Bodies the proxy must read before acting (headshots, image tools, 3D jobs: they are priced
 *   and their URLs checked; a keep's JSON) go through `readBuffered`: the same idle watchdog, a
 *   deadline for the whole body, and a byte pool with a cap per subject and a cap for all
 *   subjects together.
 */
import { ApiError } from '../../api/index.js';

/** Bytes held in memory by bodies being read, per subject and in total. */
export class BufferPool {
  readonly #bySubject = new Map<string, number>();
  #total = 0;

  constructor(
    readonly perSubject: number,
    readonly total: number,
  ) {}

  /** Takes `n` more bytes for `subject`, or says which cap refused them. */
  take(subject: string, n: number): 'ok' | 'subject' | 'total' {
    const mine = this.#bySubject.get(subject) ?? 0;
    if (mine + n > this.perSubject) return 'subject';
    if (this.#total + n > this.total) return 'total';
    this.#bySubject.set(subject, mine + n);
    this.#total += n;
    return 'ok';
  }

  give(subject: string, n: number): void {
    if (n <= 0) return;
    const left = (this.#bySubject.get(subject) ?? 0) - n;
    if (left <= 0) this.#bySubject.delete(subject);
    else this.#bySubject.set(subject, left);
    this.#total -= n;
  }

  get held(): number {
    return this.#total;
  }
}

export interface BufferedRead {
  max: number;
  declared: number | undefined;
  subject: string;
  pool: BufferPool;
  idleMs: number;
  deadlineMs: number;
  tooLarge: string;
  /** The sender went away (`request.signal`): the read stops at once. */
  signal?: AbortSignal | undefined;
}

const late = (deadlineMs: number) =>
  ApiError.of(
    'upload_timeout',
    `The upload took longer than ${Math.round(deadlineMs / 1000)} s and was stopped. Nothing was charged; try again on a faster connection or with a smaller file.`,
  );

const stalled = (idleMs: number) =>
  ApiError.of(
    'upload_timeout',
    `The upload stalled (nothing received for ${Number((idleMs / 1000).toFixed(1))} s) and was stopped. Nothing was charged; check the connection and try again.`,
  );

/**
 * Reads a body whole under the caps above. Returns the bytes and `done()`, which gives the bytes
 * back to the pool (call it once the bytes are no longer needed).
 */
export async function readBuffered(
  body: ReadableStream<Uint8Array> | null,
  o: BufferedRead,
): Promise<{ bytes: Uint8Array; done: () => void }> {
  let held = 0;
  const done = () => {
    o.pool.give(o.subject, held);
    held = 0;
  };
  const ensure = (n: number) => {
    if (n <= held) return;
    const verdict = o.pool.take(o.subject, n - held);
    if (verdict === 'subject')
      throw ApiError.of(
        'rate_limited',
        'This session is already sending other uploads; wait for them to finish and try again. Nothing was charged.',
        5,
      );
    if (verdict === 'total')
      throw ApiError.of(
        'unavailable',
        'The service is receiving too many uploads right now. Nothing was charged; try again in a moment.',
        5,
      );
    held = n;
  };
  if (!body) return { bytes: new Uint8Array(0), done };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const deadline = Date.now() + o.deadlineMs;
  let onAbort: (() => void) | undefined;
  const gone = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    ensure(Math.min(o.declared ?? 0, o.max));
    for (;;) {
      const wait = Math.min(o.idleMs, deadline - Date.now());
      let timer: ReturnType<typeof setTimeout> | undefined;
      const step = await Promise.race([
        reader.read(),
        gone,
        new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), Math.max(0, wait)))),
      ]).finally(() => clearTimeout(timer));
      if (step === 'aborted') throw new Error('the request was cancelled');
      if (step === 'timeout') {
        if (Date.now() >= deadline)
          throw ApiError.of(
            'upload_timeout',
            `The upload took longer than ${Math.round(o.deadlineMs / 1000)} s and was stopped. Nothing was charged; try again on a faster connection or with a smaller image.`,
          );
        throw stalled(o.idleMs);
      }
      if (step.done) break;
      total += step.value.byteLength;
      if (total > o.max || (o.declared !== undefined && total > o.declared)) {
        throw total > o.max
          ? ApiError.of('payload_too_large', o.tooLarge)
          : ApiError.of('invalid_request', 'The body is longer than its Content-Length.');
      }
      ensure(total);
      chunks.push(step.value);
    }
  } catch (err) {
    void reader.cancel().catch(() => undefined);
    done();
    if (err instanceof ApiError) throw err;
    throw ApiError.of('invalid_request', 'The request body ended before it was complete. Send it again.');
  } finally {
    if (onAbort) o.signal?.removeEventListener('abort', onAbort);
  }
  const bytes = chunks.length === 1 ? chunks[0]! : new Uint8Array(total);
  if (chunks.length !== 1) {
    let offset = 0;
    for (const c of chunks) {
      bytes.set(c, offset);
      offset += c.byteLength;
    }
  }
  return { bytes, done };
}

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
