/**
 * Bodies the proxy must read before acting (headshots, image tools, 3D jobs: they are priced and
 * their URLs checked; a keep's JSON) go through `readBuffered`: the body guard's idle watchdog, a
 * deadline for the whole body, and a byte pool with a cap per subject and a cap for all subjects
 * together, so that bodies held in memory never add up past what the site allows.
 */
import { ApiError } from '../../api/index.js';
import { stalled } from './body-guard.js';

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
