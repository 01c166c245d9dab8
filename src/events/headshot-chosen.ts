import type { HeadshotStyle, VariantSlot } from '../api/index.js';

export interface HeadshotChosenDetail {
  slot: VariantSlot;
  style: HeadshotStyle;
  /** The chosen headshot as a PNG file (also the element's form value). */
  file: File;
  width: number;
  height: number;
}

/** The user chose one headshot (it is now the form value). */
export class HeadshotChosenEvent extends Event {
  static readonly type = 'mk-headshot-chosen';
  readonly detail: HeadshotChosenDetail;

  constructor(detail: HeadshotChosenDetail) {
    super(HeadshotChosenEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-headshot-chosen': HeadshotChosenEvent;
  }
}
