/**
 * The splat renderer: the only module of <splat-viewer> that imports three.js and
 * @mkkellogg/gaussian-splats-3d, loaded by a memoized dynamic import when there is something to
 * show. The library's DropInViewer sits in our own scene with our own camera and controls (its
 * Viewer adds window key listeners and body-level UI). Files are judged and prepared by
 * splat-formats.ts and handed over as a blob URL with an explicit format (the library judges
 * formats by URL extension). Shared memory and GPU sort only when the page is cross-origin
 * isolated: without isolation the library's default hangs forever (shared/notes/ENVIRONMENT.md).
 */
import { Box3, PerspectiveCamera, Scene, Vector3, WebGLRenderer } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { DropInViewer, LogLevel, SceneFormat, SceneRevealMode } from '@mkkellogg/gaussian-splats-3d';
import type { ViewerRenderer } from '../shared/viewer-element.js';
import { fetchBytes } from '../shared/fetch-bytes.js';
import { ViewerError } from '../shared/viewer-error.js';
import { FrameScheduler, frame, keyboardOrbit } from '../shared/orbit.js';
import { prepareSplats } from './splat-formats.js';

/** A scene that has not shown within this time is reported rather than left spinning. */
const LOAD_TIMEOUT_MS = 60_000;
/** Frames keep coming this long after a change, while the sort worker catches up. */
const SETTLE_MS = 600;

export function createSplatRenderer(canvas: HTMLCanvasElement, container: HTMLElement): ViewerRenderer {
  let renderer: WebGLRenderer;
  try {
    renderer = new WebGLRenderer({ canvas, antialias: false, alpha: true });
  } catch (err) {
    throw new ViewerError('webgl_unavailable', `WebGL is not available in this browser, so the scene cannot be shown (${err instanceof Error ? err.message : err}).`);
  }
  renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
  const scene = new Scene();
  const camera = new PerspectiveCamera(50, 1, 0.01, 1000);
  const controls = new OrbitControls(camera, canvas);
  controls.autoRotateSpeed = 1;
  let splats: DropInViewer | undefined;
  let bounds: Box3 | undefined;
  let busyUntil = 0;

  const scheduler = new FrameScheduler(() => {
    if (controls.autoRotate) controls.update(1 / 60);
    renderer.render(scene, camera);
    return controls.autoRotate || performance.now() < busyUntil;
  });
  const wake = (ms = SETTLE_MS) => {
    busyUntil = Math.max(busyUntil, performance.now() + ms);
    scheduler.request();
  };
  controls.addEventListener('change', () => wake());
  const observer = new ResizeObserver(() => {
    const w = Math.max(1, container.clientWidth);
    const h = Math.max(1, container.clientHeight);
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    wake();
  });
  observer.observe(container);
  const stopKeys = keyboardOrbit(canvas, camera, controls, () => bounds && frame(camera, controls, bounds));
  const onLost = (e: Event) => e.preventDefault();
  canvas.addEventListener('webglcontextlost', onLost);

  async function clear(): Promise<void> {
    if (!splats) return;
    scene.remove(splats);
    const old = splats;
    splats = undefined;
    await old.dispose().catch(() => undefined);
  }

  return {
    async load(src, signal, onProgress) {
      const raw = await fetchBytes(src, signal, (loaded, total) => onProgress({ phase: 'download', loaded, total }));
      signal.throwIfAborted();
      const prepared = prepareSplats(raw);
      onProgress({ phase: 'parse', loaded: 0, total: prepared.bytes.byteLength });
      await clear();
      const isolated = globalThis.crossOriginIsolated === true;
      const viewer = new DropInViewer({
        sharedMemoryForWorkers: isolated,
        gpuAcceleratedSort: isolated,
        sphericalHarmonicsDegree: 0,
        sceneRevealMode: SceneRevealMode.Instant,
        logLevel: LogLevel.None,
        freeIntermediateSplatData: true,
      });
      splats = viewer;
      scene.add(viewer);
      // Framed before the scene is added: the library sorts (and culls) for the camera it sees
      // first, and a later move would leave the first frames empty until the next sort lands.
      bounds = new Box3(new Vector3(...prepared.min), new Vector3(...prepared.max));
      frame(camera, controls, bounds);
      const url = URL.createObjectURL(new Blob([prepared.bytes as Uint8Array<ArrayBuffer>]));
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const adding = viewer.addSplatScene(url, {
          format: prepared.format === 'ply' ? SceneFormat.Ply : SceneFormat.Splat,
          showLoadingUI: false,
          progressiveLoad: false,
          splatAlphaRemovalThreshold: 1,
          onProgress: (percent) => onProgress({ phase: 'parse', loaded: Math.round((percent / 100) * prepared.bytes.byteLength), total: prepared.bytes.byteLength }),
        });
        await Promise.race([
          adding,
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new ViewerError('timeout', 'The scene did not finish loading within a minute; the file may be damaged or too large for this device.')), LOAD_TIMEOUT_MS);
            signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          }),
        ]);
      } catch (err) {
        if (splats === viewer) await clear();
        if (err instanceof ViewerError || signal.aborted) throw err;
        throw new ViewerError('corrupt_file', `The splat scene could not be read: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        clearTimeout(timer);
        URL.revokeObjectURL(url);
      }
      // The library's sort worker can fault while it is being torn down (seen with tiny scenes);
      // an unhandled worker error would surface as an error of the host page, which is not ours to raise.
      viewer.viewer.sortWorker?.addEventListener('error', (e) => e.preventDefault());
      // Draw until the library's sort worker has ordered the splats once, then one more frame.
      const start = performance.now();
      await new Promise<void>((resolve, reject) => {
        const tick = () => {
          if (signal.aborted) return reject(signal.reason);
          renderer.render(scene, camera);
          if (viewer.viewer.splatRenderReady && !viewer.viewer.sortRunning) return requestAnimationFrame(() => (renderer.render(scene, camera), resolve()));
          if (performance.now() - start > LOAD_TIMEOUT_MS) return reject(new ViewerError('timeout', 'The scene loaded but never finished its first frame.'));
          requestAnimationFrame(tick);
        };
        tick();
      });
      wake();
      return { splats: prepared.count };
    },
    setAutoRotate(on) {
      controls.autoRotate = on;
      wake();
    },
    screenshot() {
      renderer.render(scene, camera);
      return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('The canvas could not be encoded.'))), 'image/png'));
    },
    dispose() {
      scheduler.dispose();
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
