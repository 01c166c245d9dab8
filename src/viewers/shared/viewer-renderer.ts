/**
 * The contract between a viewer element (viewer-element.ts) and its renderer module, the only
 * importer of three.js: what the element asks of the renderer, and which way is up. Types only.
 */
import type { ViewerLoadDetail } from '../../events/viewer-loaded.js';
import type { ViewerProgressDetail } from '../../events/viewer-progressed.js';
import type { ByteStream } from './fetch-bytes.js';

/** Which way is up in the file: three.js and glTF use `+y`; 3DGS training output (COLMAP/OpenCV) is `-y`. */
export type ViewerUp = '+y' | '-y' | '+z' | '-z';

/** What a renderer module (the only three.js importer) gives the element. */
export interface ViewerRenderer {
  /** Sets which axis of the file points up; the view is turned and framed again. */
  setUp(up: ViewerUp): void;
  /**
   * Shows the file: its bytes (downloaded by the element, in parallel with the renderer's import),
   * or, for a renderer that streams, the download as it arrives (the renderer reports its progress).
   */
  load(
    source: Uint8Array | ByteStream,
    signal: AbortSignal,
    onProgress: (detail: ViewerProgressDetail) => void,
  ): Promise<Omit<ViewerLoadDetail, 'src'> & { thinned?: Thinned }>;
  /** What is shown, in a compact form that shows the same again (a splat renderer's .ksplat), if it has one. */
  compact?(): Uint8Array | undefined;
  /** The largest device-pixel ratio drawn. */
  setMaxPixelRatio(ratio: number): void;
  setAutoRotate(on: boolean): void;
  /** A PNG of the current view. */
  screenshot(): Promise<Blob>;
  dispose(): void;
}

/** A scene drawn thinned to the splat budget: `shown` of its `total` splats. */
export interface Thinned {
  shown: number;
  total: number;
}

export type RendererFactory = (canvas: HTMLCanvasElement, container: HTMLElement) => ViewerRenderer;
