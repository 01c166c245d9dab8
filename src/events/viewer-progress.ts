export interface ViewerProgressDetail {
  /** `download` while bytes arrive, `parse` while the file is decoded and uploaded to the GPU. */
  phase: 'download' | 'parse';
  loaded: number;
  /** Total bytes, 0 when the server did not say. */
  total: number;
}

/** A viewer's load moved on. */
export class ViewerProgressEvent extends Event {
  static readonly type = 'mk-viewer-progress';
  readonly detail: ViewerProgressDetail;

  constructor(detail: ViewerProgressDetail) {
    super(ViewerProgressEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-viewer-progress': ViewerProgressEvent;
  }
}
