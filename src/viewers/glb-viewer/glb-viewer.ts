import { property } from 'lit/decorators.js';
import type { ModelStats } from '../../api/index.js';
import type { ViewerLoadedEvent } from '../../events/viewer-loaded.js';
import { ViewerElement, type RendererFactory, type ViewerUp } from '../shared/viewer-element.js';
import { viewerStyles } from '../shared/viewer.styles.js';

let rendererModule: Promise<typeof import('./glb-renderer.js')> | undefined;

/**
 * @summary Shows a GLB model: orbit, zoom, studio lighting, animations, and the model's statistics.
 * @tag glb-viewer
 *
 * @slot poster - Shown until the first frame (an image of the model, for example the turntable's first frame).
 *
 * @event mk-viewer-loaded - The first frame is drawn; `detail.stats` holds the file's triangles, vertices, meshes, materials, textures, maxTextureSize, bytes and animations.
 * @event mk-viewer-progressed - Bytes arrived (`phase: 'download'`) or the file is being decoded (`phase: 'parse'`).
 * @event mk-viewer-failed - The model cannot be shown; `detail.message` says why and what to do.
 *
 * @csspart base - The box around everything.
 * @csspart canvas - The canvas the page's one shared WebGL renderer draws this model into (focusable: arrow keys turn, + and - zoom, Home resets).
 * @csspart hint - The icon and text shown while there is nothing to show yet ("No model yet", or "Loading…") when no poster is given.
 * @csspart progress - The progress bar while loading.
 * @csspart error - The error message.
 *
 * @cssproperty --mk-viewer-height - Height of the viewer. Default 360px.
 * @cssproperty --mk-surface - The frame's background, shared by all elements. Default #f6f8fa (#161b22 in dark mode).
 * @cssproperty --mk-border - The frame's 1px border colour, shared by all elements. Default #d0d7de (#30363d in dark mode).
 * @cssproperty --mk-radius - Corner radius, shared by all elements. Default 8px.
 * @cssproperty --mk-accent - Colour of the progress bar, shared by all elements. Default #0969da.
 * @cssproperty --mk-viewer-background - Background behind the model, over --mk-surface. Default: --mk-surface.
 * @cssproperty --mk-viewer-accent - Colour of the progress bar, over --mk-accent.
 * @cssproperty --mk-viewer-radius - Corner radius, over --mk-radius.
 * @cssproperty --mk-focus-ring - Colour of the keyboard focus ring (default: the accent, --mk-viewer-accent or --mk-accent).
 *
 * @cssstate loading - A file is downloading or being decoded.
 * @cssstate loaded - The model is shown.
 * @cssstate failed - The model could not be shown.
 */
export class GlbViewer extends ViewerElement {
  static override styles = viewerStyles;

  /** Folder with the Draco decoder (draco_wasm_wrapper.js, draco_decoder.wasm) to use instead of three's own, which your bundler copies beside the viewer and which is fetched only for a Draco-compressed file. */
  @property({ attribute: 'draco-path' }) dracoPath = '';

  /** Folder with the Basis transcoder (basis_transcoder.js and .wasm) for KTX2 textures, to use instead of three's own (copied by your bundler, fetched only for a file with KTX2 textures). */
  @property({ attribute: 'ktx2-path' }) ktx2Path = '';

  /** Statistics of the model shown, from the file itself (undefined until loaded). */
  stats: ModelStats | undefined;

  protected override kind = 'model' as const;
  protected defaultUp: ViewerUp = '+y';

  constructor() {
    super();
    this.addEventListener('mk-viewer-loaded', (e: ViewerLoadedEvent) => (this.stats = e.detail.stats));
  }

  protected async loadRenderer(): Promise<RendererFactory> {
    const { createGlbRenderer } = await (rendererModule ??= import('./glb-renderer.js'));
    return (canvas, container) =>
      createGlbRenderer(canvas, container, {
        ...(this.dracoPath ? { dracoPath: this.dracoPath } : {}),
        ...(this.ktx2Path ? { ktx2Path: this.ktx2Path } : {}),
      });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'glb-viewer': GlbViewer;
  }
}
