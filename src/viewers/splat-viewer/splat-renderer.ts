/**
 * The splat renderer: the module of <splat-viewer> that the element loads (by a memoized dynamic
 * import, when there is something to show), and the view of one <splat-viewer>: its stage
 * (splat-stage.ts: renderer, camera, controls, frame pacing, framing), the splat library's viewer
 * in it (splat-scene.ts: whole files and streamed PLY previews) and what the library is given
 * (splat-loaders.ts), as the GLB renderer splits its stage, scene and loaders. Files are judged and
 * prepared by splat-formats.ts and handed over as a blob URL with an explicit format (the library
 * judges formats by URL extension). It and the files it imports are the only importers of
 * three.js and @mkkellogg/gaussian-splats-3d for <splat-viewer>.
 */
import type { ViewerRenderer } from '../shared/viewer-renderer.js';
import { reasonOf, viewerMessages } from '../shared/viewer-messages.js';
import { ViewerError } from '../shared/viewer-error.js';
import { prepareSplats } from './splat-formats.js';
import { ksplatRecords, readScene, samplePositions, thin, type Scene3 } from './splat-loaders.js';
import { addFile, LOAD_TIMEOUT_MS, SplatScene } from './splat-scene.js';
import { SplatStage } from './splat-stage.js';
import type { PlyStream } from './splat-stream.js';

export interface SplatRendererOptions {
  /** The most splats drawn; a larger scene is thinned evenly to this many. Read at each load. */
  budget?: () => number;
  /** The least share of the pixel ratio drawn when frames are slow (1: never lower). Default 0.5. */
  minRenderScale?: () => number;
}

export function createSplatRenderer(
  canvas: HTMLCanvasElement,
  container: HTMLElement,
  options: SplatRendererOptions = {},
): ViewerRenderer {
  const stage = new SplatStage(canvas, container, () => options.minRenderScale?.() ?? 0.5);
  const scene = new SplatScene(stage, canvas);
  const { scale } = stage;

  /** The scene being (or last) streamed, for its compact form. */
  let streamed: PlyStream | undefined;

  const budget = () => Math.max(1, Math.floor(options.budget?.() ?? Infinity));

  return {
    async load(source, signal, onProgress) {
      stage.lastFrame = undefined;
      let raw: Uint8Array;
      let stream: PlyStream | undefined;
      if (source instanceof Uint8Array) raw = source;
      else {
        const result = await scene.loadStream(source, signal, onProgress, budget, () => (streamed = undefined));
        if (result instanceof Uint8Array) raw = result;
        else ({ stream, compact: raw } = result);
      }
      streamed = undefined;
      const whole = await readScene(prepareSplats(raw));
      if (signal.aborted) throw signal.reason;
      const most = budget();
      // Over the budget: every k-th splat, so the whole scene still shows, thinner, instead of
      // a tab that runs out of memory (sorting and textures grow with the count).
      const prepared: Scene3 =
        whole.count <= most
          ? whole
          : whole.format === 'ksplat'
            ? {
                ...whole,
                format: 'splat',
                centres: undefined,
                bytes: ksplatRecords(whole.buffer, whole.count, most),
                count: most,
              }
            : { ...whole, ...thin(whole.bytes, whole.format, whole.count, most) };
      onProgress({ phase: 'parse', loaded: 0, total: prepared.bytes.byteLength });
      // A streamed scene's preview is let go before the whole scene is built (the two would take
      // memory at once), but its last frame stays on screen: the canvas draws nothing new until
      // the whole scene's first frame (`holding`).
      const viewer = await scene.newViewer();
      // Given up (or replaced by a newer src) while the last viewer was disposed.
      signal.throwIfAborted();
      /** Lets go of the held frame, unless a newer load holds one of its own by now. */
      const release = () => {
        if (stage.holding === viewer) stage.holding = undefined;
      };
      // Framed before the scene is added: the library sorts (and culls) for the camera it sees
      // first, and a later move would leave the first frames empty until the next sort lands.
      if (!stream) stage.touched = false; // a streamed scene keeps the view the user may have turned meanwhile
      stage.frameOn(prepared.min, prepared.max, prepared.centres ?? samplePositions(prepared.bytes, prepared.format));
      if (stream) {
        stage.holding = viewer;
        stage.render(); // the library's viewer learns the renderer and the camera it sorts for
      }
      // A streamed scene is already the library's own form: the SplatBuffer readScene made over
      // it is handed over as it is (no Blob, no fetch of it back, no second parse: two fewer copies
      // of the scene). Any other file goes the library's way from a blob URL.
      const direct = stream && prepared.format === 'ksplat' ? prepared.buffer : undefined;
      const url = direct ? undefined : URL.createObjectURL(new Blob([prepared.bytes as Uint8Array<ArrayBuffer>]));
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        // Not a "final build": the library would then build its splat tree, an octree of every
        // splat that it uses for picking (the viewer never picks) and to leave nodes far outside
        // the view out of later sorts. At a million splats it holds over 100 MB, more than a phone
        // can spare, so every splat is sorted instead (the library's sort is a linear counting
        // sort in its worker). The data staged for the textures is let go as a final build does.
        const adding = direct
          ? viewer.viewer
              .addSplatBuffers([direct], [{ splatAlphaRemovalThreshold: 1 }], false, false, false, false, false)
              .then(() => {
                if (scene.splats === viewer && !signal.aborted) viewer.viewer.splatMesh?.freeIntermediateSplatData();
              })
          : addFile(viewer, url!, prepared, onProgress);
        await Promise.race([
          adding,
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new ViewerError('timeout', viewerMessages.sceneTimeout)), LOAD_TIMEOUT_MS);
            signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          }),
        ]);
      } catch (err) {
        release();
        if (scene.splats === viewer) await scene.clear();
        if (err instanceof ViewerError || signal.aborted) throw err;
        throw new ViewerError('corrupt_file', viewerMessages.sceneUnreadable(reasonOf(err)));
      } finally {
        clearTimeout(timer);
        if (url) URL.revokeObjectURL(url);
      }
      scene.afterLoad(viewer);
      try {
        await scene.firstSortedFrame(viewer, signal, async () => {
          release();
          // The whole scene's first frame costs about the last preview's per splat: a frame that
          // would be slow is drawn at fewer pixels from the start (not seconds at full size first).
          const last = stage.lastFrame;
          if (last && last.splats > 0)
            scale.predict(last.ms * (prepared.count / last.splats) * (scale.scale / last.scale) ** 2);
          stage.sceneSplats = prepared.count;
          stage.freshTextures = true;
        });
      } finally {
        release();
      }
      stage.wake();
      if (stream) {
        streamed = stream;
        const total = stream.header!.total;
        onProgress({
          phase: 'stream',
          loaded: stream.received,
          total: stream.received,
          splats: stream.count,
          of: total,
        });
        return {
          splats: total,
          shown: stream.count,
          ...(stream.thinning ? { thinned: { shown: stream.count, total } } : {}),
        };
      }
      return {
        splats: whole.count,
        shown: prepared.count,
        ...(prepared.count < whole.count ? { thinned: { shown: prepared.count, total: whole.count } } : {}),
      };
    },
    compact() {
      return streamed?.compact();
    },
    setUp(next) {
      stage.setUp(next);
    },
    setMaxPixelRatio(ratio) {
      stage.setMaxPixelRatio(ratio);
    },
    setAutoRotate(on) {
      stage.controls.autoRotate = on;
      stage.wake();
    },
    screenshot() {
      return stage.screenshot();
    },
    dispose() {
      stage.stop();
      void scene.clear();
      stage.dispose();
    },
  };
}
