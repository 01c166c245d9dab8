/**
 * File intake for every element: a real `<button>` that opens an `<input type=file>` kept behind
 * it, drag and drop onto the element, paste while the element has focus (page-wide only when the
 * element opts in), `capture` for the camera on phones. Each file is offered to the host as a
 * cancelable `mk-file-selected` event first; a host's `preventDefault()` vetoes it.
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { FileSelectedEvent, type FileSelectDetail } from '../../events/file-selected.js';

type Host = ReactiveControllerHost & HTMLElement;

export interface FileIntakeOptions {
  /** `accept` of the input (a hint for the picker only; files are judged by their bytes later). */
  accept: string;
  multiple?: boolean;
  /** Takes the files the host did not veto. */
  onFiles(files: File[], source: FileSelectDetail['source']): void;
  /** Whether intake is allowed now (for example not while uploading). */
  enabled?: () => boolean;
  /** Paste anywhere on the page, not only while the element has focus. */
  pageWide?: () => boolean;
  /** `user` or `environment`: open the camera on phones. */
  capture?: () => string | undefined;
}

export class FileIntakeController implements ReactiveController {
  readonly host: Host;
  /** Whether a drag with files is over the element (for the drop highlight). */
  dragging = false;
  readonly #o: FileIntakeOptions;
  #depth = 0;

  constructor(host: Host, options: FileIntakeOptions) {
    this.host = host;
    this.#o = options;
    host.addController(this);
  }

  hostConnected(): void {
    this.host.addEventListener('dragenter', this.#onDragEnter);
    this.host.addEventListener('dragover', this.#onDragOver);
    this.host.addEventListener('dragleave', this.#onDragLeave);
    this.host.addEventListener('drop', this.#onDrop);
    this.host.addEventListener('paste', this.#onPaste);
    document.addEventListener('paste', this.#onPagePaste);
  }

  hostDisconnected(): void {
    this.host.removeEventListener('dragenter', this.#onDragEnter);
    this.host.removeEventListener('dragover', this.#onDragOver);
    this.host.removeEventListener('dragleave', this.#onDragLeave);
    this.host.removeEventListener('drop', this.#onDrop);
    this.host.removeEventListener('paste', this.#onPaste);
    document.removeEventListener('paste', this.#onPagePaste);
  }

  /** Opens the file picker (on a user gesture). */
  open(): void {
    const root = (this.host as Host & { renderRoot?: ParentNode }).renderRoot ?? this.host;
    const input = root.querySelector<HTMLInputElement>('input[type="file"][data-intake]');
    if (!input) return;
    input.value = '';
    input.click();
  }

  /** Offers files to the host (mk-file-selected each), then hands on those not vetoed. */
  offer(files: File[], source: FileSelectDetail['source']): File[] {
    if (this.#o.enabled && !this.#o.enabled()) return [];
    const list = this.#o.multiple ? files : files.slice(0, 1);
    const kept = list.filter((file) => this.host.dispatchEvent(new FileSelectedEvent({ file, source })));
    if (kept.length) this.#o.onFiles(kept, source);
    return kept;
  }

  /** The picker button and its hidden input. */
  render(label: string, options: { part?: string; primary?: boolean; describedBy?: string } = {}) {
    const capture = this.#o.capture?.();
    return html`<button type="button" part=${options.part ?? 'choose-button'} class=${options.primary === false ? 'secondary' : 'primary'}
        aria-describedby=${options.describedBy ?? nothing} ?disabled=${this.#o.enabled ? !this.#o.enabled() : false} @click=${() => this.open()}>
        ${label}
      </button>
      <input data-intake type="file" hidden tabindex="-1" aria-hidden="true" accept=${this.#o.accept}
        ?multiple=${this.#o.multiple ?? false} capture=${capture ?? nothing}
        @change=${(e: Event) => {
          const input = e.target as HTMLInputElement;
          this.offer([...(input.files ?? [])], capture ? 'camera' : 'picker');
        }} />`;
  }

  #hasFiles(e: DragEvent): boolean {
    return [...(e.dataTransfer?.types ?? [])].includes('Files');
  }

  #onDragEnter = (e: DragEvent) => {
    if (!this.#hasFiles(e)) return;
    e.preventDefault();
    this.#depth++;
    if (!this.dragging) {
      this.dragging = true;
      this.host.requestUpdate();
    }
  };

  #onDragOver = (e: DragEvent) => {
    if (!this.#hasFiles(e)) return;
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = this.#o.enabled && !this.#o.enabled() ? 'none' : 'copy';
  };

  #onDragLeave = () => {
    this.#depth = Math.max(0, this.#depth - 1);
    if (this.#depth === 0 && this.dragging) {
      this.dragging = false;
      this.host.requestUpdate();
    }
  };

  #onDrop = (e: DragEvent) => {
    if (!this.#hasFiles(e)) return;
    e.preventDefault();
    this.#depth = 0;
    this.dragging = false;
    this.host.requestUpdate();
    this.offer([...(e.dataTransfer?.files ?? [])], 'drop');
  };

  #pasted(e: ClipboardEvent): File[] {
    return [...(e.clipboardData?.items ?? [])]
      .filter((i) => i.kind === 'file')
      .map((i) => i.getAsFile())
      .filter((f): f is File => f !== null);
  }

  #onPaste = (e: ClipboardEvent) => {
    const files = this.#pasted(e);
    if (!files.length) return;
    e.preventDefault();
    e.stopPropagation();
    this.offer(files, 'paste');
  };

  #onPagePaste = (e: ClipboardEvent) => {
    if (!this.#o.pageWide?.() || e.defaultPrevented) return;
    const target = e.composedPath()[0];
    // Never take a paste meant for a text field of the page.
    if (
      target instanceof HTMLElement &&
      (target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)
    )
      return;
    this.#onPaste(e);
  };
}
