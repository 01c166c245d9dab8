/**
 * What both viewers share: the `src`/`alt`/`loading`/`auto-rotate` surface, lazy loading of the
 * renderer module (three.js and friends) only when there is something to show and the element is
 * near the viewport, one load at a time, a poster until the first frame, progress and errors in
 * the shadow DOM and as events, custom states, and GPU cleanup when the element leaves the page
 * (deferred, so moving it in the DOM costs nothing).
 */
import { html, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ViewerErrorEvent } from '../../events/viewer-error.js';
import { ViewerLoadEvent, type ViewerLoadDetail } from '../../events/viewer-load.js';
import { ViewerProgressEvent, type ViewerProgressDetail } from '../../events/viewer-progress.js';
import { MkElement } from '../../internal/mk-element.js';
import { ViewerError } from './viewer-error.js';

/** What a renderer module (the only three.js importer) gives the element. */
export interface ViewerRenderer {
  load(src: string, signal: AbortSignal, onProgress: (detail: ViewerProgressDetail) => void): Promise<Omit<ViewerLoadDetail, 'src'>>;
  setAutoRotate(on: boolean): void;
  /** A PNG of the current view. */
  screenshot(): Promise<Blob>;
  dispose(): void;
}

export type RendererFactory = (canvas: HTMLCanvasElement, container: HTMLElement) => ViewerRenderer;

type Status = 'idle' | 'loading' | 'loaded' | 'error';

export abstract class ViewerElement extends MkElement {
  /** URL of the file to show (a same-origin path, a signed download URL or a blob: URL). */
  @property({ reflect: true }) src = '';

  /** Accessible description of what the viewer shows. Default: a generic label per viewer. */
  @property() alt = '';

  /** `lazy` (default): load when the element comes near the viewport. `eager`: load at once. */
  @property({ reflect: true }) loading: 'lazy' | 'eager' = 'lazy';

  /** Turns the camera slowly around the subject. Default false. */
  @property({ type: Boolean, reflect: true, attribute: 'auto-rotate' }) autoRotate = false;

  @state() protected status: Status = 'idle';
  @state() protected progress: number | undefined;
  @state() protected errorMessage = '';

  #renderer: ViewerRenderer | undefined;
  #load: AbortController | undefined;
  #visible = false;
  #observer: IntersectionObserver | undefined;
  #internals = this.attachInternals();
  #loadedSrc = '';

  /** The label when `alt` is empty. */
  protected abstract defaultLabel: string;

  /** The renderer factory, from a memoized dynamic import. */
  protected abstract loadRenderer(): Promise<RendererFactory>;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#observer = new IntersectionObserver((entries) => {
      const visible = entries.some((e) => e.isIntersecting);
      if (visible !== this.#visible) {
        this.#visible = visible;
        this.requestUpdate();
      }
    }, { rootMargin: '200px' });
    this.#observer.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#observer?.disconnect();
    this.#observer = undefined;
    this.#visible = false;
    // A move in the DOM reconnects within the same task: keep the GPU state then.
    setTimeout(() => {
      if (this.isConnected) return;
      this.#load?.abort();
      this.#renderer?.dispose();
      this.#renderer = undefined;
      this.#loadedSrc = '';
    }, 0);
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('autoRotate')) this.#renderer?.setAutoRotate(this.autoRotate);
    this.#setState(this.status);
    const wanted = this.src && (this.loading === 'eager' || this.#visible);
    // Started after this update, so the state it sets schedules the next one cleanly.
    if (wanted && this.src !== this.#loadedSrc) {
      this.#loadedSrc = this.src;
      const src = this.src;
      void Promise.resolve().then(() => this.#start(src));
    }
  }

  /** A PNG of the current view; rejects until the first frame. */
  async screenshot(): Promise<Blob> {
    if (!this.#renderer || this.status !== 'loaded') throw new Error('Nothing is shown yet: wait for mk-viewer-load before taking a screenshot.');
    return this.#renderer.screenshot();
  }

  async #start(src: string): Promise<void> {
    if (src !== this.src) return; // replaced before it began
    this.#load?.abort(); // one load at a time: a new src cancels the old one
    const load = (this.#load = new AbortController());
    this.status = 'loading';
    this.progress = undefined;
    this.errorMessage = '';
    try {
      const factory = await this.loadRenderer();
      load.signal.throwIfAborted();
      const canvas = this.renderRoot.querySelector('canvas')!;
      this.#renderer ??= factory(canvas, this.renderRoot.querySelector('.base') as HTMLElement);
      this.#renderer.setAutoRotate(this.autoRotate);
      const result = await this.#renderer.load(src, load.signal, (detail) => {
        if (load.signal.aborted) return;
        this.progress = detail.total > 0 ? detail.loaded / detail.total : undefined;
        this.dispatchEvent(new ViewerProgressEvent(detail));
      });
      if (load.signal.aborted) return;
      this.status = 'loaded';
      this.dispatchEvent(new ViewerLoadEvent({ src, ...result }));
    } catch (err) {
      if (load.signal.aborted) return;
      const e = err instanceof ViewerError ? err : new ViewerError(err instanceof Error && /webgl/i.test(err.message) ? 'webgl_unavailable' : 'corrupt_file', `This file cannot be shown: ${err instanceof Error ? err.message : String(err)}`);
      this.status = 'error';
      this.errorMessage = e.message;
      this.dispatchEvent(new ViewerErrorEvent({ code: e.code, message: e.message, src }));
    }
  }

  #setState(status: Status): void {
    for (const s of ['loading', 'loaded', 'error'] as const) {
      try {
        if (s === status) this.#internals.states.add(s);
        else this.#internals.states.delete(s);
      } catch {
        // Browsers without CustomStateSet: the states are a styling nicety only.
      }
    }
  }

  protected override render() {
    const label = this.alt || this.defaultLabel;
    const pct = this.progress === undefined ? undefined : Math.round(this.progress * 100);
    // The error itself is announced by its role=alert; stages only here.
    const announce = this.status === 'loading' ? `Loading ${label}` : this.status === 'loaded' ? `${label} loaded` : '';
    return html`<div part="base" class="base">
      <canvas part="canvas" tabindex="0" role="img" aria-label=${`${label}. Drag or use the arrow keys to turn, + and - to zoom.`}></canvas>
      <slot name="poster" ?hidden=${this.status === 'loaded'}></slot>
      ${this.status === 'loading'
        ? html`<div part="progress" class="progress" role="progressbar" aria-label=${`Loading ${label}`} aria-valuemin="0" aria-valuemax="100" aria-valuenow=${pct ?? ''}>
            <div class="bar" style=${`width:${pct ?? 30}%`}></div>
          </div>`
        : ''}
      ${this.status === 'error' ? html`<div part="error" class="error" role="alert">${this.errorMessage}</div>` : ''}
      <div class="sr-only" aria-live="polite">${announce}</div>
    </div>`;
  }
}
