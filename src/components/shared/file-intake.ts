/**
 * File intake for every element: a real `<button>` that opens an `<input type=file>` kept behind
 * it, drag and drop onto the element, paste while the element has focus (page-wide only when the
 * element opts in), and the phone's camera: the element's `capture` makes the picker open it, and a
 * camera button (`renderCamera`) opens it beside the picker. Every file, a live camera's snapshot
 * too (`offer(files, 'camera')`), takes one path: offered to the host as a cancelable
 * `mk-file-selected` event first (a host's `preventDefault()` vetoes it), then to `onFiles`, where
 * the element's checks, photo-fitting and errors are the same whatever the source.
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
  /** The element's `capture` (`user` or `environment`): the picker opens the phone's camera instead of the file list. */
  capture?: () => string | undefined;
  /** The camera a camera button opens when the element's `capture` names none. Default `environment`. */
  camera?: 'user' | 'environment';
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
    this.#click('input[type="file"][data-intake]');
  }

  /** Opens the phone's camera (on a user gesture), through the input `renderCamera` draws. */
  openCamera(): void {
    this.#click('input[type="file"][data-intake-camera]');
  }

  #click(selector: string): void {
    const root = (this.host as Host & { renderRoot?: ParentNode }).renderRoot ?? this.host;
    const input = root.querySelector<HTMLInputElement>(selector);
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
        @change=${(e: Event) => this.#taken(e, capture ? 'camera' : 'picker')} />`;
  }

  /** A camera button (`part="camera-button"`) and its hidden `<input capture>`: the element's `capture`, else the `camera` option. `onClick` replaces what the button does (a live preview that falls back to `openCamera()`). */
  renderCamera(label: string, options: { onClick?: () => void } = {}) {
    const off = this.#o.enabled ? !this.#o.enabled() : false;
    return html`<button type="button" part="camera-button" class="secondary" ?disabled=${off}
        @click=${options.onClick ?? (() => this.openCamera())}>${label}</button>
      <input data-intake-camera type="file" hidden tabindex="-1" aria-hidden="true" accept=${this.#o.accept}
        ?multiple=${this.#o.multiple ?? false} capture=${this.#o.capture?.() ?? this.#o.camera ?? 'environment'}
        @change=${(e: Event) => this.#taken(e, 'camera')} />`;
  }

  #taken(e: Event, source: FileSelectDetail['source']): void {
    this.offer([...((e.target as HTMLInputElement).files ?? [])], source);
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
