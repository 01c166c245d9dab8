import type { ImageToolFormat } from '../api/index.js';

export interface ImageReadyDetail {
  /** The processed image (image/png or image/jpeg). */
  blob: Blob;
  width: number;
  height: number;
  format: ImageToolFormat;
  /** Credits this call charged (the response's X-Credits-Charged, never recomputed). */
  charged: number;
  /** Credits left after it (X-Credits-Remaining). */
  remaining: number;
}

/** An image tool call succeeded (background removed). */
export class ImageReadyEvent extends Event {
  static readonly type = 'mk-image-ready';
  readonly detail: ImageReadyDetail;

  constructor(detail: ImageReadyDetail) {
    super(ImageReadyEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-image-ready': ImageReadyEvent;
  }
}
