import { ViewerElement, type RendererFactory } from '../shared/viewer-element.js';
import { viewerStyles } from '../shared/viewer.styles.js';

let rendererModule: Promise<typeof import('./splat-renderer.js')> | undefined;

/**
 * @summary Shows a Gaussian-splat scene (a 3DGS .ply, a compressed .ply, a .splat, or a zip holding one), on any page.
 * @tag splat-viewer
 *
 * @slot poster - Shown until the first frame.
 *
 * @event mk-viewer-load - The first frame is drawn; `detail.splats` is the number of splats.
 * @event mk-viewer-progress - Bytes arrived (`phase: 'download'`) or the scene is being decoded (`phase: 'parse'`).
 * @event mk-viewer-error - The scene cannot be shown; `detail.message` says why and what to do.
 *
 * @csspart base - The box around everything.
 * @csspart canvas - The WebGL canvas (focusable: arrow keys turn, + and - zoom, Home resets).
 * @csspart progress - The progress bar while loading.
 * @csspart error - The error message.
 *
 * @cssproperty --mk-viewer-height - Height of the viewer. Default 360px.
 * @cssproperty --mk-viewer-background - Background behind the scene. Default transparent.
 * @cssproperty --mk-viewer-accent - Colour of the progress bar.
 * @cssproperty --mk-viewer-radius - Corner radius.
 * @cssproperty --mk-focus-ring - Colour of the keyboard focus ring.
 *
 * @cssstate loading - A file is downloading or being decoded.
 * @cssstate loaded - The scene is shown.
 * @cssstate error - The scene could not be shown.
 */
export class SplatViewer extends ViewerElement {
  static override styles = viewerStyles;

  /** The number of splats shown (undefined until loaded). */
  splats: number | undefined;

  protected defaultLabel = 'Gaussian-splat scene';

  constructor() {
    super();
    this.addEventListener('mk-viewer-load', (e) => (this.splats = e.detail.splats));
  }

  protected async loadRenderer(): Promise<RendererFactory> {
    return (await (rendererModule ??= import('./splat-renderer.js'))).createSplatRenderer;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'splat-viewer': SplatViewer;
  }
}
