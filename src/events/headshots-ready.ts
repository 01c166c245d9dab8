import type { HeadshotStyle, VariantSlot } from '../api/index.js';

/** One slot of a headshot batch as the element shows it. */
export interface HeadshotSlot {
  /** Slot 0-3: 0 exact style template, 1 warmer three-quarter angle, 2 alternate outfit colour, 3 tighter neutral crop. */
  slot: VariantSlot;
  status: 'succeeded' | 'failed';
  /** The PNG, when the slot succeeded. */
  blob?: Blob;
  width?: number;
  height?: number;
  /** The service's message, when the slot failed. */
  error?: string;
}

export interface HeadshotsReadyDetail {
  style: HeadshotStyle;
  /** Every slot of the batch as it stands now (a retried slot replaces its earlier entry). */
  headshots: HeadshotSlot[];
  /** The slots this answer covered (all requested ones, or the one retried). */
  slots: VariantSlot[];
  /** Credits this answer charged (the response's `credits_charged`, never recomputed). */
  charged: number;
  /** Credits left after it (the response's `credits_remaining`). */
  remaining: number;
}

/** A headshot batch (or the retry of one slot) came back with at least one image. */
export class HeadshotsReadyEvent extends Event {
  static readonly type = 'mk-headshots-ready';
  readonly detail: HeadshotsReadyDetail;

  constructor(detail: HeadshotsReadyDetail) {
    super(HeadshotsReadyEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-headshots-ready': HeadshotsReadyEvent;
  }
}
