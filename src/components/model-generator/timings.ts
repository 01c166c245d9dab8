/**
 * `ModelTimingsController`: <model-generator>'s User Timing measures (README "Performance
 * timings"): `validate` (a photo added or made smaller until every photo is checked), `upload`
 * (the photos or prompt request until the job exists), `queue`, `process`, and `first-frame` (job
 * done to its <glb-viewer>'s first frame). It follows the host's status after each `willUpdate`.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { PhaseTimer } from '../../internal/perf.js';

export interface ModelTimingsOptions {
  status(): string;
  /** A photo is being checked or made smaller. */
  validating(): boolean;
}

export class ModelTimingsController implements ReactiveController {
  readonly host: ReactiveControllerHost & HTMLElement;
  readonly #perf = new PhaseTimer('model-generator');
  readonly #o: ModelTimingsOptions;
  #validating = false;
  #status = 'idle';

  constructor(host: ReactiveControllerHost & HTMLElement, options: ModelTimingsOptions) {
    this.host = host;
    this.#o = options;
    host.addController(this);
    // The result's <glb-viewer> drew its first frame (the event is composed, out of the shadow root).
    host.addEventListener('mk-viewer-load', () => this.#perf.end('first-frame'));
  }

  hostUpdate(): void {
    const validating = this.#o.validating();
    if (validating && !this.#validating) this.#perf.start('validate');
    if (!validating && this.#validating) this.#perf.end('validate');
    this.#validating = validating;
    const before = this.#status;
    const now = (this.#status = this.#o.status());
    if (now === before) return;
    if (now === 'creating' || now === 'resending') this.#perf.start('upload');
    if (before === 'creating' || before === 'resending') this.#perf.end('upload');
    if (now === 'queued') this.#perf.start('queue');
    if (before === 'queued') this.#perf.end('queue');
    if (now === 'processing') this.#perf.start('process');
    // A job can go from queued straight to its end between two polls: then only queue is measured.
    if (before === 'processing' || now === 'succeeded' || now === 'failed') this.#perf.end('process', { status: now });
    if (now === 'succeeded') this.#perf.start('first-frame');
  }

  /** Drops open phases (reset, cancel, another job adopted, back to the form). */
  clear(): void {
    this.#perf.clear();
  }
}
