/**
 * The stage: the page's one WebGLRenderer (one WebGL context) for every <glb-viewer>, as
 * model-viewer's Renderer is. Each view keeps its own scene, camera and a 2D canvas; the stage
 * draws a view into a corner of its own offscreen canvas and copies it into the view's canvas.
 * Only views that are in the viewport and have changed (or animate) are drawn, in one animation
 * frame for all. The studio lighting (a RoomEnvironment PMREM) is made once per page, after the
 * first frame (which is lit by two plain lights), in an idle period. Context loss is handled once,
 * for every view. The context is given back when the last view has been gone a moment.
 *
 * Lives from the first view on the page until a moment after the last. Imported only by
 * glb-renderer.ts (it imports three).
 */
import {
  NeutralToneMapping,
  PMREMGenerator,
  WebGLRenderer,
  type Group,
  type PerspectiveCamera,
  type Scene,
  type Texture,
} from 'three';
import { ViewerError } from '../shared/viewer-error.js';
import { reasonOf, viewerMessages } from '../shared/viewer-messages.js';

/** How long the shared context outlives the last viewer (a page swapping viewers keeps it). */
const RELEASE_MS = 1500;

/** What the stage draws for one <glb-viewer>: its scene and camera, into its own 2D canvas. */
export interface View {
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
export class Stage {
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
      throw new ViewerError('webgl_unavailable', viewerMessages.webglModel(reasonOf(err)));
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
    if (this.canvas.width < w || this.canvas.height < h)
      this.renderer.setSize(Math.max(w, this.canvas.width), Math.max(h, this.canvas.height), false);
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
