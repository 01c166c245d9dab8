/**
 * Frame pacing for a renderer that draws on demand: at most one frame in the GPU's queue
 * (`GpuPacer`), the share of the pixel ratio drawn from measured frame times (`RenderScale`), and
 * render requests coalesced into one per animation frame (`FrameScheduler`). Needs no three.js.
 */

/**
 * Keeps at most one frame in the GPU's queue. A draw call only queues work: where a frame takes
 * longer than an animation frame (software WebGL, a phone with a million splats), drawing on every
 * animation frame piles up seconds of frames that all run before anything new shows, and takes the
 * processor from loading. A fence after each frame says when it is done.
 */
export class GpuPacer {
  #fence: WebGLSync | null = null;
  #sentAt = 0;
  #watching = 0;
  #measuring = false;
  #hidden = false;
  /** Whether the next frame sent is timed for `onFrame` (false: a frame that drew nothing). */
  measureNext = true;

  /**
   * `onFrame` hears how long each frame took the GPU, from its commands sent to its fence
   * signalled (watched on every animation frame, so to within one of them).
   */
  constructor(
    readonly gl: WebGL2RenderingContext | undefined,
    readonly onFrame?: (ms: number) => void,
  ) {}

  /** True when the GPU has finished the last frame sent (or none is out). */
  ready(): boolean {
    const gl = this.gl;
    if (!gl || !this.#fence) return true;
    // A lost context answers WAIT_FAILED: ready, so drawing goes on (three handles the loss).
    if (gl.clientWaitSync(this.#fence, 0, 0) === gl.TIMEOUT_EXPIRED) return false;
    gl.deleteSync(this.#fence);
    this.#fence = null;
    cancelAnimationFrame(this.#watching);
    this.#watching = 0;
    // A hidden page has no animation frames to watch by: its frame times say nothing.
    if (this.#measuring && !this.#hidden && !document.hidden) this.onFrame?.(performance.now() - this.#sentAt);
    return true;
  }

  /** A frame's commands were all issued. */
  sent(): void {
    const gl = this.gl;
    if (!gl || this.#fence) return;
    this.#fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    this.#sentAt = performance.now();
    this.#measuring = this.measureNext;
    this.#hidden = document.hidden;
    gl.flush();
    if (this.onFrame && this.#measuring) {
      const watch = () => (this.#watching = this.ready() ? 0 : requestAnimationFrame(watch));
      this.#watching = requestAnimationFrame(watch);
    }
  }

  dispose(): void {
    cancelAnimationFrame(this.#watching);
  }
}

/**
 * The share of the pixel ratio a viewer draws at, from measured frame times (as model-viewer's
 * render scale): a frame slower than `targetMs` lowers it, down to `min`, so the next frames cost
 * about the target if their cost were all pixels (a splat frame's is partly per splat, so it goes
 * on lowering to `min` where it must); frames well under the target raise it
 * again step by step, up to 1. `predict` sets it ahead of a frame whose cost is known in advance
 * (a whole scene after its previews: their frame time times the splats added).
 */
export class RenderScale {
  scale = 1;

  /** `min` is read at each change (the element's attribute may change meanwhile). */
  constructor(
    readonly min: () => number,
    readonly targetMs: number,
    readonly changed: (scale: number, up: boolean) => void,
  ) {}

  /** A frame at the current scale took `ms`. */
  measured(ms: number): void {
    if (ms < this.targetMs / 3 && this.scale < 1) this.#set(this.scale * 1.25);
    else this.predict(ms);
  }

  /** Takes up a new lower bound (the element's attribute changed). */
  refresh(): void {
    this.#set(this.scale);
  }

  /** The next frame would take `ms` at the current scale. */
  predict(ms: number): void {
    if (ms > this.targetMs * 1.5) this.#set(this.scale * Math.sqrt(this.targetMs / ms));
  }

  #set(next: number): void {
    const min = Math.min(1, Math.max(0.1, this.min() || 1));
    const clamped = Math.round(Math.min(1, Math.max(min, next)) * 100) / 100;
    if (clamped === this.scale) return;
    const up = clamped > this.scale;
    this.scale = clamped;
    this.changed(clamped, up);
  }
}

/**
 * Coalesces render requests into one per animation frame; `loop()` keeps drawing while it returns
 * true. With a `pacer`, a frame is drawn only once the GPU has finished the one before.
 */
export class FrameScheduler {
  #pending = 0;
  #disposed = false;

  constructor(
    readonly draw: (time: number) => boolean,
    readonly pacer?: GpuPacer,
  ) {}

  request(): void {
    if (this.#pending || this.#disposed) return;
    this.#pending = requestAnimationFrame((t) => {
      this.#pending = 0;
      if (this.pacer && !this.pacer.ready()) return this.request();
      const again = this.draw(t);
      this.pacer?.sent();
      if (again) this.request();
    });
  }

  dispose(): void {
    this.#disposed = true;
    cancelAnimationFrame(this.#pending);
  }
}
