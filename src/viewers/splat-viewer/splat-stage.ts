/**
 * The stage of one <splat-viewer>: its WebGLRenderer, three scene, camera and orbit controls,
 * drawn on demand (frame-pacing.ts) at a pixel ratio lowered while frames are slow, and the view
 * framed on the splats' robust bounds turned so that the file's up axis is +y. What it draws is
 * the library's viewer that splat-scene.ts puts into `root`. Imported only by splat-renderer.ts
 * (it imports three).
 */
import { Box3, Group, PerspectiveCamera, Scene, Vector3, WebGLRenderer } from 'three';
import type { DropInViewer } from '@mkkellogg/gaussian-splats-3d';
import type { ViewerUp } from '../shared/viewer-renderer.js';
import { reasonOf, viewerMessages } from '../shared/viewer-messages.js';
import { ViewerError } from '../shared/viewer-error.js';
import { Orbit, frame, keyboardOrbit, rotateBox, uprightRotation } from '../shared/orbit.js';
import { FrameScheduler, GpuPacer, RenderScale } from '../shared/frame-pacing.js';

/** The first frame fits all but the farthest 2 % of the splat centres (floaters) into the view. */
const FIT_QUANTILE = 0.98;
/** Frames keep coming this long after a change, while the sort worker catches up. */
const SETTLE_MS = 600;
/** A frame slower than this lowers the resolution (a view turned by hand then answers at about 10 frames a second). */
const FRAME_TARGET_MS = 100;

export class SplatStage {
  readonly renderer: WebGLRenderer;
  readonly scene = new Scene();
  /**
   * The splats sit in a group turned so that the file's up axis is +y (the library sorts by the
   * splat mesh's world matrix, so a turned parent is sorted correctly).
   */
  readonly root = new Group();
  readonly camera = new PerspectiveCamera(50, 1, 0.01, 1000);
  readonly controls: Orbit;
  /**
   * Slow frames (software WebGL, a phone with a million splats) draw at fewer pixels, as measured.
   * A new scale is taken up by the next frame drawn (resizing the canvas clears it, so never
   * between frames); a higher one asks for that frame, a lower one waits for the next change.
   */
  readonly scale: RenderScale;
  readonly pacer: GpuPacer;
  readonly scheduler: FrameScheduler;
  /** Whether the user has turned or zoomed the view since the scene was framed. */
  touched = false;
  /** How long the last frame took, and of how many splats (what the whole scene's first frame is predicted from). */
  lastFrame: { ms: number; splats: number; scale: number } | undefined;
  /** Splats in the scene drawn, and whether the next frame uploads them (a new build). */
  sceneSplats = 0;
  freshTextures = false;
  /**
   * A scene being built while the canvas keeps showing the last frame drawn (the streamed
   * preview, disposed before the whole scene is built so the two never take memory at once):
   * frames only drive its library viewer (which sorts for the camera) and draw nothing.
   */
  holding: DropInViewer | undefined;

  readonly #canvas: HTMLCanvasElement;
  #maxRatio = 2;
  #up: ViewerUp = '-y';
  /** Robust bounds of the splat centres in the file's own axes, and the sampled centres. */
  #fileBounds: Box3 | undefined;
  #filePoints: Float32Array = new Float32Array(0);
  /** The same, turned upright. */
  #bounds: Box3 | undefined;
  #points: ArrayLike<number> | undefined;
  #busyUntil = 0;
  /** What the frame sent last drew (the pacer times one frame at a time). */
  readonly #sent = { splats: 0, scale: 1, uploads: false };
  readonly #observer: ResizeObserver;
  readonly #stopKeys: () => void;
  readonly #onLost = (e: Event) => e.preventDefault();

  /** `minRenderScale`: the least share of the pixel ratio drawn when frames are slow, read at each change. */
  constructor(canvas: HTMLCanvasElement, container: HTMLElement, minRenderScale: () => number) {
    this.#canvas = canvas;
    try {
      this.renderer = new WebGLRenderer({ canvas, antialias: false, alpha: true });
    } catch (err) {
      throw new ViewerError('webgl_unavailable', viewerMessages.webglScene(reasonOf(err)));
    }
    this.scale = new RenderScale(minRenderScale, FRAME_TARGET_MS, (_, up) => up && this.wake());
    this.renderer.setPixelRatio(this.fullRatio());
    this.scene.add(this.root);
    this.controls = new Orbit(this.camera, canvas);
    this.controls.autoRotateSpeed = 1;
    const gl = this.renderer.getContext();
    this.pacer = new GpuPacer(gl instanceof WebGL2RenderingContext ? gl : undefined, (ms) => {
      // A frame that uploaded a build's textures is not a drawing time to go by.
      if (this.#sent.uploads) return;
      this.lastFrame = { ms, splats: this.#sent.splats, scale: this.#sent.scale };
      this.scale.measured(ms);
    });
    this.scheduler = new FrameScheduler(() => {
      if (this.controls.autoRotate) this.controls.update(1 / 60);
      this.render();
      return this.controls.autoRotate || performance.now() < this.#busyUntil;
    }, this.pacer);
    this.controls.onStart = () => (this.touched = true);
    this.controls.onChange = () => this.wake();
    this.#observer = new ResizeObserver(() => {
      const w = Math.max(1, container.clientWidth);
      const h = Math.max(1, container.clientHeight);
      this.renderer.setSize(w, h, false);
      const changed = Math.abs(w / h - this.camera.aspect) > 1e-3;
      this.camera.aspect = w / h;
      this.camera.updateProjectionMatrix();
      if (changed && !this.touched) this.#fit();
      this.wake();
    });
    this.#observer.observe(container);
    this.#stopKeys = keyboardOrbit(
      canvas,
      this.camera,
      this.controls,
      () => this.#bounds && frame(this.camera, this.controls, this.#bounds, this.#points, FIT_QUANTILE),
    );
    canvas.addEventListener('webglcontextlost', this.#onLost);
  }

  fullRatio(): number {
    return Math.min(devicePixelRatio || 1, this.#maxRatio);
  }

  setMaxPixelRatio(ratio: number): void {
    if (ratio === this.#maxRatio) return;
    this.#maxRatio = ratio;
    this.wake();
  }

  setUp(next: ViewerUp): void {
    if (next === this.#up) return;
    this.#up = next;
    this.#fit();
    this.wake();
  }

  /** One frame: the scene drawn, or, while a new scene is held back, only its library viewer driven. */
  render(): void {
    this.pacer.measureNext = !this.holding;
    if (!this.holding) {
      this.scale.refresh(); // min-render-scale may have changed
      const ratio = this.fullRatio() * this.scale.scale;
      if (this.renderer.getPixelRatio() !== ratio) this.renderer.setPixelRatio(ratio);
      this.#sent.splats = this.sceneSplats;
      this.#sent.scale = this.scale.scale;
      this.#sent.uploads = this.freshTextures;
      this.freshTextures = false;
      return this.renderer.render(this.scene, this.camera);
    }
    this.camera.updateMatrixWorld();
    this.root.updateMatrixWorld(true);
    this.holding.viewer.update(this.renderer, this.camera);
  }

  /** Draws now unless the GPU is still on the last frame (then the scheduler's next frame will). */
  drawNow(): boolean {
    if (!this.pacer.ready()) return false;
    this.render();
    this.pacer.sent();
    return true;
  }

  /** Keeps frames coming for `ms` (the sort worker catching up after a change). */
  wake(ms = SETTLE_MS): void {
    this.#busyUntil = Math.max(this.#busyUntil, performance.now() + ms);
    this.scheduler.request();
  }

  /** Frames the view on these bounds and sampled centres (in the file's axes), unless the user has moved it. */
  frameOn(min: [number, number, number], max: [number, number, number], centres: Float32Array): void {
    this.#fileBounds = new Box3(new Vector3(...min), new Vector3(...max));
    this.#filePoints = centres;
    this.#fit();
  }

  #fit(): void {
    if (!this.#fileBounds) return;
    const q = uprightRotation(this.#up);
    this.root.quaternion.copy(q);
    this.root.updateMatrixWorld(true);
    this.#bounds = rotateBox(this.#fileBounds, q);
    const filePoints = this.#filePoints;
    const turned = new Float32Array(filePoints.length);
    const v = new Vector3();
    for (let i = 0; i < turned.length; i += 3) {
      v.set(filePoints[i]!, filePoints[i + 1]!, filePoints[i + 2]!).applyQuaternion(q);
      turned.set([v.x, v.y, v.z], i);
    }
    this.#points = turned as Float32Array;
    frame(this.camera, this.controls, this.#bounds, this.#points, FIT_QUANTILE);
  }

  screenshot(): Promise<Blob> {
    // At the full pixel ratio, whatever the frame times have lowered it to (the next frame
    // goes back to the lowered one).
    this.renderer.setPixelRatio(this.fullRatio());
    this.renderer.render(this.scene, this.camera);
    return new Promise((resolve, reject) =>
      this.#canvas.toBlob((b) => (b ? resolve(b) : reject(new Error(viewerMessages.canvasEncode))), 'image/png'),
    );
  }

  /** Stops the frames, the observers and the controls; the scene's own viewer is let go before the renderer. */
  stop(): void {
    this.scheduler.dispose();
    this.pacer.dispose();
    this.#observer.disconnect();
    this.#stopKeys();
    this.controls.dispose();
    this.#canvas.removeEventListener('webglcontextlost', this.#onLost);
  }

  dispose(): void {
    this.renderer.dispose();
    this.renderer.forceContextLoss();
  }
}
