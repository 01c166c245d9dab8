/**
 * The GLB renderer: the only module of <glb-viewer> that the element loads (by a memoized dynamic
 * import, when there is something to show), and the view of one <glb-viewer>: its scene, camera,
 * orbit controls, lights until the studio lighting is ready, model and animations, drawn by the
 * page's one shared stage (glb-stage.ts) from files the loaders read (glb-loaders.ts), as
 * model-viewer splits its ModelScene, Renderer and CachingGLTFLoader. It and the two files it
 * imports are the only importers of three.js for <glb-viewer>.
 */
import {
  AnimationMixer,
  Box3,
  DirectionalLight,
  Group,
  HemisphereLight,
  PerspectiveCamera,
  Scene,
  type Material,
  type Mesh,
  type Object3D,
  type Texture,
} from 'three';
import type { ViewerRenderer, ViewerUp } from '../shared/viewer-renderer.js';
import { ViewerError } from '../shared/viewer-error.js';
import { viewerMessages } from '../shared/viewer-messages.js';
import { Orbit, frame, keyboardOrbit, samplePoints, uprightRotation } from '../shared/orbit.js';
import { readGlbStats } from './glb-stats.js';
import { parseGlb, type GlbLoaderOptions } from './glb-loaders.js';
import { Stage, type View } from './glb-stage.js';

/** Where <glb-viewer> finds three's decoders. */
export type GlbRendererOptions = GlbLoaderOptions;

/** The view of one <glb-viewer>, drawn by the page's shared renderer. */
export function createGlbRenderer(
  canvas: HTMLCanvasElement,
  container: HTMLElement,
  options: GlbRendererOptions = {},
): ViewerRenderer {
  const stage = Stage.acquire();
  const context = canvas.getContext('2d');
  if (!context) throw new ViewerError('webgl_unavailable', viewerMessages.webglModel('no 2D canvas'));
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

  return {
    async load(source, signal, onProgress) {
      // <glb-viewer> does not stream (its element's `streams` is false): it is handed the whole file.
      if (!(source instanceof Uint8Array)) throw new Error('<glb-viewer> reads whole files');
      const bytes = source;
      const stats = readGlbStats(bytes);
      onProgress({ phase: 'parse', loaded: bytes.byteLength, total: bytes.byteLength });
      const gltf = await parseGlb(bytes, stage.renderer, options);
      signal.throwIfAborted();
      clear();
      model = gltf.scene;
      root.add(model);
      touched = false;
      fit();
      if (bounds!.isEmpty()) throw new ViewerError('corrupt_file', viewerMessages.modelEmpty);
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
      return new Promise((resolve, reject) =>
        canvas.toBlob((b) => (b ? resolve(b) : reject(new Error(viewerMessages.canvasEncode))), 'image/png'),
      );
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
