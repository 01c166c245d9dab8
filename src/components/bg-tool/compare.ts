/**
 * The before/after comparison of <bg-tool>: the original on the left of the handle, the result
 * (over a transparency checkerboard) on the right. The handle is a real `role="slider"`: pointer
 * drag anywhere on the picture, arrow keys (5 %), Page Up/Down (10 %), Home and End.
 */
import { html, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { styleProps } from '../../internal/style-props.js';

export interface CompareLabels {
  slider: string;
  value: (percent: number) => string;
  hint: string;
  before: string;
  after: string;
  beforeAlt: string;
  afterAlt: string;
}

export class CompareController implements ReactiveController {
  readonly host: ReactiveControllerHost;
  /** Where the handle is, 0-100 (percent of the width from the left). */
  split = 50;
  #dragging = false;

  constructor(host: ReactiveControllerHost) {
    this.host = host;
    host.addController(this);
  }

  hostConnected(): void {}

  set(percent: number): void {
    const next = Math.round(Math.max(0, Math.min(100, percent)));
    if (next === this.split) return;
    this.split = next;
    this.host.requestUpdate();
  }

  #fromPointer(e: PointerEvent): void {
    const box = (e.currentTarget as HTMLElement).getBoundingClientRect();
    if (box.width > 0) this.set(((e.clientX - box.left) / box.width) * 100);
  }

  #down = (e: PointerEvent) => {
    if (e.button !== 0) return;
    const target = e.currentTarget as HTMLElement;
    this.#dragging = true;
    target.setPointerCapture?.(e.pointerId);
    this.#fromPointer(e);
    (target.querySelector('[role="slider"]') as HTMLElement | null)?.focus({ preventScroll: true });
    e.preventDefault();
  };

  #move = (e: PointerEvent) => {
    if (this.#dragging) this.#fromPointer(e);
  };

  #up = () => {
    this.#dragging = false;
  };

  #key = (e: KeyboardEvent) => {
    const steps: Record<string, number> = {
      ArrowLeft: -5,
      ArrowDown: -5,
      ArrowRight: 5,
      ArrowUp: 5,
      PageDown: -10,
      PageUp: 10,
    };
    if (e.key === 'Home') this.set(0);
    else if (e.key === 'End') this.set(100);
    else if (e.key in steps) this.set(this.split + steps[e.key]!);
    else return;
    e.preventDefault();
  };

  /** `ratio`: width / height of the original, so the box has the picture's shape (no letterbox beside the checkerboard). */
  render(before: string, after: string, labels: CompareLabels, ratio?: number) {
    const p = this.split;
    return html`<div part="compare" class="compare" dir="ltr" style=${styleProps(shape(ratio))} @pointerdown=${this.#down} @pointermove=${this.#move} @pointerup=${this.#up} @pointercancel=${this.#up}>
      <img class="before" src=${before} alt=${labels.beforeAlt} draggable="false" />
      <div class="after" style=${styleProps({ clipPath: `inset(0 0 0 ${p}%)` })}>
        <img class="checkerboard" src=${after} alt=${labels.afterAlt} draggable="false" />
      </div>
      <span class="tag tag-before" aria-hidden="true">${labels.before}</span>
      <span class="tag tag-after" aria-hidden="true">${labels.after}</span>
      <div part="slider" class="handle" role="slider" tabindex="0" aria-label=${labels.slider} aria-describedby="compare-hint" aria-orientation="horizontal"
        aria-valuemin="0" aria-valuemax="100" aria-valuenow=${p} aria-valuetext=${labels.value(p)} style=${styleProps({ left: `${p}%` })} @keydown=${this.#key}>
        <span class="knob" aria-hidden="true">
          <svg viewBox="0 0 24 24"><path d="M9 6l-5 6 5 6M15 6l5 6-5 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>
        </span>
      </div>
    </div>
    <p class="muted" id="compare-hint">${labels.hint}</p>`;
  }
}

/** Inline size and aspect ratio for a box with the picture's shape, at most --mk-compare-height tall. */
export function shape(ratio: number | undefined): Record<string, string> {
  if (!ratio || !Number.isFinite(ratio)) return {};
  return {
    aspectRatio: String(ratio),
    blockSize: 'auto',
    inlineSize: `min(100%, calc(var(--mk-compare-height) * ${ratio.toFixed(4)}))`,
  };
}
