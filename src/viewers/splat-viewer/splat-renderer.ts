/**
 * The splat renderer: the only module of <splat-viewer> that imports three.js and
 * @mkkellogg/gaussian-splats-3d, loaded by a memoized dynamic import when there is something to
 * show. The library's DropInViewer sits in our own scene with our own camera and controls (its
 * Viewer adds window key listeners and body-level UI). Files are judged and prepared by
 * splat-formats.ts and handed over as a blob URL with an explicit format (the library judges
 * formats by URL extension). A .ksplat goes to the library as it is; an .spz is decoded by
 * splat-spz.ts, imported only when one arrives (its WebAssembly decoder is not in this chunk).
 * Shared memory and GPU sort only when the page is cross-origin isolated: without isolation the
 * library's default hangs forever (shared/notes/ENVIRONMENT.md).
 */
import { Box3, Group, PerspectiveCamera, Quaternion, Scene, Vector3, Vector4, WebGLRenderer } from 'three';
import { DropInViewer, LogLevel, SceneFormat, SceneRevealMode, SplatBuffer } from '@mkkellogg/gaussian-splats-3d';
import type { ViewerRenderer, ViewerUp } from '../shared/viewer-element.js';
import type { ViewerProgressDetail } from '../../events/viewer-progress.js';
import { joinChunks, type ByteStream } from '../shared/fetch-bytes.js';
import { PlyStream } from './splat-stream.js';
import { reasonOf, viewerMessages } from '../shared/viewer-messages.js';
import { ViewerError } from '../shared/viewer-error.js';
import {
  FrameScheduler,
  GpuPacer,
  Orbit,
  RenderScale,
  frame,
  keyboardOrbit,
  rotateBox,
  uprightRotation,
} from '../shared/orbit.js';
import {
  isPly,
  prepareSplats,
  robustBounds,
  type KSplatFile,
  type PreparedSplats,
  type SplatFile,
} from './splat-formats.js';

/** A scene that has not shown within this time is reported rather than left spinning. */
const LOAD_TIMEOUT_MS = 60_000;
/** The first frame fits all but the farthest 2 % of the splat centres (floaters) into the view. */
const FIT_QUANTILE = 0.98;
/** The most splats of a streamed scene drawn before the whole of it (see loadStream). */
const PREVIEW_MOST = 100_000;
/** Frames keep coming this long after a change, while the sort worker catches up. */
const SETTLE_MS = 600;

/** What the library is given: PLY or .splat bytes, or a .ksplat with its centres sampled here. */
type Scene3 =
  | (PreparedSplats & { centres?: undefined })
  | (KSplatFile & Pick<PreparedSplats, 'min' | 'max'> & { centres: Float32Array; buffer: SplatBuffer });
let spzModule: Promise<typeof import('./splat-spz.js')> | undefined;

export interface SplatRendererOptions {
  /** The most splats drawn; a larger scene is thinned evenly to this many. Read at each load. */
  budget?: () => number;
  /** The least share of the pixel ratio drawn when frames are slow (1: never lower). Default 0.5. */
  minRenderScale?: () => number;
}

/** A frame slower than this lowers the resolution (a view turned by hand then answers at about 10 frames a second). */
const FRAME_TARGET_MS = 100;

export function createSplatRenderer(
  canvas: HTMLCanvasElement,
  container: HTMLElement,
  options: SplatRendererOptions = {},
): ViewerRenderer {
  let renderer: WebGLRenderer;
  try {
    renderer = new WebGLRenderer({ canvas, antialias: false, alpha: true });
  } catch (err) {
    throw new ViewerError('webgl_unavailable', viewerMessages.webglScene(reasonOf(err)));
  }
  let maxRatio = 2;
  const fullRatio = () => Math.min(devicePixelRatio || 1, maxRatio);
  // Slow frames (software WebGL, a phone with a million splats) draw at fewer pixels, as measured.
  // A new scale is taken up by the next frame drawn (resizing the canvas clears it, so never
  // between frames); a higher one asks for that frame, a lower one waits for the next change.
  const scale = new RenderScale(
    () => options.minRenderScale?.() ?? 0.5,
    FRAME_TARGET_MS,
    (_, up) => up && wake(),
  );
  renderer.setPixelRatio(fullRatio());
  const scene = new Scene();
  // The splats sit in a group turned so that the file's up axis is +y (the library sorts by the
  // splat mesh's world matrix, so a turned parent is sorted correctly).
  const root = new Group();
  scene.add(root);
  let up: ViewerUp = '-y';
  /** Robust bounds of the splat centres in the file's own axes. */
  let fileBounds: Box3 | undefined;
  let filePoints: Float32Array = new Float32Array(0);
  let points: ArrayLike<number> | undefined;
  let touched = false;
  const fit = () => {
    if (!fileBounds) return;
    const q = uprightRotation(up);
    root.quaternion.copy(q);
    root.updateMatrixWorld(true);
    bounds = rotateBox(fileBounds, q);
    const turned = new Float32Array(filePoints.length);
    const v = new Vector3();
    for (let i = 0; i < turned.length; i += 3) {
      v.set(filePoints[i]!, filePoints[i + 1]!, filePoints[i + 2]!).applyQuaternion(q);
      turned.set([v.x, v.y, v.z], i);
    }
    points = turned as Float32Array;
    frame(camera, controls, bounds, points, FIT_QUANTILE);
  };
  const camera = new PerspectiveCamera(50, 1, 0.01, 1000);
  const controls = new Orbit(camera, canvas);
  controls.autoRotateSpeed = 1;
  let splats: DropInViewer | undefined;
  let bounds: Box3 | undefined;
  let busyUntil = 0;

  const gl = renderer.getContext();
  /** How long the last frame took, and of how many splats (what the whole scene's first frame is predicted from). */
  let lastFrame: { ms: number; splats: number; scale: number } | undefined;
  const pacer = new GpuPacer(gl instanceof WebGL2RenderingContext ? gl : undefined, (ms) => {
    // A frame that uploaded a build's textures is not a drawing time to go by.
    if (sent.uploads) return;
    lastFrame = { ms, splats: sent.splats, scale: sent.scale };
    scale.measured(ms);
  });
  /** Splats in the scene drawn, and whether the next frame uploads them (a new build). */
  let sceneSplats = 0;
  let freshTextures = false;
  /** What the frame sent last drew (the pacer times one frame at a time). */
  const sent = { splats: 0, scale: 1, uploads: false };
  /**
   * A scene being built while the canvas keeps showing the last frame drawn (the streamed
   * preview, disposed before the whole scene is built so the two never take memory at once):
   * frames only drive its library viewer (which sorts for the camera) and draw nothing.
   */
  let holding: DropInViewer | undefined;
  const render = () => {
    pacer.measureNext = !holding;
    if (!holding) {
      scale.refresh(); // min-render-scale may have changed
      const ratio = fullRatio() * scale.scale;
      if (renderer.getPixelRatio() !== ratio) renderer.setPixelRatio(ratio);
      sent.splats = sceneSplats;
      sent.scale = scale.scale;
      sent.uploads = freshTextures;
      freshTextures = false;
      return renderer.render(scene, camera);
    }
    camera.updateMatrixWorld();
    root.updateMatrixWorld(true);
    holding.viewer.update(renderer, camera);
  };
  const scheduler = new FrameScheduler(() => {
    if (controls.autoRotate) controls.update(1 / 60);
    render();
    return controls.autoRotate || performance.now() < busyUntil;
  }, pacer);
  /** Draws now unless the GPU is still on the last frame (then the scheduler's next frame will). */
  const drawNow = () => {
    if (!pacer.ready()) return false;
    render();
    pacer.sent();
    return true;
  };
  const wake = (ms = SETTLE_MS) => {
    busyUntil = Math.max(busyUntil, performance.now() + ms);
    scheduler.request();
  };
  controls.onStart = () => (touched = true);
  controls.onChange = () => wake();
  const observer = new ResizeObserver(() => {
    const w = Math.max(1, container.clientWidth);
    const h = Math.max(1, container.clientHeight);
    renderer.setSize(w, h, false);
    const changed = Math.abs(w / h - camera.aspect) > 1e-3;
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    if (changed && !touched) fit();
    wake();
  });
  observer.observe(container);
  const stopKeys = keyboardOrbit(
    canvas,
    camera,
    controls,
    () => bounds && frame(camera, controls, bounds, points, FIT_QUANTILE),
  );
  const onLost = (e: Event) => e.preventDefault();
  canvas.addEventListener('webglcontextlost', onLost);

  async function clear(): Promise<void> {
    if (!splats) return;
    root.remove(splats);
    const old = splats;
    splats = undefined;
    await old.dispose().catch(() => undefined);
  }

  /** A fresh library viewer in our scene (the old one disposed). */
  async function newViewer(): Promise<DropInViewer> {
    await clear();
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
          rootElement: canvas,
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
    splats = viewer;
    root.add(viewer);
    return viewer;
  }

  /** Frames the view on these bounds and sampled centres (in the file's axes), unless the user has moved it. */
  function frameOn(min: [number, number, number], max: [number, number, number], centres: Float32Array): void {
    fileBounds = new Box3(new Vector3(...min), new Vector3(...max));
    filePoints = centres;
    fit();
  }

  /**
   * Draws the first frame once the library's sort worker has ordered the splats (a scene added
   * whole resolves after its first sort, so this is usually one frame); `before` runs just before
   * it (the streamed preview is dropped there, so that frame draws the whole scene alone). Frames
   * drawn while waiting let the library start its sort; at most one is queued at a time.
   */
  function firstSortedFrame(viewer: DropInViewer, signal: AbortSignal, before: () => Promise<void>): Promise<void> {
    const start = performance.now();
    return new Promise<void>((resolve, reject) => {
      // The frame loop may be drawing too (auto-rotate): then its frames do both jobs, and this one
      // never waits on the GPU for its own turn.
      const tick = () => {
        if (signal.aborted) return reject(signal.reason);
        if (viewer.viewer.splatRenderReady && !viewer.viewer.sortRunning) {
          return void before().then(() => {
            if (signal.aborted) return reject(signal.reason);
            if (!drawNow()) wake();
            resolve();
          }, reject);
        }
        if (performance.now() - start > LOAD_TIMEOUT_MS)
          return reject(new ViewerError('timeout', viewerMessages.sceneNoFrame));
        drawNow();
        requestAnimationFrame(tick);
      };
      tick();
    });
  }

  function afterLoad(viewer: DropInViewer): void {
    // The library's sort worker can fault while it is being torn down (seen with tiny scenes);
    // an unhandled worker error would surface as an error of the host page, which is not ours to raise.
    viewer.viewer.sortWorker?.addEventListener('error', (e) => e.preventDefault());
  }

  /** The scene being (or last) streamed, for its compact form. */
  let streamed: PlyStream | undefined;

  const budget = () => Math.max(1, Math.floor(options.budget?.() ?? Infinity));

  /**
   * A standard 3DGS PLY shown while it downloads (splat-stream.ts): the first splats as soon as
   * the first records are read, more as they arrive, each build handed to the library as a growing
   * SplatBuffer (as its own progressive loader does, but from our download and in one compact copy).
   * Any other file is read whole and goes the whole-file way.
   */
  async function loadStream(
    source: ByteStream,
    signal: AbortSignal,
    onProgress: (detail: ViewerProgressDetail) => void,
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
    streamed = undefined;

    const viewer = await newViewer();
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
      if (signal.aborted || splats !== viewer) {
        ended = true; // replaced or given up: no more builds
        return;
      }
      // The data the library stages for its textures (at least 4096 x 1024 texels each, whatever
      // the count) is let go once uploaded, as after a final build: the next preview is a new
      // buffer the library builds afresh, and the whole scene is built once the preview is gone.
      viewer.viewer.splatMesh?.freeIntermediateSplatData();
      if (!touched && stream.centresCount > 0) {
        const centres = stream.centres.subarray(0, stream.centresCount * 3);
        const { min, max } = robustBounds(stream.centresCount, (i, out) => {
          out[0] = centres[i * 3]!;
          out[1] = centres[i * 3 + 1]!;
          out[2] = centres[i * 3 + 2]!;
        });
        frameOn(min, max, centres.slice());
      }
      sceneSplats = count;
      freshTextures = true;
      drawNow();
      shown = count;
      wake();
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
      if (ended || failed || signal.aborted || splats !== viewer) return;
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
      if (splats === viewer) await clear();
      if (err instanceof ViewerError || signal.aborted) throw err;
      throw new ViewerError('corrupt_file', viewerMessages.sceneUnreadable(reasonOf(err)));
    }
    // The whole scene is then built once, from the compact form, in a viewer of its own (a last
    // progressive build of a million splats left the library's sort unsettled for minutes in
    // software WebGL); the partial view stays on screen until the new one draws (load()).
    return { stream, compact: stream.compact()! };
  }

  return {
    async load(source, signal, onProgress) {
      lastFrame = undefined;
      let raw: Uint8Array;
      let stream: PlyStream | undefined;
      if (source instanceof Uint8Array) raw = source;
      else {
        const result = await loadStream(source, signal, onProgress);
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
      const viewer = await newViewer();
      // Given up (or replaced by a newer src) while the last viewer was disposed.
      signal.throwIfAborted();
      /** Lets go of the held frame, unless a newer load holds one of its own by now. */
      const release = () => {
        if (holding === viewer) holding = undefined;
      };
      // Framed before the scene is added: the library sorts (and culls) for the camera it sees
      // first, and a later move would leave the first frames empty until the next sort lands.
      if (!stream) touched = false; // a streamed scene keeps the view the user may have turned meanwhile
      frameOn(prepared.min, prepared.max, prepared.centres ?? samplePositions(prepared.bytes, prepared.format));
      if (stream) {
        holding = viewer;
        render(); // the library's viewer learns the renderer and the camera it sorts for
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
                if (splats === viewer && !signal.aborted) viewer.viewer.splatMesh?.freeIntermediateSplatData();
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
        if (splats === viewer) await clear();
        if (err instanceof ViewerError || signal.aborted) throw err;
        throw new ViewerError('corrupt_file', viewerMessages.sceneUnreadable(reasonOf(err)));
      } finally {
        clearTimeout(timer);
        if (url) URL.revokeObjectURL(url);
      }
      afterLoad(viewer);
      try {
        await firstSortedFrame(viewer, signal, async () => {
          release();
          // The whole scene's first frame costs about the last preview's per splat: a frame that
          // would be slow is drawn at fewer pixels from the start (not seconds at full size first).
          const last = lastFrame;
          if (last && last.splats > 0)
            scale.predict(last.ms * (prepared.count / last.splats) * (scale.scale / last.scale) ** 2);
          sceneSplats = prepared.count;
          freshTextures = true;
        });
      } finally {
        release();
      }
      wake();
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
      if (next === up) return;
      up = next;
      fit();
      wake();
    },
    setMaxPixelRatio(ratio) {
      if (ratio === maxRatio) return;
      maxRatio = ratio;
      wake();
    },
    setAutoRotate(on) {
      controls.autoRotate = on;
      wake();
    },
    screenshot() {
      // At the full pixel ratio, whatever the frame times have lowered it to (the next frame
      // goes back to the lowered one).
      renderer.setPixelRatio(fullRatio());
      renderer.render(scene, camera);
      return new Promise((resolve, reject) =>
        canvas.toBlob((b) => (b ? resolve(b) : reject(new Error(viewerMessages.canvasEncode))), 'image/png'),
      );
    },
    dispose() {
      scheduler.dispose();
      pacer.dispose();
      observer.disconnect();
      stopKeys();
      controls.dispose();
      canvas.removeEventListener('webglcontextlost', onLost);
      void clear();
      renderer.dispose();
      renderer.forceContextLoss();
    },
  };
}

/** A .ksplat (read by the library's SplatBuffer, for its centres) or an .spz (decoded to .splat records) made ready; others as they are. */
async function readScene(file: SplatFile): Promise<Scene3> {
  if (file.format === 'spz') {
    const decoder = await (spzModule ??= import('./splat-spz.js')).catch((err: unknown) => {
      spzModule = undefined;
      throw new ViewerError('network', viewerMessages.spzDecoderDownload(reasonOf(err)));
    });
    return decoder.decodeSpz(file);
  }
  if (file.format !== 'ksplat') return file;
  // SplatBuffer reads from offset 0 of its own ArrayBuffer (a zip entry is a view into a larger one).
  const bytes =
    file.bytes.byteOffset === 0 && file.bytes.byteLength === file.bytes.buffer.byteLength
      ? file.bytes
      : file.bytes.slice();
  let buffer: SplatBuffer;
  try {
    buffer = new SplatBuffer(bytes.buffer as ArrayBuffer);
  } catch (err) {
    throw new ViewerError('corrupt_file', viewerMessages.sceneUnreadable(reasonOf(err)));
  }
  const step = Math.max(1, Math.ceil(file.count / 20_000));
  const centres: number[] = [];
  const v = new Vector3();
  for (let i = 0; i < file.count; i += step) {
    buffer.getSplatCenter(i, v);
    if (Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z)) centres.push(v.x, v.y, v.z);
  }
  const bounds = robustBounds(centres.length / 3, (i, out) => {
    out[0] = centres[i * 3]!;
    out[1] = centres[i * 3 + 1]!;
    out[2] = centres[i * 3 + 2]!;
  });
  return { ...file, bytes, buffer, centres: new Float32Array(centres), ...bounds };
}

/** `budget` splats taken evenly from a .ksplat, as .splat records. */
function ksplatRecords(buffer: SplatBuffer, count: number, budget: number): Uint8Array {
  const out = new Uint8Array(budget * 32);
  const view = new DataView(out.buffer);
  const [centre, scale, rotation, colour] = [new Vector3(), new Vector3(), new Quaternion(), new Vector4()];
  const byte = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  for (let i = 0; i < budget; i++) {
    const from = Math.floor((i * count) / budget);
    buffer.getSplatCenter(from, centre);
    buffer.getSplatScaleAndRotation(from, scale, rotation);
    buffer.getSplatColor(from, colour);
    const o = i * 32;
    [centre.x, centre.y, centre.z, scale.x, scale.y, scale.z].forEach((f, k) => view.setFloat32(o + k * 4, f, true));
    out.set([colour.x, colour.y, colour.z, colour.w].map(byte), o + 24);
    rotation.normalize();
    out.set(
      [rotation.w, rotation.x, rotation.y, rotation.z].map((q) => byte(q * 128 + 128)),
      o + 28,
    );
  }
  return out;
}

/** Up to 20 000 splat centres of what the library is given (a standard PLY or .splat records). */
function samplePositions(bytes: Uint8Array, format: 'ply' | 'splat'): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = 0;
  let stride = 32;
  let count = Math.floor(bytes.byteLength / 32);
  let offsets = [0, 4, 8];
  if (format === 'ply') {
    // Standard 3DGS PLY (checked by splat-formats.ts): a vertex element of float properties first.
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.byteLength, 64 * 1024)));
    const end = head.indexOf('end_header\n');
    const names: string[] = [];
    let inVertex = false;
    for (const line of head.slice(0, end).split('\n')) {
      const w = line.trim().split(/\s+/);
      if (w[0] === 'element') {
        inVertex = w[1] === 'vertex';
        if (inVertex) count = Number(w[2]);
      } else if (w[0] === 'property' && inVertex) names.push(w[2]!);
    }
    start = end + 'end_header\n'.length;
    stride = names.length * 4;
    offsets = ['x', 'y', 'z'].map((n) => names.indexOf(n) * 4);
  }
  const step = Math.max(1, Math.ceil(count / 20_000));
  const out: number[] = [];
  for (let i = 0; i < count; i += step) {
    const o = start + i * stride;
    const x = view.getFloat32(o + offsets[0]!, true);
    const y = view.getFloat32(o + offsets[1]!, true);
    const z = view.getFloat32(o + offsets[2]!, true);
    if (Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)) out.push(x, y, z);
  }
  return new Float32Array(out);
}

/** `budget` splats taken evenly from a standard PLY or .splat records. */
function thin(
  bytes: Uint8Array,
  format: 'ply' | 'splat',
  count: number,
  budget: number,
): { bytes: Uint8Array; count: number } {
  let start = 0;
  let header = new Uint8Array(0);
  let stride = 32;
  if (format === 'ply') {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.byteLength, 64 * 1024)));
    start = head.indexOf('end_header\n') + 'end_header\n'.length;
    stride = (bytes.byteLength - start) / count; // a standard 3DGS PLY holds only the vertex element
    header = new TextEncoder().encode(
      head.slice(0, start).replace(/^element vertex \d+$/m, `element vertex ${budget}`),
    );
  }
  const out = new Uint8Array(header.byteLength + budget * stride);
  out.set(header);
  for (let i = 0; i < budget; i++) {
    const from = start + Math.floor((i * count) / budget) * stride;
    out.set(bytes.subarray(from, from + stride), header.byteLength + i * stride);
  }
  return { bytes: out, count: budget };
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
function addFile(
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
