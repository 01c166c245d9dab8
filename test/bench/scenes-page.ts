// The page the scenes benchmark (scenes.ts) builds and drives, one fresh browser per measurement.
// `run(mode, options)` starts one load and returns at once; the timings (seconds from setting src,
// or from calling addSplatScene / creating the SplatMesh) go to the benchmark through its
// `__report` binding as they land. Each mode imports only what it needs, after the page has loaded:
//   element              <splat-viewer> (its own lazy renderer chunk: three + the splat library)
//   library              the splat library alone in a bare three.js page, whole file
//   library-progressive  the same with the library's progressiveLoad
//   spark                Spark (@sparkjsdev/spark), when the benchmark could install it
import type { SplatViewer } from '../../src/viewers/splat-viewer/splat-viewer.js';

export interface RunOptions {
  src: string;
  /** Splats in the file. */
  count: number;
  width: number;
  height: number;
  /** Camera for the bare pages (the element frames the scene itself). */
  view: { position: [number, number, number]; target: [number, number, number] };
}

export interface RunState {
  done: boolean;
  /** Seconds to the first frame with splats in it. */
  first?: number;
  /** Seconds to a frame of the whole scene (or the element's load event). */
  whole?: number;
  /**
   * Seconds to the whole scene built and sorted, its first frame not yet drawn: the processor's
   * work, apart from how long software WebGL then takes to draw a frame from that view (the
   * element frames the subject itself, closer than the bare pages' fixed camera).
   */
  ready?: number;
  /** Splats drawn. */
  shown?: number;
  /** Splats on screen so far, while a progressive load goes on (what a timeout leaves shown). */
  onScreen?: number;
  /** Seconds at which `onScreen` last changed. */
  onScreenAt?: number;
  /** Splats in the file, as the renderer counted them. */
  inFile?: number;
  error?: string;
  note?: string;
  /** Where the element's time went: each progress phase as it began (`stream 2.0 s, parse 9.1 s`) and the download's end. */
  steps?: string;
}

export interface PageFacts {
  screenWidth: number;
  screenHeight: number;
  deviceMemory: number | null;
  devicePixelRatio: number;
  cores: number;
  gl: string;
}

/** Each change goes to the benchmark at once (its `__report` binding), so it never has to ask. */
const state: RunState = new Proxy<RunState>(
  { done: false },
  {
    set(target, key, value) {
      Reflect.set(target, key, value);
      const report = (window as Window & { __report?: (s: RunState) => void }).__report;
      void report?.({ ...target });
      return true;
    },
  },
);
const seconds = (t0: number, t = performance.now()) => (t - t0) / 1000;

/**
 * When the GPU has finished everything issued on `gl` so far: a fence, polled without blocking.
 * A render call only queues work (SwiftShader draws a large scene for seconds after it returns),
 * so every "frame drawn" time here is taken at its fence, for the element and the libraries alike.
 */
function drawn(gl: WebGL2RenderingContext | null | undefined): Promise<number> {
  const sync = gl && !gl.isContextLost() ? gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0) : null;
  if (!gl || !sync) return Promise.resolve(performance.now());
  gl.flush();
  return new Promise((resolve) => {
    const poll = () => {
      if (gl.isContextLost() || gl.getSyncParameter(sync, gl.SYNC_STATUS) === gl.SIGNALED) {
        gl.deleteSync(sync);
        resolve(performance.now());
      } else setTimeout(poll, 20);
    };
    poll();
  });
}

function facts(): PageFacts {
  const gl = document.createElement('canvas').getContext('webgl2');
  const info = gl?.getExtension('WEBGL_debug_renderer_info');
  return {
    screenWidth: screen.width,
    screenHeight: screen.height,
    deviceMemory: (navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? null,
    devicePixelRatio,
    cores: navigator.hardwareConcurrency,
    gl: gl ? String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)) : 'none',
  };
}

function fail(err: unknown): void {
  state.error = err instanceof Error ? err.message : String(err);
  state.done = true;
}

async function runElement(o: RunOptions, full: boolean): Promise<void> {
  await import('../../src/viewers/splat-viewer/define.js');
  const el = document.createElement('splat-viewer') as SplatViewer;
  el.setAttribute('loading', 'eager');
  if (full) el.setAttribute('min-render-scale', '1');
  el.style.cssText = `display:block;width:${o.width}px;height:${o.height}px;--mk-viewer-height:${o.height}px`;
  document.body.append(el);
  const gl = () => el.shadowRoot?.querySelector('canvas')?.getContext('webgl2');
  const t0 = performance.now();
  let streamed = false;
  let phase = '';
  const steps: string[] = [];
  el.addEventListener('mk-viewer-progressed', (e) => {
    // `phase: 'stream'` with a splat count: splats already on screen while the rest arrives.
    const d = e.detail as { phase: string; splats?: number; loaded?: number; total?: number };
    if (d.phase !== phase) {
      phase = d.phase;
      steps.push(`${phase} ${seconds(t0).toFixed(1)} s`);
      state.steps = steps.join(', ');
    }
    if (d.phase === 'download' && d.total && d.loaded === d.total) {
      steps.push(`downloaded ${seconds(t0).toFixed(1)} s`);
      state.steps = steps.join(', ');
    }
    if (d.phase === 'stream' && d.splats !== undefined && d.splats !== state.onScreen) {
      state.onScreen = d.splats;
      state.onScreenAt = seconds(t0);
    }
    if (streamed || d.phase !== 'stream' || !(d.splats ?? 0)) return;
    streamed = true;
    void drawn(gl()).then((t) => (state.first ??= seconds(t0, t)));
  });
  el.addEventListener('mk-viewer-loaded', async (e) => {
    state.ready = seconds(t0);
    state.whole = seconds(t0, await drawn(gl()));
    state.first ??= state.whole;
    const d = e.detail as { splats?: number; shown?: number };
    state.inFile = d.splats;
    state.shown = d.shown;
    void el.updateComplete.then(() => {
      // A thinned scene says so in its notice ("Showing 600,000 of 1,000,000 splats…").
      const notice = el.shadowRoot?.querySelector('[part~="notice"]')?.textContent ?? '';
      const shown = /([\d.,\s]+)\s/.exec(notice.replace(/^\D+/, ''))?.[1]?.replace(/\D/g, '');
      if (state.shown === undefined && shown) {
        state.shown = Number(shown);
        state.note = 'shown read from the notice';
      }
      state.shown ??= d.splats;
      state.done = true;
    });
  });
  el.addEventListener('mk-viewer-failed', (e) => fail(e.detail.message));
  el.setAttribute('src', o.src);
}

/** A canvas on the page, a renderer, a scene and the camera of the options' view, from this copy of three. */
function stage(three: typeof import('three'), o: RunOptions) {
  const canvas = document.createElement('canvas');
  canvas.style.cssText = `display:block;width:${o.width}px;height:${o.height}px`;
  document.body.append(canvas);
  const renderer = new three.WebGLRenderer({ canvas, antialias: false });
  // As the element does by default: device pixels, at most 2 per CSS pixel.
  renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
  renderer.setSize(o.width, o.height, false);
  const scene = new three.Scene();
  const camera = new three.PerspectiveCamera(50, o.width / o.height, 0.01, 1000);
  camera.position.set(...o.view.position);
  camera.lookAt(...o.view.target);
  return { renderer, scene, camera };
}

/** A canvas and a render loop; `frame()` resolves after the next render call. */
async function bare(o: RunOptions) {
  const { renderer, scene, camera } = stage(await import('three'), o);
  const waiting: (() => void)[] = [];
  const everyFrame: (() => void)[] = [];
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    const w = waiting.splice(0);
    renderer.render(scene, camera);
    w.forEach((f) => f());
    everyFrame.forEach((f) => f());
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return {
    renderer,
    gl: renderer.getContext() as WebGL2RenderingContext,
    scene,
    frame: () => new Promise<void>((r) => waiting.push(r)),
    onFrame: (f: () => void) => everyFrame.push(f),
    stop: () => (stopped = true),
  };
}

async function runLibrary(o: RunOptions, progressive: boolean): Promise<void> {
  const GS = await import('@mkkellogg/gaussian-splats-3d');
  const page = await bare(o);
  const dropIn = new GS.DropInViewer({
    // Not cross-origin isolated: shared memory would hang the library (shared/notes/ENVIRONMENT.md).
    sharedMemoryForWorkers: false,
    gpuAcceleratedSort: false,
    sphericalHarmonicsDegree: 0,
    sceneRevealMode: GS.SceneRevealMode.Instant,
    logLevel: GS.LogLevel.None,
    freeIntermediateSplatData: true,
  });
  page.scene.add(dropIn);
  const viewer = dropIn.viewer as typeof dropIn.viewer & { splatSceneDownloadAndBuildPromise: Promise<void> | null };
  const t0 = performance.now();
  const adding = dropIn.addSplatScene(o.src, {
    format: GS.SceneFormat.Ply,
    showLoadingUI: false,
    progressiveLoad: progressive,
  });
  // Progressive: the promise above resolves at the first built section; this one at the last
  // (it never settles when the first section is also the last, so the count is watched as well).
  const all = progressive ? viewer.splatSceneDownloadAndBuildPromise : null;
  const ready = async () => {
    while (!viewer.splatRenderReady) await page.frame();
    await page.frame();
  };
  adding.catch(fail);
  if (progressive) {
    let whole = false;
    const finish = async (how: string) => {
      if (whole) return;
      whole = true;
      await ready();
      state.whole = seconds(t0, await drawn(page.gl));
      state.first ??= state.whole;
      state.shown = state.inFile = viewer.splatMesh?.getSplatCount();
      state.note = how;
      state.done = true;
    };
    all?.then(() => finish('download-and-build promise'), fail);
    page.onFrame(() => {
      const n = viewer.splatRenderReady ? viewer.splatMesh?.getSplatCount() : undefined;
      if (n !== undefined && n !== state.onScreen) {
        state.onScreen = n;
        state.onScreenAt = seconds(t0);
      }
      if (n === o.count) void finish('splat count reached the file');
    });
    await adding;
    await ready();
    const t = await drawn(page.gl);
    state.first ??= seconds(t0, t);
  } else {
    await adding;
    state.ready = seconds(t0);
    await ready();
    state.first = state.whole = seconds(t0, await drawn(page.gl));
    state.shown = state.inFile = viewer.splatMesh?.getSplatCount();
    state.done = true;
  }
}

interface SparkModule {
  SparkRenderer: new (options: { renderer: unknown }) => { activeSplats: number; sorting: boolean };
  SplatMesh: new (options: { url: string; fileType?: string }) => {
    initialized: Promise<unknown>;
    packedSplats?: { numSplats: number };
    splats?: { getNumSplats(): number };
  };
}

async function runSpark(o: RunOptions): Promise<void> {
  // Spark and three from their own files through the import map, so both use one three.
  const [three, sparkModule] = ['/three/build/three.module.js', '/spark.js'];
  const [threeModule, spark] = await Promise.all([
    import(/* @vite-ignore */ three) as Promise<typeof import('three')>,
    import(/* @vite-ignore */ sparkModule) as Promise<SparkModule>,
  ]);
  const { renderer, scene, camera } = stage(threeModule, o);
  const sparkRenderer = new spark.SparkRenderer({ renderer });
  scene.add(sparkRenderer as never);
  const waiting: (() => void)[] = [];
  const tick = () => {
    const w = waiting.splice(0);
    renderer.render(scene, camera);
    w.forEach((f) => f());
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const t0 = performance.now();
  const mesh = new spark.SplatMesh({ url: o.src, fileType: 'ply' });
  scene.add(mesh as never);
  await mesh.initialized;
  // Decoded is not drawn: Spark then gathers the splats on the GPU and sorts them in a worker;
  // the scene is drawn once its renderer holds them all, sorted, and one more frame is rendered.
  const inFile = mesh.splats?.getNumSplats() ?? mesh.packedSplats?.numSplats ?? o.count;
  const frame = () => new Promise<void>((r) => waiting.push(r));
  do await frame();
  while (sparkRenderer.activeSplats < inFile || sparkRenderer.sorting);
  await frame();
  state.first = state.whole = seconds(t0, await drawn(renderer.getContext() as WebGL2RenderingContext));
  state.shown = sparkRenderer.activeSplats;
  state.inFile = inFile;
  state.note = 'whole file before the first frame';
  state.done = true;
}

function run(mode: 'element' | 'element-full' | 'library' | 'library-progressive' | 'spark', o: RunOptions): void {
  const go = mode.startsWith('element')
    ? runElement(o, mode === 'element-full')
    : mode === 'spark'
      ? runSpark(o)
      : runLibrary(o, mode === 'library-progressive');
  go.catch(fail);
}

Object.assign(window, { run, facts });
