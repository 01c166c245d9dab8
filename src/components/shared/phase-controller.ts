/**
 * `PhaseController`: an element's phase (`idle`, `ready`, `working`, ...), derived from its state
 * on every update. On each change it sets exactly one custom state (`:state(<phase>)`), says one
 * announcement through the element's polite live region, and moves focus to the result or to what
 * to do next, but only for a user who is working with this element: focus was last inside it (a
 * button that disappears with the phase keeps it so). A job that ends in the background never
 * takes the focus from whatever the user is doing elsewhere on the page (STYLE.md "Announcements").
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { focusFirst } from '../../internal/small.js';
import type { AnnouncerController } from './announcer.js';

type Host = ReactiveControllerHost & HTMLElement & { readonly renderRoot: ParentNode };

export interface PhaseOptions<P extends string> {
  /** Every phase (the custom states the element documents with `@cssstate`). */
  phases: readonly P[];
  /** The phase now, from the host's state; read on every update, after the host's `willUpdate`. */
  derive(): P;
  /** Sets the custom states; an element passes `(names, now) => this.setPhase(names, now)` (MkElement's is protected). */
  states(names: readonly P[], now: P): void;
  announcer?: AnnouncerController;
  /** What to announce when the phase becomes `now` (undefined: nothing). */
  say?(now: P, before: P): string | undefined;
  /** Where focus goes when the phase becomes `now`: selectors in preference order, comma-separated (undefined: stays). */
  focus?(now: P, before: P): string | undefined;
  /**
   * Move focus on a phase change even when the user's focus is not inside the element. Default
   * false, and best left so: a job that ends in the background should not take the focus. For an
   * element whose `focus` rule already limits itself to changes the user caused.
   */
  freeFocus?: boolean;
  /** Anything else a change means to the host (form value, counters); runs first, in the same update. */
  onChange?(now: P, before: P): void;
}

export class PhaseController<P extends string> implements ReactiveController {
  readonly host: Host;
  readonly #o: PhaseOptions<P>;
  #phase: P;
  #shown: P | undefined;
  #engaged = false;

  constructor(host: Host, options: PhaseOptions<P>) {
    this.host = host;
    this.#o = options;
    this.#phase = options.phases[0]!;
    host.addController(this);
  }

  /** The phase as of the last update. */
  get phase(): P {
    return this.#phase;
  }

  /** Where focus goes once it is rendered (a phase change's `focus`); undefined: nowhere. */
  #focusTo: string | undefined;

  /** Whether the user's focus was last inside the element. */
  get engaged(): boolean {
    return this.#engaged;
  }

  /**
   * The user acted on the element without focusing it (a file dropped on it, or handed to it by
   * script): count them as working with it, unless the page's focus is in something else.
   */
  engage(): void {
    const active = document.activeElement;
    if (!active || active === document.body || active === this.host || this.host.contains(active)) this.#engaged = true;
  }

  hostConnected(): void {
    this.host.addEventListener('focusin', this.#onFocusIn);
    document.addEventListener('focusin', this.#onPageFocusIn);
  }

  hostDisconnected(): void {
    this.host.removeEventListener('focusin', this.#onFocusIn);
    document.removeEventListener('focusin', this.#onPageFocusIn);
  }

  hostUpdate(): void {
    const before = this.#phase;
    const now = (this.#phase = this.#o.derive());
    if (now === before) return;
    const o = this.#o;
    o.onChange?.(now, before);
    const text = o.say?.(now, before);
    if (text) o.announcer?.say(text);
    // Moved once what it names is rendered: this update, or a later one when it waits on a lazily
    // loaded part (the error panel on a slow connection), unless the user went elsewhere meanwhile.
    this.#focusTo = this.#engaged || o.freeFocus ? o.focus?.(now, before) : undefined;
  }

  hostUpdated(): void {
    // Tried once the host has settled (an update it schedules from this one replaces what it renders).
    if (this.#focusTo) void this.host.updateComplete.then(() => this.#tryFocus());
    if (this.#shown === this.#phase) return;
    this.#shown = this.#phase;
    this.#o.states(this.#o.phases, this.#phase);
  }

  #tryFocus(): void {
    if (this.#focusTo && focusFirst(this.host.renderRoot, this.#focusTo)) this.#focusTo = undefined;
  }

  #onFocusIn = () => (this.#engaged = true);
  #onPageFocusIn = (e: Event) => {
    if (e.composedPath().includes(this.host)) return;
    this.#engaged = false;
    this.#focusTo = undefined;
  };
}
