/**
 * What both viewers share: the `src`/`alt`/`loading`/`auto-rotate`/`up` surface, lazy loading of
 * the renderer module (three.js and friends) only when there is something to show and the element
 * is near the viewport, one load at a time, a visible frame with a hint (or the poster) until the
 * first frame, progress and errors in the shadow DOM and as events, custom states, and GPU cleanup
 * when the element leaves the page (deferred, so moving it in the DOM costs nothing). The hint, the
 * error's words and the custom states are in viewer-view.ts.
 */
import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { keyed } from 'lit/directives/keyed.js';
import { ViewerFailedEvent } from '../../events/viewer-failed.js';
import { ViewerLoadedEvent } from '../../events/viewer-loaded.js';
import { ViewerProgressedEvent, type ViewerProgressDetail } from '../../events/viewer-progressed.js';
import { MkElement } from '../../internal/mk-element.js';
import { styleProps } from '../../internal/style-props.js';
import { PhaseTimer } from '../../internal/perf.js';
import { ViewerError } from './viewer-error.js';
import { LocalizeController, useLanguages } from '../../internal/localize.js';
import { languages } from '../../translations/languages.js';
import { viewerStrings, type ViewerStrings } from './viewer-strings.js';
import { reasonOf, viewerMessages } from './viewer-messages.js';
import { fetchBytes, fetchStream, type ByteStream } from './fetch-bytes.js';
import type { RendererFactory, Thinned, ViewerRenderer, ViewerUp } from './viewer-renderer.js';
import { errorText, renderHint, setViewerStates, type ViewerStatus } from './viewer-view.js';

export type { RendererFactory, Thinned, ViewerRenderer, ViewerUp } from './viewer-renderer.js';

// The shipped languages load the first time a viewer resolves to one.
useLanguages(languages);

/** How long a viewer that gives its context back off-screen waits before it does. */
const RELEASE_OFFSCREEN_MS = 3000;

const UPS: readonly ViewerUp[] = ['+y', '-y', '+z', '-z'];

type Status = ViewerStatus;

export abstract class ViewerElement extends MkElement {
  /** URL of the file to show (a same-origin path, a signed download URL or a blob: URL). */
  @property({ reflect: true }) src = '';

  /** Accessible description of what the viewer shows. Default: a generic label per viewer. */
  @property() alt = '';

  /** `lazy` (default): load when the element comes near the viewport. `eager`: load at once. */
  @property({ reflect: true }) loading: 'lazy' | 'eager' = 'lazy';

  /** Turns the camera slowly around the subject. Default false. */
  @property({ type: Boolean, reflect: true, attribute: 'auto-rotate' }) autoRotate = false;

  /**
   * The axis of the file that points up: `+y` (glTF, three.js), `-y` (3DGS training output in the
   * COLMAP/OpenCV convention), `+z` (Blender, CAD) or `-z`. Default: `+y` for models, `-y` for splats.
   */
  @property({ reflect: true }) up: ViewerUp = '+y';

  /** The largest device-pixel ratio drawn (a phone at 3x draws at 2x by default: a third fewer pixels to shade). Default 2. */
  @property({ type: Number, attribute: 'max-pixel-ratio' }) maxPixelRatio = 2;

  @state() protected status: Status = 'idle';
  @state() protected progress: number | undefined;
  @state() protected errorMessage = '';
  @state() protected errorCode = '';
  @state() private hasPoster = false;
  /** The scene shown is thinned to the splat budget (said in the notice part). */
  @state() private thinned: Thinned | undefined;
  /** While a streamed scene arrives: the splats on screen so far, of the file's. */
  @state() private streamed: Thinned | undefined;

  #renderer: ViewerRenderer | undefined;
  #load: AbortController | undefined;
  #visible = false;
  #observer: IntersectionObserver | undefined;
  #internals = this.attachInternals();
  #loadedSrc = '';
  #released = false;
  /** A new canvas after a context was given back: a canvas keeps its lost context for good. */
  @state() private canvasGeneration = 0;
  #releaseTimer: ReturnType<typeof setTimeout> | undefined;
  /** The bytes shown, kept while the context is given back so coming into view needs no download. */
  #kept: { src: string; bytes: Uint8Array } | undefined;
  /** What is shown in the renderer's compact form, when it has one (a streamed splat scene). */
  #compact: Uint8Array | undefined;
  /** User Timing `mediakit:glb-viewer|splat-viewer:first-frame` (the library's tag, whatever a page registered): from starting to load a src to its first frame. */
  #perf: PhaseTimer | undefined;

  /** Gives the renderer (and its WebGL context) back when the element has been out of view a moment. */
  protected releaseOffscreen = false;

  /** The renderer reads the download as it arrives (and shows it while it does). */
  protected streams = false;

  /** Words in the element's language (closest [lang]); `strings` overrides single ones. */
  @property({ attribute: false }) strings: Partial<ViewerStrings> | undefined;

  readonly #t = new LocalizeController<ViewerStrings>(this, viewerStrings);

  /** Which words describe what this viewer shows. */
  protected kind: 'model' | 'scene' = 'model';

  /** `up` when the attribute holds none of the four values. */
  protected abstract defaultUp: ViewerUp;

  /** The renderer factory, from a memoized dynamic import. */
  protected abstract loadRenderer(): Promise<RendererFactory>;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#observer = new IntersectionObserver(
      (entries) => {
        const visible = entries.some((e) => e.isIntersecting);
        if (visible !== this.#visible) {
          this.#visible = visible;
          clearTimeout(this.#releaseTimer);
          if (!visible && this.releaseOffscreen && this.#renderer)
            this.#releaseTimer = setTimeout(() => this.#releaseContext(), RELEASE_OFFSCREEN_MS);
          this.requestUpdate();
        }
      },
      { rootMargin: '200px' },
    );
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
      this.#perf?.clear();
      this.#renderer?.dispose();
      this.#renderer = undefined;
      this.#loadedSrc = '';
      this.#kept = undefined;
      clearTimeout(this.#releaseTimer);
    }, 0);
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('autoRotate')) this.#renderer?.setAutoRotate(this.autoRotate);
    if (changed.has('up')) this.#renderer?.setUp(this.#up());
    if (changed.has('maxPixelRatio')) this.#renderer?.setMaxPixelRatio(this.#pixelRatio());
    setViewerStates(this.#internals, this.status);
    // After its context was given back off-screen, a viewer loads again only when it is seen.
    const wanted = this.src && ((this.loading === 'eager' && !this.#released) || this.#visible);
    // Started after this update, so the state it sets schedules the next one cleanly.
    if (wanted && this.src !== this.#loadedSrc) {
      this.#loadedSrc = this.src;
      const src = this.src;
      void Promise.resolve().then(() => this.#start(src));
    }
  }

  /** A PNG of the current view; rejects until the first frame (of a streamed scene: its first splats). */
  async screenshot(): Promise<Blob> {
    if (!this.#renderer || !(this.status === 'loaded' || (this.status === 'loading' && this.streamed)))
      throw new Error(viewerMessages.notShownYet);
    return this.#renderer.screenshot();
  }

  async #start(src: string): Promise<void> {
    if (src !== this.src) return; // replaced before it began
    this.#load?.abort(); // one load at a time: a new src cancels the old one
    const load = (this.#load = new AbortController());
    // `kind` is a subclass field: set once the constructor is done, so read here, not at construction.
    this.#perf ??= new PhaseTimer(this.kind === 'model' ? 'glb-viewer' : 'splat-viewer');
    this.#perf.start('first-frame');
    this.status = 'loading';
    this.progress = undefined;
    this.errorMessage = '';
    this.thinned = undefined;
    this.streamed = undefined;
    this.#compact = undefined;
    const onProgress = (detail: ViewerProgressDetail) => {
      if (load.signal.aborted) return;
      this.progress = detail.total > 0 ? detail.loaded / detail.total : undefined;
      if (detail.phase === 'stream' && detail.splats !== undefined)
        this.streamed = { shown: detail.splats, total: detail.of ?? detail.splats };
      this.dispatchEvent(new ViewerProgressedEvent(detail));
    };
    try {
      // The file downloads while the renderer module (three.js) loads, not after it.
      const kept = this.#kept?.src === src ? this.#kept.bytes : undefined;
      const bytes: Promise<Uint8Array | ByteStream> = kept
        ? Promise.resolve(kept)
        : this.streams
          ? fetchStream(src, load.signal)
          : fetchBytes(src, load.signal, (loaded, total) => onProgress({ phase: 'download', loaded, total }));
      bytes.catch(() => undefined); // awaited below; an early failure must not go unhandled meanwhile
      const factory = await this.loadRenderer();
      load.signal.throwIfAborted();
      const canvas = this.renderRoot.querySelector('canvas')!;
      this.#renderer ??= factory(canvas, this.renderRoot.querySelector('.base') as HTMLElement);
      this.#renderer.setAutoRotate(this.autoRotate);
      this.#renderer.setUp(this.#up());
      this.#renderer.setMaxPixelRatio(this.#pixelRatio());
      const data = await bytes;
      if (this.releaseOffscreen && data instanceof Uint8Array) this.#kept = { src, bytes: data };
      this.#released = false;
      const result = await this.#renderer.load(data, load.signal, onProgress);
      if (load.signal.aborted) return;
      // A streamed scene is kept in its compact form (the raw file was never held).
      const compact = this.#renderer.compact?.();
      this.#compact = compact;
      if (this.releaseOffscreen && compact) this.#kept = { src, bytes: compact };
      const { thinned, ...detail } = result;
      this.thinned = thinned;
      this.streamed = undefined;
      this.status = 'loaded';
      this.#perf.end('first-frame');
      this.dispatchEvent(new ViewerLoadedEvent({ src, ...detail }));
    } catch (err) {
      if (load.signal.aborted) return;
      this.#perf?.clear();
      const e =
        err instanceof ViewerError
          ? err
          : new ViewerError(
              err instanceof Error && /webgl/i.test(err.message) ? 'webgl_unavailable' : 'corrupt_file',
              viewerMessages.cannotShow(reasonOf(err)),
            );
      this.status = 'failed';
      this.errorMessage = e.message;
      this.errorCode = e.code;
      this.dispatchEvent(new ViewerFailedEvent({ code: e.code, message: e.message, src }));
    }
  }

  /** The file shown, in the renderer's compact form (see the subclass), once loaded. */
  protected compactBytes(): Uint8Array | undefined {
    return this.status === 'loaded' ? this.#compact : undefined;
  }

  #releaseContext(): void {
    if (this.#visible || !this.#renderer) return;
    this.#load?.abort();
    this.#renderer.dispose();
    this.#renderer = undefined;
    this.#loadedSrc = '';
    this.#released = true;
    this.canvasGeneration++;
    this.status = 'idle';
  }

  #pixelRatio(): number {
    return this.maxPixelRatio > 0 ? this.maxPixelRatio : 2;
  }

  #up(): ViewerUp {
    return UPS.includes(this.up) ? this.up : this.defaultUp;
  }

  #handlePosterChange = (e: Event) => {
    this.hasPoster = (e.target as HTMLSlotElement).assignedElements().length > 0;
  };

  protected override render() {
    const t = this.#t;
    const label = this.alt || t.term(this.kind === 'model' ? 'vwModel' : 'vwScene');
    const pct = this.progress === undefined ? undefined : Math.round(this.progress * 100);
    // The error itself is announced by its role=alert; stages only here.
    const announce =
      this.status === 'loading'
        ? t.term('vwLoading', { label })
        : this.status === 'loaded'
          ? t.term('vwLoaded', { label })
          : '';
    const waiting = this.status === 'idle' || this.status === 'loading';
    return html`<div part="base" class="base">
      ${keyed(this.canvasGeneration, html`<canvas part="canvas" tabindex="0" role="img" aria-label=${t.term('vwCanvas', { label })}></canvas>`)}
      <slot name="poster" ?hidden=${this.status === 'loaded' || !!this.streamed} @slotchange=${this.#handlePosterChange}></slot>
      ${waiting && !this.hasPoster && !this.streamed ? renderHint(t, this.kind, this.alt, this.src) : nothing}
      ${
        this.status === 'loading'
          ? html`<div part="progress" class="progress" role="progressbar" aria-label=${t.term('vwLoading', { label })} aria-valuemin="0" aria-valuemax="100" aria-valuenow=${pct ?? nothing}>
            <div class="bar" style=${styleProps({ inlineSize: `${pct ?? 30}%` })}></div>
          </div>`
          : nothing
      }
      ${this.status === 'failed' ? html`<div part="error" class="error" role="alert">${errorText(t, this.errorCode, this.errorMessage, !!this.strings)}</div>` : nothing}
      ${this.status === 'loaded' && this.thinned ? html`<div part="notice" class="notice" role="status">${t.term('vwThinned', this.thinned)}</div>` : nothing}
      ${
        this.status === 'loading' && this.streamed
          ? html`<div part="notice streaming" class="notice">${t.term('vwStreaming', { percent: pct ?? 0, ...this.streamed })}</div>`
          : nothing
      }
      <div class="sr-only" aria-live="polite">${announce}</div>
    </div>`;
  }
}
