export interface FileSelectDetail {
  /** The file the user chose, dropped or pasted. */
  file: File;
  /** How it arrived. */
  source: 'picker' | 'drop' | 'paste' | 'camera' | 'property';
}

/**
 * The user picked a file, before anything is checked or sent. Cancelable: `preventDefault()`
 * vetoes the file (the element ignores it and stays as it was), for hosts with rules of their own.
 */
export class FileSelectedEvent extends Event {
  static readonly type = 'mk-file-selected';
  readonly detail: FileSelectDetail;

  constructor(detail: FileSelectDetail) {
    super(FileSelectedEvent.type, { bubbles: true, composed: true, cancelable: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-file-selected': FileSelectedEvent;
  }
}
