/** A load failure with a code for `mk-viewer-failed` and a message that says what to do. */
export class ViewerError extends Error {
  override readonly name = 'ViewerError';
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}
