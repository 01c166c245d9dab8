/**
 * `ModelRunController`: sending one 3D job for <model-generator>. It keeps one Idempotency-Key
 * per input (a second click, or a retry after a lost answer, replays the job instead of charging
 * again), the request last sent (for "same again" and "variation"), a 429 wait the client sits
 * out, and the once-a-second clock that the elapsed time and that countdown are drawn from.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { TaskStatus } from '@lit/task';
import type { ModelJob } from '../../api/index.js';
import type { ModelJobInput } from '../../client/media-client.js';
import type { JobController } from '../../jobs/job-controller.js';
import type { ModelResultController } from './model-result.js';
import type { PhotoListController } from './photo-list.js';
import { inputOf, summaryOf } from './request.js';

export interface ModelRunOptions {
  jobs: JobController<'model'>;
  photos: PhotoListController;
  result: ModelResultController;
  /** The element's clock should tick (a job is queued or processing). */
  running(): boolean;
  /** Sending begins: the host clears what the last attempt left on screen. */
  onSend(): void;
  /** Sending failed (not the job: the request); `cancelled` when the user cancelled it. */
  onFail(error: unknown, cancelled: boolean): void;
}

export class ModelRunController implements ReactiveController {
  readonly host: ReactiveControllerHost;
  /** The request last sent from here (undefined after a reset or an adopted job). */
  lastInput: ModelJobInput | undefined;
  readonly #o: ModelRunOptions;
  #key: string | undefined;
  #starting = false;
  #waitUntil = 0;
  #ticker: ReturnType<typeof setInterval> | undefined;

  constructor(host: ReactiveControllerHost, options: ModelRunOptions) {
    this.host = host;
    this.#o = options;
    host.addController(this);
  }

  hostConnected(): void {
    this.#ticker = setInterval(() => {
      if (this.#o.running() || this.#waitUntil > Date.now()) this.host.requestUpdate();
    }, 1000);
  }

  hostDisconnected(): void {
    clearInterval(this.#ticker);
  }

  /** A job is being sent. */
  get busy(): boolean {
    return this.#starting || this.#o.jobs.creation.status === TaskStatus.PENDING;
  }

  /** Seconds left of a 429 wait (0: none). */
  get waitSeconds(): number {
    return this.#waitUntil > Date.now() ? Math.ceil((this.#waitUntil - Date.now()) / 1000) : 0;
  }

  /** The input changed: the next send is a new job with a new key. */
  forgetKey(): void {
    this.#key = undefined;
  }

  /** The request that makes the shown model again: with its seed, or for a variation without one. */
  againInput(variation: boolean): ModelJobInput | undefined {
    const record = this.#o.jobs.record;
    const last = this.lastInput ?? inputOf(record);
    const seed = (record?.job as ModelJob | undefined)?.seed;
    if (!last) return undefined;
    const { seed: _old, ...rest } = last;
    this.#key = undefined;
    return variation || seed === undefined ? rest : { ...rest, seed };
  }

  #wait(seconds: number): void {
    this.#waitUntil = Date.now() + seconds * 1000;
    this.host.requestUpdate();
  }

  async run(input: ModelJobInput): Promise<void> {
    const { jobs, photos, result } = this.#o;
    this.#starting = true;
    this.host.requestUpdate();
    this.#o.onSend();
    const key = (this.#key ??= crypto.randomUUID());
    const summary = summaryOf(input, photos);
    const first = input.mode === 'image' ? photos.photos[0]?.source : undefined;
    try {
      const record = await jobs.start(input, { idempotencyKey: key, summary, onWait: ({ seconds }) => this.#wait(seconds) });
      this.#key = undefined;
      this.lastInput = input;
      void result.keepThumb(record, first);
    } catch (err) {
      this.#o.onFail(err, err instanceof DOMException && err.name === 'AbortError');
    } finally {
      this.#starting = false;
      this.#waitUntil = 0;
      this.host.requestUpdate();
    }
  }
}
