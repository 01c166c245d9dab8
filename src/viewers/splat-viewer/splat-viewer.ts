import { property } from 'lit/decorators.js';
import { ViewerElement, type RendererFactory, type ViewerUp } from '../shared/viewer-element.js';
import { viewerStyles } from '../shared/viewer.styles.js';

let rendererModule: Promise<typeof import('./splat-renderer.js')> | undefined;

/**
 * @summary Shows a Gaussian-splat scene (a 3DGS .ply, a compressed .ply, a .splat, a .ksplat, an .spz, or a zip holding a .ply or .splat), on any page.
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
 * @csspart hint - The icon and text shown while there is nothing to show yet ("No scene yet", or "Loading…") when no poster is given.
 * @csspart progress - The progress bar while loading.
 * @csspart error - The error message.
 * @csspart notice - A note on what is shown (a scene thinned to the splat budget).
 *
 * @cssproperty --mk-viewer-height - Height of the viewer. Default 360px.
 * @cssproperty --mk-surface - The frame's background, shared by all elements. Default #f6f8fa (#161b22 in dark mode).
 * @cssproperty --mk-border - The frame's 1px border colour, shared by all elements. Default #d0d7de (#30363d in dark mode).
 * @cssproperty --mk-radius - Corner radius, shared by all elements. Default 8px.
 * @cssproperty --mk-accent - Colour of the progress bar, shared by all elements. Default #0969da.
 * @cssproperty --mk-viewer-background - Background behind the scene, over --mk-surface. Default: --mk-surface.
 * @cssproperty --mk-viewer-accent - Colour of the progress bar, over --mk-accent.
 * @cssproperty --mk-viewer-radius - Corner radius, over --mk-radius.
 * @cssproperty --mk-focus-ring - Colour of the keyboard focus ring (default: the accent, --mk-viewer-accent or --mk-accent).
 *
 * @cssstate loading - A file is downloading or being decoded.
 * @cssstate loaded - The scene is shown.
 * @cssstate error - The scene could not be shown.
 */
export class SplatViewer extends ViewerElement {
  static override styles = viewerStyles;

  /** The axis of the file that points up (`+y`, `-y`, `+z`, `-z`). Default `-y`: scenes from 3DGS training (COLMAP/OpenCV cameras) are y-down. */
  @property({ reflect: true }) override up: ViewerUp = '-y';

  /**
   * The most splats drawn; a larger scene shows thinned evenly to this many, and says so. Default
   * (unset or 0): by the device, 300 000 per GiB of `navigator.deviceMemory` (4 GiB when the
   * browser does not say), halved on a phone-sized screen.
   */
  @property({ type: Number, attribute: 'splat-budget' }) splatBudget = 0;

  /** The number of splats in the file shown (undefined until loaded). */
  splats: number | undefined;

  // The splat library cannot draw through a shared renderer (see the README), so each viewer owns
  // a WebGL context: made only while the viewer is in view, given back a moment after it leaves.
  protected override releaseOffscreen = true;
  protected override kind = 'scene' as const;
  protected defaultUp: ViewerUp = '-y';

  constructor() {
    super();
    this.addEventListener('mk-viewer-load', (e) => (this.splats = e.detail.splats));
  }

  protected async loadRenderer(): Promise<RendererFactory> {
    const { createSplatRenderer } = await (rendererModule ??= import('./splat-renderer.js'));
    return (canvas, container) => createSplatRenderer(canvas, container, { budget: () => this.#budget() });
  }

  #budget(): number {
    if (this.splatBudget > 0) return this.splatBudget;
    const memory = (navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? 4;
    const phone = Math.min(screen.width, screen.height) < 600;
    return Math.round(memory * 300_000 * (phone ? 0.5 : 1));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'splat-viewer': SplatViewer;
  }
}
