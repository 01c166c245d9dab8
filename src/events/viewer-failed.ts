export interface ViewerErrorDetail {
  /** `network`, `http_<status>`, `unsupported_format`, `corrupt_file`, `webgl_unavailable`, `timeout`. */
  code: string;
  message: string;
  src: string;
}

/** A viewer could not show `src`; the message says why and what to do. */
export class ViewerFailedEvent extends Event {
  static readonly type = 'mk-viewer-failed';
  readonly detail: ViewerErrorDetail;

  constructor(detail: ViewerErrorDetail) {
    super(ViewerFailedEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-viewer-failed': ViewerFailedEvent;
  }
}
