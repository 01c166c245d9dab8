/**
 * `StudioCard`: what <headshot-studio> shows, drawn from the element's parts. Its phase (the
 * custom state, what each phase says, where focus goes) and the phase's User Timing `process`
 * (the generation request, a batch or one slot's retry: README "Performance timings"), the
 * results grid (loaded when the browser is idle after connect, or at once when a batch comes
 * first), the error panel, what the views are given (`StudioView`) at each render, and what field
 * mode shows of the value. The element hands its parts over once.
 */
import type { ReactiveControllerHost } from 'lit';
import { headshotCharge } from '../../api/index.js';
import type { AnnouncerController } from '../shared/announcer.js';
import type { CreditsController } from '../shared/credits.js';
import type { FieldFacts } from '../shared/field.js';
import { ErrorPanelController, LazyModuleController } from '../shared/lazy-panel.js';
import { PhaseController } from '../shared/phase-controller.js';
import { PhaseTimingsController } from '../shared/phase-timings.js';
import type { RequestController } from '../shared/request-controller.js';
import type { ResultValueController } from '../shared/result-value.js';
import type { HeadshotBatch } from './batch.js';
import type { PhotoIntake } from './intake.js';
import type { HeadshotPhoto } from './photo.js';
import { renderStudio } from './studio-view.js';
import { deriveStatus, focusAfter, PHASES, sayFor, slotsOf } from './types.js';
import type { HeadshotStatus, StudioHost, StudioView } from './types.js';
import type { HeadshotValue } from './value.js';

const loadResults = () => import('./results-view.js');

type Host = ReactiveControllerHost & HTMLElement & StudioHost & { topUpHref: string; readonly renderRoot: ParentNode };

export interface StudioParts {
  t: StudioView['t'];
  credits: CreditsController;
  request: RequestController;
  photo: HeadshotPhoto;
  batch: HeadshotBatch;
  intake: PhotoIntake;
  announce: AnnouncerController;
  results: () => ResultValueController<HeadshotValue>;
  /** Sets the custom states (the element's protected `setPhase`). */
  setPhase(names: readonly HeadshotStatus[], now: HeadshotStatus): void;
  /** The user starts over: the result is removed (`change`); with `keepPhoto`, back to the choices for the same photo. */
  startOver(keepPhoto: boolean): void;
}

export class StudioCard {
  readonly #host: Host;
  readonly #p: StudioParts;
  readonly #phase: PhaseController<HeadshotStatus>;
  readonly #timings: PhaseTimingsController<HeadshotStatus>;
  readonly #grid: LazyModuleController<typeof import('./results-view.js')>;
  readonly #panel: ErrorPanelController;

  constructor(host: Host, p: StudioParts) {
    this.#host = host;
    this.#p = p;
    this.#phase = new PhaseController<HeadshotStatus>(host, {
      phases: PHASES,
      derive: () => deriveStatus(p.photo, p.batch),
      states: (names, now) => p.setPhase(names, now),
      announcer: p.announce,
      say: (now, before) => sayFor(p.t, now, before, slotsOf(host.variants).length, p.batch),
      focus: (now, before) => focusAfter(now, before, p.batch.retried),
    });
    this.#timings = new PhaseTimingsController(host, {
      tag: 'headshot-studio',
      phase: () => this.#phase.phase,
      spans: { process: ['sending'] },
    });
    this.#grid = new LazyModuleController(host, loadResults, { styles: (m) => m.resultStyles });
    this.#panel = new ErrorPanelController(host);
  }

  /** The phase as of the last update. */
  get phase(): HeadshotStatus {
    return this.#phase.phase;
  }

  /** The user works here: focus may follow the phases (unless it is elsewhere on the page). */
  engage(): void {
    this.#phase.engage();
  }

  /** Drops an open `process` phase: a cancelled one is not a timing, the site's monitoring never sees it. */
  clearTimings(): void {
    this.#timings.clear();
  }

  /** Loads the results grid when a batch is shown before it loaded; true when it had to. */
  async settle(): Promise<boolean> {
    if (this.#grid.module || !this.#p.batch.results.length) return false;
    await this.#grid.load().catch(() => undefined);
    return true;
  }

  /** The card; `off`: the element (or its fieldset) is disabled. */
  render(off: boolean) {
    const { t, photo, batch, intake, credits, request, announce } = this.#p;
    const slots = slotsOf(this.#host.variants);
    return renderStudio(this.#grid.module, {
      t,
      host: this.#host,
      status: this.#phase.phase,
      off,
      photo,
      batch,
      camera: intake.camera,
      intake: intake.files,
      slots,
      cost: headshotCharge(slots.length),
      remaining: credits.remaining,
      keep: this.#p.results().render(t),
      startOver: (keepPhoto) => this.#p.startOver(keepPhoto),
      topUpHref: this.#host.topUpHref || undefined,
      waitSeconds: request.waitSeconds,
      announcer: announce.render(),
      panel: (error, options) => this.#panel.render(t, error, options),
    });
  }

  /** What field mode shows of the value. */
  fieldFacts(): FieldFacts {
    return fieldFactsOf(this.#p.t, this.#p.results().value, this.#phase.phase === 'sending');
  }
}

/** What field mode shows of a value: its style, whether one is chosen, and the chosen (else the first kept) headshot. */
function fieldFactsOf(t: StudioView['t'], v: HeadshotValue | null, busy: boolean): FieldFacts {
  const shown = v?.variants.find((x) => x.slot === v.chosen && x.asset) ?? v?.variants.find((x) => x.asset);
  return {
    t,
    title: t.term('hsTitle'),
    detail: v ? `${t.term(`hsStyle_${v.style}`)}${v.chosen !== null ? ` · ${t.term('hsChosen')}` : ''}` : undefined,
    preview: (shown?.asset ?? v?.asset)?.url,
    // A batch with no headshot chosen yet has no `asset`, but its variants are kept.
    kept: v ? v.variants.some((x) => x.asset) : undefined,
    busy,
  };
}
