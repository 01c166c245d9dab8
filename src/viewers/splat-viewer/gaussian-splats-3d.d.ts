// The parts of @mkkellogg/gaussian-splats-3d (no bundled types) that the splat renderer uses (and
// the test fixtures, which make .ksplat files with the library's own writer).
declare module '@mkkellogg/gaussian-splats-3d' {
  import type { Group, Quaternion, Vector3, Vector4 } from 'three';

  export const SceneFormat: { Splat: 0; KSplat: 1; Ply: 2; Spz: 3 };
  export const SceneRevealMode: { Default: 0; Gradual: 1; Instant: 2 };
  export const LogLevel: { None: 0; Error: 1; Warning: 2; Info: 3; Debug: 4 };

  export interface DropInViewerOptions {
    /** Where the library puts its own (loading) UI; in drop-in mode also what it measures for the view size (default: the renderer's canvas). */
    rootElement?: HTMLElement;
    sharedMemoryForWorkers?: boolean;
    gpuAcceleratedSort?: boolean;
    enableSIMDInSort?: boolean;
    integerBasedSort?: boolean;
    sphericalHarmonicsDegree?: number;
    sceneRevealMode?: number;
    logLevel?: number;
    dynamicScene?: boolean;
    freeIntermediateSplatData?: boolean;
  }

  export interface AddSceneOptions {
    format?: number;
    showLoadingUI?: boolean;
    progressiveLoad?: boolean;
    splatAlphaRemovalThreshold?: number;
    onProgress?: (percent: number, label: string, status: number) => void;
  }

  export class DropInViewer extends Group {
    constructor(options?: DropInViewerOptions);
    viewer: {
      splatRenderReady: boolean;
      sortRunning: boolean;
      sortWorker?: Worker;
      splatMesh: { getSplatCount(): number; freeIntermediateSplatData(): void } | null;
      /** What the drop-in viewer runs before each render: takes the renderer and camera, sorts for them. */
      update(renderer: unknown, camera: unknown): void;
      /** What the library's progressive loader calls for each build of a growing SplatBuffer. */
      addSplatBuffers(
        splatBuffers: SplatBuffer[],
        options: { splatAlphaRemovalThreshold?: number }[],
        finalBuild: boolean,
        showLoadingUI: boolean,
        showLoadingUIForSplatTreeBuild: boolean,
        replaceExisting: boolean,
        enableRenderBeforeFirstSort: boolean,
      ): Promise<void>;
    };
    addSplatScene(path: string, options?: AddSceneOptions): Promise<void> & { abort?: (reason?: unknown) => void };
    getSceneCount(): number;
    removeSplatScene(index: number, showLoadingUI?: boolean): Promise<void>;
    dispose(): Promise<void>;
  }

  /** A .ksplat file's contents: its bytes are the file (header 4096 bytes, 1024 per section header). */
  export class SplatBuffer {
    constructor(bufferData: ArrayBuffer, secLoadedCountsToMax?: boolean);
    static HeaderSizeBytes: number;
    static SectionHeaderSizeBytes: number;
    readonly bufferData: ArrayBuffer;
    readonly compressionLevel: number;
    getSplatCount(): number;
    /** Sets how many sections and splats of a preallocated buffer are filled (progressive loading). */
    updateLoadedCounts(sectionCount: number, splatCount: number): void;
    getSplatCenter(index: number, out: Vector3): void;
    getSplatScaleAndRotation(index: number, outScale: Vector3, outRotation: Quaternion): void;
    /** RGBA, each 0..255. */
    getSplatColor(index: number, out: Vector4): void;
  }

  export class UncompressedSplatArray {
    splatCount: number;
  }

  export const PlyParser: {
    parseToUncompressedSplatArray(plyBuffer: ArrayBuffer, outSphericalHarmonicsDegree?: number): UncompressedSplatArray;
  };

  export const SplatBufferGenerator: {
    getStandardGenerator(
      alphaRemovalThreshold?: number,
      compressionLevel?: number,
    ): { generateFromUncompressedSplatArray(splats: UncompressedSplatArray): SplatBuffer };
  };
}
