/**
 * `PhaseTimingsController`: an element's User Timing measures (README "Performance timings"), as
 * `mediakit:<tag>:<name>` entries through PhaseTimer, for the site's own monitoring. Each measure is
 * a span of the element's phases: it starts when the host enters one of its phases (or its
 * predicate turns true) and ends, with `{ status }` in its detail, when the host leaves them. A
 * span with an `endOn` event instead ends at that event from the host (the viewer's first frame),
 * and leaving its phases first drops it. `clear()` drops every open span: a cancelled phase is not
 * a timing. A job can go from queued straight to its end between two polls: then only the spans it
 * was seen in are measured.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { PhaseTimer } from '../../internal/perf.js';

export interface PhaseTimingsOptions<P extends string> {
  /** The element's tag, the middle of each entry's name. */
  tag: string;
  /** The phase now; read on every update. */
  phase(): P;
  /** Each measure: the phases it lasts through, or a predicate of the host's state (a photo being checked). */
  spans: Record<string, readonly P[] | (() => boolean)>;
  /** Measures that end at an event dispatched on the host (composed events from the shadow root count): `{ 'first-frame': 'mk-viewer-loaded' }`. */
  endOn?: Record<string, string>;
}

export class PhaseTimingsController<P extends string> implements ReactiveController {
  readonly host: ReactiveControllerHost & HTMLElement;
  readonly #perf: PhaseTimer;
  readonly #o: PhaseTimingsOptions<P>;
  readonly #in = new Set<string>();

  constructor(host: ReactiveControllerHost & HTMLElement, options: PhaseTimingsOptions<P>) {
    this.host = host;
    this.#o = options;
    this.#perf = new PhaseTimer(options.tag);
    host.addController(this);
    for (const [name, type] of Object.entries(options.endOn ?? {}))
      host.addEventListener(type, () => this.#perf.end(name));
  }

  hostUpdate(): void {
    const phase = this.#o.phase();
    for (const [name, span] of Object.entries(this.#o.spans)) {
      const inside = typeof span === 'function' ? span() : span.includes(phase);
      if (inside === this.#in.has(name)) continue;
      if (inside) {
        this.#in.add(name);
        this.#perf.start(name);
      } else {
        this.#in.delete(name);
        if (this.#o.endOn?.[name]) this.#perf.drop(name);
        else this.#perf.end(name, { status: phase });
      }
    }
  }

  /** Drops every open measure (a cancel, a reset, another job adopted). */
  clear(): void {
    this.#perf.clear();
  }
}
