export interface ViewerErrorDetail {
  /** `network`, `http_<status>`, `unsupported_format`, `corrupt_file`, `webgl_unavailable`, `timeout`. */
  code: string;
  message: string;
  src: string;
}

/** A viewer could not show `src`; the message says why and what to do. */
export class ViewerErrorEvent extends Event {
  static readonly type = 'mk-viewer-error';
  readonly detail: ViewerErrorDetail;

  constructor(detail: ViewerErrorDetail) {
    super(ViewerErrorEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-viewer-error': ViewerErrorEvent;
  }
}
