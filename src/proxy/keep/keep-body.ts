/**
 * What a keep reads (keep.ts): its JSON body, and the bytes it streams into the result store.
 *
 * Every body goes through the body guard (edge/body-guard.ts): cut when the source sends nothing for
 * `idleMs` (the clock runs while a read waits, not while the store writes), and a page's body
 * also within a whole-body deadline and stopped when the page leaves. The quota is held ahead of
 * the stream under a pending entry with a time to live, renewed while the keep runs, so a proxy
 * that dies mid-keep holds no quota for good.
 */
import { ApiError, sniffImage } from '../../api/index.js';
import { guardStream } from '../edge/body-guard.js';
import { readBuffered } from '../edge/buffered-read.js';
import type { Ctx } from '../context.js';
import type { ByteLedgers } from '../state/state-store.js';

/** The most bytes of a keep's JSON body. */
const MAX_JSON_BYTES = 4096;
/** Quota is held ahead of the stream in steps of this many bytes (one store call per step, not per chunk). */
const HOLD_STEP = 8 * 1024 * 1024;

/** A keep's JSON body, read under the body guard; undefined when it is not JSON. */
export async function readKeepJson(ctx: Ctx, request: Request, subject: string): Promise<unknown> {
  const length = request.headers.get('content-length');
  const read = await readBuffered(request.body, {
    max: MAX_JSON_BYTES,
    declared: length !== null && /^\d{1,15}$/.test(length) ? Number(length) : undefined,
    subject,
    pool: ctx.pool,
    idleMs: ctx.settings.idleMs,
    deadlineMs: ctx.settings.bodyTimeoutMs,
    tooLarge: `Send { "job", "file" } as JSON of at most ${MAX_JSON_BYTES} bytes.`,
    signal: request.signal,
  });
  try {
    return JSON.parse(new TextDecoder().decode(read.bytes)) as unknown;
  } catch {
    return undefined;
  } finally {
    read.done();
  }
}

/**
 * A keep's pending quota hold: set with a time to live and renewed every third of it until
 * `settle()`. Holds and renewals run one at a time, so a renewal never sets an older size over a
 * newer hold, and none runs after `settle()` resolves.
 */
export class PendingHold {
  held = 0;
  #queue: Promise<unknown> = Promise.resolve();
  #over = false;
  readonly #renewal: ReturnType<typeof setInterval>;

  constructor(
    private readonly ctx: Ctx,
    private readonly ledgers: ByteLedgers,
    private readonly ledger: string,
    readonly id: string,
    private readonly quota: number,
    private readonly seconds: number,
  ) {
    this.#renewal = setInterval(
      () =>
        void this.#serial(async () => {
          if (this.#over || this.held === 0) return;
          await this.#set(this.held, Number.MAX_SAFE_INTEGER);
        }).catch(() => ctx.log('warn', 'the store failed to renew the quota hold of a keep in progress')),
      (seconds * 1000) / 3,
    );
  }

  /** Holds `bytes` in all (within the quota); `ok` false leaves the hold as it was. */
  hold(bytes: number): Promise<{ ok: boolean; used: number }> {
    return this.#serial(async () => {
      const r = await this.#set(bytes, this.quota);
      if (r.ok) this.held = bytes;
      return r;
    });
  }

  /** Stops renewing and waits for any hold or renewal under way. */
  async settle(): Promise<void> {
    this.#over = true;
    clearInterval(this.#renewal);
    await this.#queue;
  }

  #set(bytes: number, limit: number) {
    return this.ctx.budget.guarded(this.ledgers.holdBytes(this.ledger, this.id, bytes, limit, undefined, this.seconds));
  }

  #serial<T>(op: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(op);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

export interface CountedSpec {
  body: ReadableStream<Uint8Array>;
  declared: number | undefined;
  /** The most bytes taken, and the refusal past it (images). */
  max?: { bytes: number; message: string } | undefined;
  /** The image type the bytes must be. */
  sniff?: 'png' | 'jpeg' | 'webp' | undefined;
  /** The refusal when the source stops sending, and when it breaks. */
  stalled: () => ApiError;
  broken: () => ApiError;
  /** A page's body: the whole of it must arrive within this long, and it stops when the page leaves. */
  deadlineMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** What a counted body tells once it ended: the bytes handed on, and why it stopped (if it failed). */
export interface Counted {
  stream: ReadableStream<Uint8Array>;
  total: number;
  failure: ApiError | undefined;
  cancel(): Promise<void>;
}

/**
 * The body the result store reads: guarded, counted against `hold` (HOLD_STEP ahead), cut past
 * `max` or its Content-Length, and checked to be the `sniff` image type by its first 12 bytes.
 */
export function countedBody(
  ctx: Ctx,
  spec: CountedSpec,
  hold: PendingHold,
  overQuota: (bytes: number, more: boolean) => ApiError,
): Counted {
  const source = guardStream(spec.body, {
    max: Number.MAX_SAFE_INTEGER,
    tooLarge: '',
    idleMs: ctx.settings.idleMs,
    ...(spec.deadlineMs !== undefined ? { deadlineMs: spec.deadlineMs } : {}),
    signal: spec.signal,
    stalled: spec.stalled,
  }).getReader();
  let head: Uint8Array | undefined = spec.sniff ? new Uint8Array(0) : undefined;
  const sniff = (bytes: Uint8Array) => {
    const found = sniffImage(bytes);
    if (found !== spec.sniff) {
      const said = found ? found.toUpperCase() : 'not an image';
      throw ApiError.of(
        'unsupported_media',
        `The body is not a ${spec.sniff!.toUpperCase()} image (its bytes say ${said}); send the image's own Content-Type.`,
      );
    }
  };
  const counted: Counted = {
    total: 0,
    failure: undefined,
    cancel: () => source.cancel().catch(() => undefined),
    stream: new ReadableStream<Uint8Array>(
      {
        // Every pull enqueues, closes or errors before it returns: the store reads with no
        // high-water mark, so a pull that returned with nothing would never be called again.
        pull: async (controller) => {
          try {
            for (;;) {
              let chunk: Uint8Array | undefined;
              try {
                const read = await source.read();
                chunk = read.done ? undefined : read.value;
              } catch (err) {
                throw (counted.failure ??= err instanceof ApiError ? err : spec.broken());
              }
              if (counted.failure) throw counted.failure;
              if (chunk === undefined) {
                if (head !== undefined) {
                  sniff(head);
                  if (head.byteLength) controller.enqueue(head);
                  head = undefined;
                }
                if (counted.total === 0)
                  throw ApiError.of('invalid_request', 'The body is empty, so nothing was kept.');
                if (spec.declared !== undefined && counted.total !== spec.declared) throw spec.broken();
                controller.close();
                return;
              }
              const total = (counted.total += chunk.byteLength);
              if (spec.max && total > spec.max.bytes) throw ApiError.of('payload_too_large', spec.max.message);
              if (spec.declared !== undefined && total > spec.declared) throw spec.broken();
              if (total > hold.held) {
                const before = hold.held;
                let r = await hold.hold(Math.max(total, before + HOLD_STEP));
                if (!r.ok) r = await hold.hold(total);
                if (!r.ok) throw overQuota(r.used - before + total, true);
              }
              if (head !== undefined) {
                const joined = new Uint8Array(head.byteLength + chunk.byteLength);
                joined.set(head);
                joined.set(chunk, head.byteLength);
                // Too few bytes to tell the image type yet: read on.
                if (joined.byteLength < 12) {
                  head = joined;
                  continue;
                }
                sniff(joined);
                head = undefined;
                chunk = joined;
              }
              controller.enqueue(chunk);
              return;
            }
          } catch (err) {
            counted.failure ??= err instanceof ApiError ? err : spec.broken();
            controller.error(counted.failure);
            await source.cancel(counted.failure).catch(() => undefined);
          }
        },
        cancel: async (reason) => {
          await source.cancel(reason).catch(() => undefined);
        },
      },
      { highWaterMark: 0 },
    ),
  };
  return counted;
}
