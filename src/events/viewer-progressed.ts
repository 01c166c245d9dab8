export interface ViewerProgressDetail {
  /**
   * `download` while bytes arrive, `parse` while the file is decoded and uploaded to the GPU, and
   * `stream` each time more of a scene shown while it downloads is on screen (`splats` of `of`).
   */
  phase: 'download' | 'parse' | 'stream';
  /** Bytes downloaded (or decoded, for `parse`). */
  loaded: number;
  /** Total bytes, 0 when the server did not say. */
  total: number;
  /** `stream`: the splats on screen now. */
  splats?: number;
  /** `stream`: the splats in the file. */
  of?: number;
}

/** A viewer's load moved on. */
export class ViewerProgressedEvent extends Event {
  static readonly type = 'mk-viewer-progressed';
  readonly detail: ViewerProgressDetail;

  constructor(detail: ViewerProgressDetail) {
    super(ViewerProgressedEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-viewer-progressed': ViewerProgressedEvent;
  }
}
