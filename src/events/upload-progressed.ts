export interface UploadProgress {
  /** Bytes sent so far. */
  loaded: number;
  /** Bytes of the whole request body. */
  total: number;
  /** Smoothed send rate in bytes per second (0 until measurable). */
  bytesPerSecond: number;
  /** Estimated seconds left, or undefined until the rate is known. */
  secondsLeft: number | undefined;
}

/** Bytes of an upload went out. */
export class UploadProgressedEvent extends Event {
  static readonly type = 'mk-upload-progressed';
  readonly detail: UploadProgress;

  constructor(detail: UploadProgress) {
    super(UploadProgressedEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-upload-progressed': UploadProgressedEvent;
  }
}
