/**
 * The splat library's viewer in the stage of one <splat-viewer> (splat-stage.ts): the library's
 * DropInViewer sits in our own scene with our own camera and controls (its Viewer adds window key
 * listeners and body-level UI), one at a time, built from a whole file or from a standard 3DGS PLY
 * while it downloads (splat-stream.ts). Shared memory and GPU sort only when the page is
 * cross-origin isolated: without isolation the library's default hangs forever
 * (shared/notes/ENVIRONMENT.md). Imported only by splat-renderer.ts (it imports the library).
 */
import { DropInViewer, LogLevel, SceneFormat, SceneRevealMode, SplatBuffer } from '@mkkellogg/gaussian-splats-3d';
import type { ViewerProgressDetail } from '../../events/viewer-progressed.js';
import { joinChunks, type ByteStream } from '../shared/fetch-bytes.js';
import { reasonOf, viewerMessages } from '../shared/viewer-messages.js';
import { ViewerError } from '../shared/viewer-error.js';
import { isPly } from './splat-formats.js';
import { robustBounds } from './splat-records.js';
import type { SplatStage } from './splat-stage.js';
import { PlyStream } from './splat-stream.js';

/** A scene that has not shown within this time is reported rather than left spinning. */
export const LOAD_TIMEOUT_MS = 60_000;
/** The most splats of a streamed scene drawn before the whole of it (see loadStream). */
const PREVIEW_MOST = 100_000;

export class SplatScene {
  /** The library viewer in the stage (the one being built, or the one shown). */
  splats: DropInViewer | undefined;
  readonly #stage: SplatStage;
  readonly #canvas: HTMLCanvasElement;

  constructor(stage: SplatStage, canvas: HTMLCanvasElement) {
    this.#stage = stage;
    this.#canvas = canvas;
  }

  async clear(): Promise<void> {
    if (!this.splats) return;
    this.#stage.root.remove(this.splats);
    const old = this.splats;
    this.splats = undefined;
    await old.dispose().catch(() => undefined);
  }

  /** A fresh library viewer in our scene (the old one disposed). */
  async newViewer(): Promise<DropInViewer> {
    await this.clear();
    const isolated = globalThis.crossOriginIsolated === true;
    const viewer = withoutInjectedStyles(
      () =>
        new DropInViewer({
          sharedMemoryForWorkers: isolated,
          gpuAcceleratedSort: isolated,
          sphericalHarmonicsDegree: 0,
          sceneRevealMode: SceneRevealMode.Instant,
          logLevel: LogLevel.None,
          freeIntermediateSplatData: true,
          // Its (hidden, unused) loading UI goes into our canvas, never into the host page's body.
          rootElement: this.#canvas,
        }),
    );
    // The library's sort worker can fault (while it is torn down, as seen with tiny scenes; its
    // WebAssembly under a CSP without 'wasm-unsafe-eval'): an unhandled worker error would surface
    // as an error of the host page, which is not ours to raise. Caught from the moment it exists.
    const inner = viewer.viewer as unknown as { setupSortWorker(mesh: unknown): unknown; sortWorker?: Worker };
    const setup = inner.setupSortWorker.bind(inner);
    inner.setupSortWorker = (mesh) => {
      const done = setup(mesh);
      inner.sortWorker?.addEventListener('error', (e) => e.preventDefault());
      return done;
    };
    this.splats = viewer;
    this.#stage.root.add(viewer);
    return viewer;
  }

  /**
   * Draws the first frame once the library's sort worker has ordered the splats (a scene added
   * whole resolves after its first sort, so this is usually one frame); `before` runs just before
   * it (the streamed preview is dropped there, so that frame draws the whole scene alone). Frames
   * drawn while waiting let the library start its sort; at most one is queued at a time.
   */
  firstSortedFrame(viewer: DropInViewer, signal: AbortSignal, before: () => Promise<void>): Promise<void> {
    const start = performance.now();
    return new Promise<void>((resolve, reject) => {
      // The frame loop may be drawing too (auto-rotate): then its frames do both jobs, and this one
      // never waits on the GPU for its own turn.
      const tick = () => {
        if (signal.aborted) return reject(signal.reason);
        if (viewer.viewer.splatRenderReady && !viewer.viewer.sortRunning) {
          return void before().then(() => {
            if (signal.aborted) return reject(signal.reason);
            if (!this.#stage.drawNow()) this.#stage.wake();
            resolve();
          }, reject);
        }
        if (performance.now() - start > LOAD_TIMEOUT_MS)
          return reject(new ViewerError('timeout', viewerMessages.sceneNoFrame));
        this.#stage.drawNow();
        requestAnimationFrame(tick);
      };
      tick();
    });
  }

  afterLoad(viewer: DropInViewer): void {
    // The library's sort worker can fault while it is being torn down (seen with tiny scenes);
    // an unhandled worker error would surface as an error of the host page, which is not ours to raise.
    viewer.viewer.sortWorker?.addEventListener('error', (e) => e.preventDefault());
  }

  /**
   * A standard 3DGS PLY shown while it downloads (splat-stream.ts): the first splats as soon as
   * the first records are read, more as they arrive, each build handed to the library as a growing
   * SplatBuffer (as its own progressive loader does, but from our download and in one compact copy).
   * Any other file is read whole and goes the whole-file way.
   */
  async loadStream(
    source: ByteStream,
    signal: AbortSignal,
    onProgress: (detail: ViewerProgressDetail) => void,
    budget: () => number,
    onStreaming: () => void,
  ): Promise<{ stream: PlyStream; compact: Uint8Array } | Uint8Array> {
    const total = source.total;
    let loaded = 0;
    const next = async () => {
      const chunk = await source.read();
      if (signal.aborted) throw signal.reason;
      if (chunk) {
        loaded += chunk.byteLength;
        onProgress({ phase: 'download', loaded, total });
      }
      return chunk;
    };
    const rest = async (head: Uint8Array[]) => {
      const chunks = [...head];
      for (let c = await next(); c; c = await next()) chunks.push(c);
      return joinChunks(chunks);
    };
    const first = await next();
    if (!first || !isPly(first)) return rest(first ? [first] : []);
    const stream = new PlyStream(budget());
    stream.push(first);
    while (!stream.header) {
      const c = await next();
      if (!c) break;
      stream.push(c);
    }
    if (!stream.header) stream.finish(); // throws: the file ends inside its header
    if (!stream.streamable) return rest(stream.head);
    onStreaming();

    const viewer = await this.newViewer();
    const header = stream.header!;
    let shown = 0;
    let building: Promise<void> | undefined;
    const build = async () => {
      const count = stream.count;
      // Each preview is its own small buffer of the splats so far, replacing the last one.
      const preview = new SplatBuffer(stream.preview()!.buffer);
      await viewer.viewer.addSplatBuffers(
        [preview],
        [{ splatAlphaRemovalThreshold: 1 }],
        false,
        false,
        false,
        true,
        true,
      );
      if (signal.aborted || this.splats !== viewer) {
        ended = true; // replaced or given up: no more builds
        return;
      }
      // The data the library stages for its textures (at least 4096 x 1024 texels each, whatever
      // the count) is let go once uploaded, as after a final build: the next preview is a new
      // buffer the library builds afresh, and the whole scene is built once the preview is gone.
      viewer.viewer.splatMesh?.freeIntermediateSplatData();
      if (!this.#stage.touched && stream.centresCount > 0) {
        const centres = stream.centres.subarray(0, stream.centresCount * 3);
        const { min, max } = robustBounds(stream.centresCount, (i, out) => {
          out[0] = centres[i * 3]!;
          out[1] = centres[i * 3 + 1]!;
          out[2] = centres[i * 3 + 2]!;
        });
        this.#stage.frameOn(min, max, centres.slice());
      }
      this.#stage.sceneSplats = count;
      this.#stage.freshTextures = true;
      this.#stage.drawNow();
      shown = count;
      this.#stage.wake();
      onProgress({ phase: 'stream', loaded, total, splats: count, of: header.total });
    };
    let ended = false;
    let failed: { error: unknown } | undefined;
    // One build at a time, each at least twice the last (a build uploads every splat so far, and a
    // frame of a million splats is seconds in software WebGL: doubling keeps all the builds together
    // under two whole-scene builds); when one ends, the next takes what arrived meanwhile (the
    // download may be waiting). Never again after a failure, an abort or the end: each would come
    // round at once.
    const buildMore = () => {
      if (ended || failed || signal.aborted || this.splats !== viewer) return;
      if (building || stream.count === 0 || stream.count < shown * 2) return;
      // Previews only up to a tenth of the scene (at most 100 000 splats): the whole scene is built
      // once at the end, and big previews cost seconds a frame in software WebGL.
      if (shown > 0 && shown * 2 > Math.min(PREVIEW_MOST, header.total / 10)) return;
      building = build().then(
        () => {
          building = undefined;
          buildMore();
        },
        (error: unknown) => {
          building = undefined;
          failed = { error };
        },
      );
    };
    try {
      buildMore(); // the records that came with the header
      for (let c = await next(); c; c = await next()) {
        if (failed) throw failed.error;
        stream.push(c);
        buildMore();
      }
      stream.finish();
      ended = true;
      while (building) await building;
      if (failed) throw failed.error;
    } catch (err) {
      if (this.splats === viewer) await this.clear();
      if (err instanceof ViewerError || signal.aborted) throw err;
      throw new ViewerError('corrupt_file', viewerMessages.sceneUnreadable(reasonOf(err)));
    }
    // The whole scene is then built once, from the compact form, in a viewer of its own (a last
    // progressive build of a million splats left the library's sort unsettled for minutes in
    // software WebGL); the partial view stays on screen until the new one draws (load()).
    return { stream, compact: stream.compact()! };
  }
}

/**
 * Runs `build` with `<style>` elements created as inert `<template>`s. The splat library builds a
 * loading spinner, progress bar and info panel in its constructor, whatever `showLoadingUI` says,
 * each with an inline `<style>`; a strict Content-Security-Policy (`style-src` without
 * 'unsafe-inline') reports every one. We never show that UI, so its styles need not exist.
 */
function withoutInjectedStyles<T>(build: () => T): T {
  const create = document.createElement;
  document.createElement = function (this: Document, tag: string, options?: ElementCreationOptions) {
    return create.call(this, tag.toLowerCase() === 'style' ? 'template' : tag, options);
  } as typeof document.createElement;
  try {
    return build();
  } finally {
    document.createElement = create;
  }
}

/** Adds a whole file to the library viewer from a blob URL (it fetches and parses it itself). */
export function addFile(
  viewer: DropInViewer,
  url: string,
  prepared: { format: 'ply' | 'splat' | 'ksplat'; bytes: Uint8Array },
  onProgress: (detail: ViewerProgressDetail) => void,
): Promise<void> {
  return viewer.addSplatScene(url, {
    format: { ply: SceneFormat.Ply, splat: SceneFormat.Splat, ksplat: SceneFormat.KSplat }[prepared.format],
    showLoadingUI: false,
    progressiveLoad: false,
    splatAlphaRemovalThreshold: 1,
    onProgress: (percent) =>
      onProgress({
        phase: 'parse',
        loaded: Math.round((percent / 100) * prepared.bytes.byteLength),
        total: prepared.bytes.byteLength,
      }),
  });
}
