/**
 * The GLB renderer: the only module of <glb-viewer> that imports three.js, loaded by a memoized
 * dynamic import when there is something to show. WebGLRenderer, GLTFLoader with the Meshopt
 * decoder (bundled: small, no worker), Draco and KTX2 only from a path the page configures (never
 * a third-party CDN), OrbitControls, RoomEnvironment lighting, and no render loop while idle.
 */
import {
  AnimationMixer,
  Box3,
  Group,
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
import { DRACOLoader } from 'three/examples/jsm/loaders/DRACOLoader.js';
import { KTX2Loader } from 'three/examples/jsm/loaders/KTX2Loader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';
import { strings, type ViewerRenderer, type ViewerUp } from '../shared/viewer-element.js';
import { fetchBytes } from '../shared/fetch-bytes.js';
import { ViewerError } from '../shared/viewer-error.js';
import { FrameScheduler, frame, keyboardOrbit, samplePoints, uprightRotation } from '../shared/orbit.js';
import { readGlbStats } from './glb-stats.js';

export interface GlbRendererOptions {
  /** Folder of the Draco decoder files (draco_decoder.js/.wasm); Draco files fail without it. */
  dracoPath?: string;
  /** Folder of the Basis transcoder (basis_transcoder.js/.wasm); KTX2 textures fail without it. */
  ktx2Path?: string;
}

export function createGlbRenderer(canvas: HTMLCanvasElement, container: HTMLElement, options: GlbRendererOptions = {}): ViewerRenderer {
  let renderer: WebGLRenderer;
  try {
    renderer = new WebGLRenderer({ canvas, antialias: true, alpha: true });
  } catch (err) {
    throw new ViewerError('webgl_unavailable', strings.webglModel(err instanceof Error ? err.message : String(err)));
  }
  renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
  renderer.toneMapping = NeutralToneMapping;
  const scene = new Scene();
  // The model sits in a group turned so that the file's up axis is +y.
  const root = new Group();
  scene.add(root);
  const camera = new PerspectiveCamera(40, 1, 0.01, 100);
  const controls = new OrbitControls(camera, canvas);
  controls.autoRotateSpeed = 1.5;
  const pmrem = new PMREMGenerator(renderer);
  const room = new RoomEnvironment();
  const environment = pmrem.fromScene(room, 0.04).texture;
  scene.environment = environment;
  room.dispose();

  let last = performance.now();
  const delta = () => {
    const now = performance.now();
    const dt = Math.min(0.1, (now - last) / 1000);
    last = now;
    return dt;
  };
  let mixer: AnimationMixer | undefined;
  let model: Object3D | undefined;
  let bounds: Box3 | undefined;
  let lastBytes: Uint8Array | undefined;
  let firstFrame: (() => void) | undefined;
  let up: ViewerUp = '+y';
  let points: Float32Array | undefined;

  function fit(): void {
    if (!model) return;
    root.quaternion.copy(uprightRotation(up));
    root.updateMatrixWorld(true);
    bounds = new Box3().setFromObject(root);
    points = samplePoints(root);
    frame(camera, controls, bounds, points);
  }

  const scheduler = new FrameScheduler(() => {
    const dt = delta();
    mixer?.update(dt);
    if (controls.autoRotate) controls.update(dt);
    renderer.render(scene, camera);
    firstFrame?.();
    firstFrame = undefined;
    return Boolean(mixer) || controls.autoRotate;
  });
  let touched = false;
  controls.addEventListener('start', () => (touched = true));
  controls.addEventListener('change', () => scheduler.request());

  const resize = () => {
    const w = Math.max(1, container.clientWidth);
    const h = Math.max(1, container.clientHeight);
    renderer.setSize(w, h, false);
    const aspect = w / h;
    const changed = Math.abs(aspect - camera.aspect) > 1e-3;
    camera.aspect = aspect;
    camera.updateProjectionMatrix();
    // The fit depends on the aspect: refit a model the user has not turned yet.
    if (changed && bounds && !touched) frame(camera, controls, bounds, points);
    scheduler.request();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(container);
  resize();
  const stopKeys = keyboardOrbit(canvas, camera, controls, () => bounds && frame(camera, controls, bounds, points));

  // A lost context (the GPU reset, or the browser reclaimed it) is rebuilt from the bytes in hand.
  const onLost = (e: Event) => e.preventDefault();
  const onRestored = () => {
    if (lastBytes) void show(lastBytes).catch(() => undefined);
  };
  canvas.addEventListener('webglcontextlost', onLost);
  canvas.addEventListener('webglcontextrestored', onRestored);

  const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
  if (options.dracoPath) loader.setDRACOLoader(new DRACOLoader().setDecoderPath(options.dracoPath));
  if (options.ktx2Path) loader.setKTX2Loader(new KTX2Loader().setTranscoderPath(options.ktx2Path).detectSupport(renderer));

  function clear(): void {
    if (!model) return;
    root.remove(model);
    disposeTree(model);
    model = undefined;
    mixer?.stopAllAction();
    mixer = undefined;
  }

  async function show(bytes: Uint8Array): Promise<void> {
    let gltf;
    try {
      const buffer = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
      gltf = await loader.parseAsync(buffer, '');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (/DRACO|KHR_draco/i.test(message)) throw new ViewerError('unsupported_format', strings.draco);
      if (/KTX2|basisu/i.test(message)) throw new ViewerError('unsupported_format', strings.ktx2);
      throw new ViewerError('corrupt_file', strings.modelUnreadable(message));
    }
    clear();
    model = gltf.scene;
    root.add(model);
    fit();
    if (bounds!.isEmpty()) throw new ViewerError('corrupt_file', strings.modelEmpty);
    if (gltf.animations.length) {
      mixer = new AnimationMixer(model);
      for (const clip of gltf.animations) mixer.clipAction(clip).play();
    }
    await new Promise<void>((resolve) => {
      firstFrame = resolve;
      delta();
      scheduler.request();
    });
  }

  return {
    async load(src, signal, onProgress) {
      const bytes = await fetchBytes(src, signal, (loaded, total) => onProgress({ phase: 'download', loaded, total }));
      signal.throwIfAborted();
      const stats = readGlbStats(bytes);
      onProgress({ phase: 'parse', loaded: bytes.byteLength, total: bytes.byteLength });
      lastBytes = bytes;
      await show(bytes);
      return { stats };
    },
    setUp(next) {
      if (next === up) return;
      up = next;
      fit();
      scheduler.request();
    },
    setAutoRotate(on) {
      controls.autoRotate = on;
      scheduler.request();
    },
    screenshot() {
      renderer.render(scene, camera); // the drawing buffer is only valid in the task that drew it
      return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error(strings.canvasEncode))), 'image/png'));
    },
    dispose() {
      scheduler.dispose();
      observer.disconnect();
      stopKeys();
      canvas.removeEventListener('webglcontextlost', onLost);
      canvas.removeEventListener('webglcontextrestored', onRestored);
      controls.dispose();
      clear();
      environment.dispose();
      pmrem.dispose();
      renderer.dispose();
      // Give the context back now rather than when garbage is collected: pages that add and remove
      // viewers would otherwise hit the browser's cap on live WebGL contexts.
      renderer.forceContextLoss();
      lastBytes = undefined;
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
