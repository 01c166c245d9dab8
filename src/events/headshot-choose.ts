import type { HeadshotStyle, VariantSlot } from '../api/index.js';

export interface HeadshotChooseDetail {
  slot: VariantSlot;
  style: HeadshotStyle;
  /** The chosen headshot as a PNG file (also the element's form value). */
  file: File;
  width: number;
  height: number;
}

/** The user chose one headshot (it is now the form value). */
export class HeadshotChooseEvent extends Event {
  static readonly type = 'mk-headshot-choose';
  readonly detail: HeadshotChooseDetail;

  constructor(detail: HeadshotChooseDetail) {
    super(HeadshotChooseEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-headshot-choose': HeadshotChooseEvent;
  }
}
