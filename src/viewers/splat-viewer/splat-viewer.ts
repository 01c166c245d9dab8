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
 * @event mk-viewer-loaded - The first frame is drawn; `detail.splats` is the number of splats.
 * @event mk-viewer-progressed - Bytes arrived (`phase: 'download'`) or the scene is being decoded (`phase: 'parse'`).
 * @event mk-viewer-failed - The scene cannot be shown; `detail.message` says why and what to do.
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
 * @cssstate failed - The scene could not be shown.
 */
export class SplatViewer extends ViewerElement {
  static override styles = viewerStyles;

  /** The axis of the file that points up (`+y`, `-y`, `+z`, `-z`). Default `-y`: scenes from 3DGS training (COLMAP/OpenCV cameras) are y-down. */
  @property({ reflect: true }) override up: ViewerUp = '-y';

  /**
   * The most splats drawn; a larger scene shows thinned to this many (the most visible splats:
   * opaque and large first), and says so. Default (unset or 0): by the device (`deviceSplatBudget`):
   * 250 000 per GiB of `navigator.deviceMemory` (4 GiB when the browser does not say), from
   * 250 000 to 2 500 000; on a phone-sized screen (shorter side under 600 px) half that, at most
   * 1 000 000.
   */
  @property({ type: Number, attribute: 'splat-budget' }) splatBudget = 0;

  /**
   * The least share of the pixel ratio drawn while frames are slow. A frame that takes the device
   * over 150 ms (software WebGL, a phone with a million splats) lowers the resolution so the next
   * ones take about 100 ms, down to this share; fast frames raise it again, and a screenshot is
   * always at the full ratio. The whole scene's first frame is predicted from its previews, so a
   * large scene shows in seconds rather than after one full-size frame. Default 0.5 (a quarter of
   * the pixels); 1 keeps the full ratio (`max-pixel-ratio`) always.
   */
  @property({ type: Number, attribute: 'min-render-scale' }) minRenderScale = 0.5;

  /** The number of splats in the file shown (undefined until loaded). */
  splats: number | undefined;

  // The splat library cannot draw through a shared renderer (see the README), so each viewer owns
  // a WebGL context: made only while the viewer is in view, given back a moment after it leaves.
  protected override releaseOffscreen = true;
  protected override kind = 'scene' as const;
  // A standard PLY shows while it downloads (splat-stream.ts).
  protected override streams = true;
  protected defaultUp: ViewerUp = '-y';

  constructor() {
    super();
    this.addEventListener('mk-viewer-loaded', (e) => (this.splats = e.detail.splats));
  }

  /**
   * The scene shown, in the compact form a standard PLY is read into as it downloads: a .ksplat
   * (the splat library's format, 44 bytes a splat against 248 in a PLY with spherical harmonics),
   * holding only the splats drawn. Set it as `src` (from a blob: URL) to show the same scene again,
   * for example from an offline cache. Undefined until such a scene is loaded (other formats are
   * shown as they came).
   */
  compactScene(): Blob | undefined {
    const bytes = this.compactBytes();
    return bytes ? new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }) : undefined;
  }

  protected async loadRenderer(): Promise<RendererFactory> {
    const { createSplatRenderer } = await (rendererModule ??= import('./splat-renderer.js'));
    return (canvas, container) =>
      createSplatRenderer(canvas, container, {
        budget: () => this.#budget(),
        minRenderScale: () => (this.minRenderScale > 0 ? Math.min(1, this.minRenderScale) : 0.5),
      });
  }

  #budget(): number {
    if (this.splatBudget > 0) return this.splatBudget;
    return deviceSplatBudget(
      (navigator as Navigator & { deviceMemory?: number }).deviceMemory,
      Math.min(screen.width, screen.height),
    );
  }
}

/**
 * The default splat budget for a device: 250 000 splats per GiB of memory (`navigator.deviceMemory`,
 * 4 when unknown), 250 000 to 2 500 000; on a phone-sized screen (shorter side under 600 CSS px)
 * half that, at most 1 000 000. A 4 GiB phone: 500 000; an 8 GiB laptop: 2 000 000.
 */
export function deviceSplatBudget(memoryGiB: number | undefined, shortSide: number): number {
  const memory = memoryGiB && memoryGiB > 0 ? memoryGiB : 4;
  const budget = Math.min(2_500_000, Math.max(250_000, memory * 250_000));
  return Math.round(shortSide < 600 ? Math.min(1_000_000, budget / 2) : budget);
}

declare global {
  interface HTMLElementTagNameMap {
    'splat-viewer': SplatViewer;
  }
}
