/**
 * Reordering <model-generator>'s photos by dragging a thumbnail: pointer events on the thumbnail
 * (mouse, pen and touch alike; the thumbnail has touch-action: none so a finger drags instead of
 * scrolling). HTML5 drag and drop would reach the element's file drop zone and does not fire for
 * touch in most browsers. Escape cancels a drag; the photo list moves the photo when it ends.
 */
import type { ReactiveControllerHost } from 'lit';

/** A thumbnail being dragged: where it was, where it would land, and how far the pointer went. */
export interface Drag {
  key: string;
  from: number;
  to: number;
  pointerId: number;
  startY: number;
  moved: boolean;
}

export interface PhotoDragOptions {
  /** The photos' keys, in order. */
  keys(): string[];
  /** A drag ended with the photo at `from` dropped at `to`. */
  moved(from: number, to: number): void;
}

export class PhotoDrag {
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #o: PhotoDragOptions;
  #drag: Drag | undefined;

  constructor(host: ReactiveControllerHost & HTMLElement, options: PhotoDragOptions) {
    this.#host = host;
    this.#o = options;
  }

  /** The drag to draw: one whose pointer has moved, else undefined. */
  get shown(): Drag | undefined {
    return this.#drag?.moved ? this.#drag : undefined;
  }

  readonly onPointerDown = (e: PointerEvent) => {
    const thumb = (e.target as Element).closest?.('.photo-thumb');
    const item = thumb?.closest<HTMLElement>('[part~="photo"]');
    if (!thumb || !item || !e.isPrimary || e.button !== 0 || this.#drag) return;
    const keys = this.#o.keys();
    const from = keys.findIndex((key) => key === item.dataset['key']);
    if (from < 0 || keys.length < 2) return;
    e.preventDefault(); // no text selection, no native image drag
    try {
      thumb.setPointerCapture(e.pointerId);
    } catch {
      // A pointer the browser does not know (a synthetic event): its events reach the thumbnail anyway.
    }
    this.#drag = { key: item.dataset['key']!, from, to: from, pointerId: e.pointerId, startY: e.clientY, moved: false };
    this.#host.ownerDocument.addEventListener('keydown', this.#onKey);
  };

  readonly onPointerMove = (e: PointerEvent) => {
    const d = this.#drag;
    if (!d || e.pointerId !== d.pointerId) return;
    if (!d.moved && Math.abs(e.clientY - d.startY) < 4) return;
    const list = e.currentTarget as HTMLElement;
    const items = [...list.querySelectorAll<HTMLElement>(':scope > [part~="photo"]')];
    // The photo lands after every other photo whose middle the pointer has passed.
    const to = items.filter(
      (el, i) => i !== d.from && e.clientY > el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2,
    ).length;
    if (to !== d.to || !d.moved) this.#host.requestUpdate();
    d.moved = true;
    d.to = to;
  };

  readonly onPointerUp = (e: PointerEvent) => {
    const d = this.#drag;
    if (!d || e.pointerId !== d.pointerId) return;
    this.end();
    if (d.moved) this.#o.moved(d.from, d.to);
  };

  readonly onPointerCancel = (e: PointerEvent) => {
    if (this.#drag && e.pointerId === this.#drag.pointerId) this.end();
  };

  #onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !this.#drag) return;
    e.preventDefault();
    this.end();
  };

  /** Ends the drag (if any) with nothing moved. */
  end(): void {
    if (!this.#drag) return;
    this.#drag = undefined;
    this.#host.ownerDocument.removeEventListener('keydown', this.#onKey);
    this.#host.requestUpdate();
  }
}
