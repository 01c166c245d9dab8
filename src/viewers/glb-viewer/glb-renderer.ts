/**
 * The GLB renderer: the only module of <glb-viewer> that imports three.js, loaded by a memoized
 * dynamic import when there is something to show.
 *
 * One WebGLRenderer (one WebGL context) draws every <glb-viewer> on the page, as model-viewer's
 * Renderer does: each element keeps its own scene, camera and a 2D canvas; the shared renderer
 * draws a view into a corner of its own offscreen canvas and copies it into the element's canvas.
 * Only views that are in the viewport and have changed (or animate) are drawn, in one animation
 * frame for all. The studio lighting (a RoomEnvironment PMREM) is made once per page, after the
 * first frame (which is lit by two plain lights), in an idle period. Context loss is handled once,
 * for every view. The context is given back when the last viewer has been gone a moment.
 *
 * Only what a file needs is loaded: the Meshopt decoder for EXT_meshopt_compression, Draco and
 * KTX2 loaders for their extensions (from paths the page configures, never a CDN).
 */
import {
  AnimationMixer,
  Box3,
  DirectionalLight,
  Group,
  HemisphereLight,
  NeutralToneMapping,
  PerspectiveCamera,
  PMREMGenerator,
  Scene,
  WebGLRenderer,
  type Material,
  type Mesh,
  type Object3D,
  type Texture,
} from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { strings, type ViewerRenderer, type ViewerUp } from '../shared/viewer-element.js';
import { ViewerError } from '../shared/viewer-error.js';
import { Orbit, frame, keyboardOrbit, samplePoints, uprightRotation } from '../shared/orbit.js';
import { readGlbStats, splitGlb } from './glb-stats.js';

export interface GlbRendererOptions {
  /** Folder of the Draco decoder files (draco_wasm_wrapper.js, draco_decoder.wasm); unset: three's own, beside the bundle. */
  dracoPath?: string;
  /** Folder of the Basis transcoder (basis_transcoder.js/.wasm); unset: three's own, beside the bundle. */
  ktx2Path?: string;
}

/** How long the shared context outlives the last viewer (a page swapping viewers keeps it). */
const RELEASE_MS = 1500;

interface View {
  readonly target: HTMLCanvasElement;
  readonly context: CanvasRenderingContext2D;
  readonly scene: Scene;
  readonly camera: PerspectiveCamera;
  readonly lights: Group;
  width: number;
  height: number;
  visible: boolean;
  dirty: boolean;
  /** Draws every frame while true (animations, auto-rotation). */
  animating(): boolean;
  /** Called before each draw with the seconds since the last one. */
  advance(dt: number): void;
  last: number;
  drawn?: () => void;
}

/** The page's one renderer for all <glb-viewer>s. */
class Stage {
  static #current: Stage | undefined;
  static #release: ReturnType<typeof setTimeout> | undefined;

  static acquire(): Stage {
    clearTimeout(Stage.#release);
    return (Stage.#current ??= new Stage());
  }

  readonly canvas = document.createElement('canvas');
  readonly renderer: WebGLRenderer;
  readonly #views = new Set<View>();
  readonly #observer: IntersectionObserver;
  #environment: Texture | undefined;
  #environmentPending = false;
  #frame = 0;
  #lost = false;

  constructor() {
    try {
      this.renderer = new WebGLRenderer({ canvas: this.canvas, antialias: true, alpha: true });
    } catch (err) {
      throw new ViewerError('webgl_unavailable', strings.webglModel(err instanceof Error ? err.message : String(err)));
    }
    this.renderer.setPixelRatio(1); // views are sized in device pixels here
    this.renderer.toneMapping = NeutralToneMapping;
    this.renderer.setClearColor(0x000000, 0);
    this.#observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const view = [...this.#views].find((v) => v.target === entry.target);
        if (!view) continue;
        view.visible = entry.isIntersecting;
        if (view.visible) this.request(view);
      }
    });
    // One handler for every view: three rebuilds its GPU state when the context comes back; the
    // environment (a render target) is made again and every view redrawn.
    this.canvas.addEventListener('webglcontextlost', this.#onLost);
    this.canvas.addEventListener('webglcontextrestored', this.#onRestored);
  }

  add(view: View): void {
    this.#views.add(view);
    this.#observer.observe(view.target);
    view.scene.environment = this.#environment ?? null;
    view.lights.visible = !this.#environment;
  }

  remove(view: View): void {
    this.#views.delete(view);
    this.#observer.unobserve(view.target);
    if (this.#views.size === 0 && Stage.#current === this) {
      clearTimeout(Stage.#release);
      Stage.#release = setTimeout(() => {
        if (this.#views.size === 0 && Stage.#current === this) this.#dispose();
      }, RELEASE_MS);
    }
  }

  /** Marks a view changed and draws it in the next animation frame (if it is in view). */
  request(view?: View): void {
    if (view) view.dirty = true;
    this.#frame ||= requestAnimationFrame(this.#tick);
  }

  /** Draws `view` now into its own canvas (also out of view: a screenshot or the first frame). */
  draw(view: View): void {
    if (this.#lost) return;
    const now = performance.now();
    view.advance(Math.min(0.1, (now - view.last) / 1000));
    view.last = now;
    const { width: w, height: h } = view;
    if (this.canvas.width < w || this.canvas.height < h) this.renderer.setSize(Math.max(w, this.canvas.width), Math.max(h, this.canvas.height), false);
    // The view goes to the canvas's top-left corner (GL counts rows from the bottom).
    const top = this.canvas.height - h;
    this.renderer.setViewport(0, top, w, h);
    this.renderer.setScissor(0, top, w, h);
    this.renderer.setScissorTest(true);
    this.renderer.render(view.scene, view.camera);
    if (view.target.width !== w || view.target.height !== h) {
      view.target.width = w;
      view.target.height = h;
    }
    view.context.clearRect(0, 0, w, h);
    view.context.drawImage(this.canvas, 0, 0, w, h, 0, 0, w, h);
    view.dirty = false;
    view.drawn?.();
  }

  /** The studio lighting, made once per page in an idle period after a first frame. */
  upgradeLighting(): void {
    if (this.#environment || this.#environmentPending) return;
    this.#environmentPending = true;
    const run = async () => {
      const { RoomEnvironment } = await import('three/examples/jsm/environments/RoomEnvironment.js');
      if (Stage.#current !== this || this.#lost) {
        this.#environmentPending = false;
        return;
      }
      const pmrem = new PMREMGenerator(this.renderer);
      const room = new RoomEnvironment();
      this.#environment = pmrem.fromScene(room, 0.04).texture;
      room.dispose();
      pmrem.dispose();
      this.#environmentPending = false;
      for (const v of this.#views) {
        v.scene.environment = this.#environment;
        v.lights.visible = false;
        this.request(v);
      }
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => void run(), { timeout: 1000 });
    else setTimeout(() => void run(), 50);
  }

  #tick = () => {
    this.#frame = 0;
    let again = false;
    for (const view of this.#views) {
      const animating = view.animating();
      if (view.visible && (view.dirty || animating)) this.draw(view);
      if (view.visible && animating) again = true;
    }
    if (again) this.request();
  };

  #onLost = (e: Event) => {
    e.preventDefault(); // lets the browser restore the context
    this.#lost = true;
  };

  #onRestored = () => {
    this.#lost = false;
    this.#environment?.dispose();
    this.#environment = undefined;
    for (const v of this.#views) {
      v.scene.environment = null;
      v.lights.visible = true;
      this.request(v);
    }
    this.upgradeLighting();
  };

  #dispose(): void {
    cancelAnimationFrame(this.#frame);
    this.#observer.disconnect();
    this.canvas.removeEventListener('webglcontextlost', this.#onLost);
    this.canvas.removeEventListener('webglcontextrestored', this.#onRestored);
    this.#environment?.dispose();
    this.renderer.dispose();
    // Give the context back now rather than when garbage is collected.
    this.renderer.forceContextLoss();
    Stage.#current = undefined;
  }
}

/** The view of one <glb-viewer>, drawn by the page's shared renderer. */
export function createGlbRenderer(canvas: HTMLCanvasElement, container: HTMLElement, options: GlbRendererOptions = {}): ViewerRenderer {
  const stage = Stage.acquire();
  const context = canvas.getContext('2d');
  if (!context) throw new ViewerError('webgl_unavailable', strings.webglModel('no 2D canvas'));
  const scene = new Scene();
  // The model sits in a group turned so that the file's up axis is +y.
  const root = new Group();
  scene.add(root);
  // Until the page's studio lighting is ready: a sky/ground fill and a key light.
  const lights = new Group();
  const key = new DirectionalLight(0xffffff, 2.2);
  key.position.set(1, 2, 1.5);
  lights.add(new HemisphereLight(0xffffff, 0x8d8d8d, 2.2), key);
  scene.add(lights);
  const camera = new PerspectiveCamera(40, 1, 0.01, 100);
  const controls = new Orbit(camera, canvas);
  controls.autoRotateSpeed = 1.5;

  let mixer: AnimationMixer | undefined;
  let model: Object3D | undefined;
  let bounds: Box3 | undefined;
  let points: Float32Array | undefined;
  let up: ViewerUp = '+y';
  let touched = false;
  let maxRatio = 2;

  const view: View = {
    target: canvas,
    context,
    scene,
    camera,
    lights,
    width: 1,
    height: 1,
    visible: false,
    dirty: true,
    last: performance.now(),
    animating: () => Boolean(mixer) || controls.autoRotate,
    advance(dt) {
      mixer?.update(dt);
      if (controls.autoRotate) controls.update(dt);
    },
  };
  stage.add(view);
  controls.onStart = () => (touched = true);
  controls.onChange = () => stage.request(view);

  function fit(): void {
    if (!model) return;
    root.quaternion.copy(uprightRotation(up));
    root.updateMatrixWorld(true);
    bounds = new Box3().setFromObject(root);
    points = samplePoints(root);
    frame(camera, controls, bounds, points);
  }

  const resize = () => {
    const ratio = Math.min(devicePixelRatio || 1, maxRatio);
    view.width = Math.max(1, Math.round(container.clientWidth * ratio));
    view.height = Math.max(1, Math.round(container.clientHeight * ratio));
    const aspect = view.width / view.height;
    const changed = Math.abs(aspect - camera.aspect) > 1e-3;
    camera.aspect = aspect;
    camera.updateProjectionMatrix();
    // The fit depends on the aspect: refit a model the user has not turned yet.
    if (changed && bounds && !touched) fit();
    stage.request(view);
  };
  const observer = new ResizeObserver(resize);
  observer.observe(container);
  resize();
  const stopKeys = keyboardOrbit(canvas, camera, controls, () => bounds && frame(camera, controls, bounds, points));

  function clear(): void {
    if (!model) return;
    root.remove(model);
    disposeTree(model);
    model = undefined;
    mixer?.stopAllAction();
    mixer = undefined;
  }

  async function parse(bytes: Uint8Array) {
    const { json } = splitGlb(bytes);
    const used = new Set(json.extensionsUsed ?? []);
    const loader = new GLTFLoader();
    if (used.has('EXT_meshopt_compression')) {
      const { MeshoptDecoder } = await import('three/examples/jsm/libs/meshopt_decoder.module.js');
      loader.setMeshoptDecoder(MeshoptDecoder);
    }
    // Draco and KTX2: three's own decoders, which the site's bundler copies beside its chunks
    // (new URL(…, import.meta.url) in three's loaders) and the browser fetches only here, when a
    // file uses the extension; draco-path / ktx2-path point at another folder.
    const workers: { dispose(): unknown }[] = [];
    if (used.has('KHR_draco_mesh_compression')) {
      const { DRACOLoader } = await import('three/examples/jsm/loaders/DRACOLoader.js');
      const draco = new DRACOLoader();
      if (options.dracoPath) draco.setDecoderPath(options.dracoPath);
      loader.setDRACOLoader(draco);
      workers.push(draco);
    }
    if (used.has('KHR_texture_basisu')) {
      const { KTX2Loader } = await import('three/examples/jsm/loaders/KTX2Loader.js');
      const ktx2 = new KTX2Loader().detectSupport(stage.renderer);
      if (options.ktx2Path) ktx2.setTranscoderPath(options.ktx2Path);
      loader.setKTX2Loader(ktx2);
      workers.push(ktx2);
    }
    try {
      const buffer = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
      return await loader.parseAsync(buffer, '');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // A decoder that could not be fetched or started is not a broken file.
      if (workers.length && /decoder|transcoder|fetch|wasm|worker/i.test(message)) throw new ViewerError('unsupported_format', strings.decoderMissing(message));
      throw new ViewerError('corrupt_file', strings.modelUnreadable(message));
    } finally {
      // The decoders' workers end with the parse (each file starts its own).
      for (const w of workers) w.dispose();
    }
  }

  return {
    async load(bytes, signal, onProgress) {
      const stats = readGlbStats(bytes);
      onProgress({ phase: 'parse', loaded: bytes.byteLength, total: bytes.byteLength });
      const gltf = await parse(bytes);
      signal.throwIfAborted();
      clear();
      model = gltf.scene;
      root.add(model);
      touched = false;
      fit();
      if (bounds!.isEmpty()) throw new ViewerError('corrupt_file', strings.modelEmpty);
      if (gltf.animations.length) {
        mixer = new AnimationMixer(model);
        for (const clip of gltf.animations) mixer.clipAction(clip).play();
      }
      // Shaders compile off the main thread where the browser can (KHR_parallel_shader_compile).
      await stage.renderer.compileAsync(scene, camera).catch(() => undefined);
      signal.throwIfAborted();
      view.last = performance.now();
      stage.draw(view);
      stage.upgradeLighting();
      return { stats };
    },
    setUp(next) {
      if (next === up) return;
      up = next;
      fit();
      stage.request(view);
    },
    setMaxPixelRatio(ratio) {
      if (ratio === maxRatio) return;
      maxRatio = ratio;
      resize();
    },
    setAutoRotate(on) {
      controls.autoRotate = on;
      stage.request(view);
    },
    screenshot() {
      stage.draw(view);
      return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error(strings.canvasEncode))), 'image/png'));
    },
    dispose() {
      observer.disconnect();
      stopKeys();
      controls.dispose();
      clear();
      stage.remove(view);
      context.clearRect(0, 0, canvas.width, canvas.height);
    },
  };
}

function disposeTree(root: Object3D): void {
  root.traverse((o) => {
    const mesh = o as Mesh;
    mesh.geometry?.dispose();
    const materials = Array.isArray(mesh.material) ? mesh.material : mesh.material ? [mesh.material] : [];
    for (const m of materials as Material[]) {
      for (const value of Object.values(m)) if ((value as Texture | null)?.isTexture) (value as Texture).dispose();
      m.dispose();
    }
  });
}
