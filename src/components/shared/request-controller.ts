/**
 * `RequestController`: sending a job or a request for an element, the way every element must do
 * it. One Idempotency-Key per input, kept until the input changes or a send succeeds, so a double
 * click or a retry after a lost answer replays the request instead of charging twice (spec
 * "Idempotency"); an AbortSignal threaded to the send and aborted when the host leaves the page;
 * `busy`; and the countdown of a 429 that the client sits out (`waitSeconds`, fed by the client's
 * `onWait`). It names the request's moments on the host, as every element does: `mk-sent` as a
 * send leaves and `mk-failed` when it fails (a cancel is neither); the element itself says
 * `mk-succeeded`, with what it made.
 *
 * Inputs are named by `slot` ('' by default): <headshot-studio> sends its batch in one slot and
 * each retried variant in its own, and they may be out at the same time.
 *
 * Countdowns and "elapsed" lines re-render from the page's one ticker (page-ticker.ts), not from
 * an interval per element.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { FailedEvent, SentEvent } from '../../events/outcome.js';
import { errorFacts } from './error-facts.js';
import { stopTicking, tickAt } from './page-ticker.js';

/** What a send gets: the key to send as Idempotency-Key, the signal to pass on, and the 429 hook. */
export interface SendContext {
  key: string;
  signal: AbortSignal;
  /** Give this to the client's `onWait` (MediaClient, JobController.start): it drives `waitSeconds`. */
  onWait: (wait: { seconds: number }) => void;
}

export interface SendOptions {
  /** Which input this is (default ''): each slot keeps its own key and may be out alongside others. */
  slot?: string;
  /** The input itself (a File, a request object): a different one (by identity) gets a new key. */
  input?: unknown;
}

export interface RequestControllerOptions {
  /** The host shows a running clock now (a job queued or processing): it is rendered once a second. */
  running?: () => boolean;
}

interface Pending {
  abort: AbortController;
  promise: Promise<unknown>;
}

export class RequestController implements ReactiveController {
  readonly host: ReactiveControllerHost & HTMLElement;
  readonly #running: () => boolean;
  readonly #keys = new Map<string, { key: string; input: unknown }>();
  readonly #out = new Map<string, Pending>();
  #waitUntil = 0;

  constructor(host: ReactiveControllerHost & HTMLElement, options: RequestControllerOptions = {}) {
    this.host = host;
    this.#running = options.running ?? (() => false);
    host.addController(this);
  }

  /** A send is out (in any slot). */
  get busy(): boolean {
    return this.#out.size > 0;
  }

  /** A send is out in `slot`. */
  pending(slot = ''): boolean {
    return this.#out.has(slot);
  }

  /** Seconds left of a 429 wait the client is sitting out (0: none). */
  get waitSeconds(): number {
    const left = this.#waitUntil - Date.now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  /**
   * Sends with the slot's key (a new one after a success or for another input), the send's
   * signal and the wait hook; resolves or rejects as `send` does (an abort rejects with the
   * signal's reason). While the slot's send is out, a second call returns the same promise: a
   * double click sends once.
   */
  send<T>(send: (context: SendContext) => Promise<T>, options: SendOptions = {}): Promise<T> {
    const slot = options.slot ?? '';
    const out = this.#out.get(slot);
    if (out) return out.promise as Promise<T>;
    let entry = this.#keys.get(slot);
    if (!entry || ('input' in options && entry.input !== options.input))
      this.#keys.set(slot, (entry = { key: crypto.randomUUID(), input: options.input }));
    const abort = new AbortController();
    const onWait = ({ seconds }: { seconds: number }) => {
      this.#waitUntil = Date.now() + seconds * 1000;
      this.host.requestUpdate();
    };
    const key = entry.key;
    const promise = (async () => {
      try {
        this.host.dispatchEvent(new SentEvent({ idempotencyKey: key }));
        const result = await send({ key, signal: abort.signal, onWait });
        // Answered: the next send of this slot is a new request.
        if (this.#keys.get(slot) === entry) this.#keys.delete(slot);
        return result;
      } catch (err) {
        // A cancel is no failure; anything else is the request's `mk-failed` (nothing was charged: the call did not succeed).
        if (!abort.signal.aborted) {
          const { reason, params } = errorFacts(err);
          this.host.dispatchEvent(new FailedEvent({ idempotencyKey: key, reason, params, refunded: false }));
        }
        throw err;
      } finally {
        this.#out.delete(slot);
        if (!this.#out.size) this.#waitUntil = 0;
        this.host.requestUpdate();
      }
    })();
    this.#out.set(slot, { abort, promise });
    this.host.requestUpdate();
    return promise;
  }

  /** The input changed (other options, another file): the next send of `slot` (default: every slot) gets a new key. */
  forget(slot?: string): void {
    if (slot === undefined) this.#keys.clear();
    else this.#keys.delete(slot);
  }

  /** Aborts the send out in `slot` (default: every slot). Its key is kept: sending again replays. */
  cancel(slot?: string): void {
    for (const [s, p] of this.#out) if (slot === undefined || s === slot) p.abort.abort();
  }

  hostConnected(): void {
    this.hostUpdated();
  }

  hostUpdated(): void {
    // A host updated while off the page stays out of the ticker until it is back.
    if (!this.host.isConnected) return;
    tickAt(this, this.#next(Date.now()));
  }

  hostDisconnected(): void {
    stopTicking(this);
    // A move in the DOM is not leaving: only abort when the host is still out a microtask later.
    queueMicrotask(() => {
      if (!this.host.isConnected) this.cancel();
    });
  }

  /** The next instant the host's rendering changes: the countdown's next second, or a second on while running. */
  #next(now: number): number {
    const left = this.#waitUntil - now;
    let at = left > 0 ? now + (left % 1000 || 1000) : Infinity;
    if (this.#running()) at = Math.min(at, now + 1000);
    return at;
  }
}
