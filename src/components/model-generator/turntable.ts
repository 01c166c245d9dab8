/**
 * The turntable video plays only while it is on screen and the visitor has not asked for reduced
 * motion (then it waits, with its controls, for a click). A reactive controller, so the observer
 * follows the element's lifecycle; `ref` hands it the <video> each render.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class TurntableController implements ReactiveController {
  readonly host: ReactiveControllerHost & HTMLElement;
  #video: HTMLVideoElement | undefined;
  #observer: IntersectionObserver | undefined;
  #visible = false;
  #motion: MediaQueryList | undefined;

  constructor(host: ReactiveControllerHost & HTMLElement) {
    this.host = host;
    host.addController(this);
  }

  /** Whether the visitor asked for reduced motion (then nothing starts by itself). */
  get reducedMotion(): boolean {
    return this.#motion?.matches ?? false;
  }

  hostConnected(): void {
    this.#motion = matchMedia('(prefers-reduced-motion: reduce)');
    this.#motion.addEventListener('change', this.#sync);
    if (this.#video) this.#observe(this.#video);
  }

  hostDisconnected(): void {
    this.#motion?.removeEventListener('change', this.#sync);
    this.#observer?.disconnect();
    this.#observer = undefined;
    this.#video?.pause();
  }

  /** For `ref()`: the current <video>, or undefined when it left the template. */
  readonly ref = (el: Element | undefined): void => {
    const video = el as HTMLVideoElement | undefined;
    if (video === this.#video) return;
    this.#observer?.disconnect();
    this.#video = video;
    this.#visible = false;
    if (video) this.#observe(video);
  };

  #observe(video: HTMLVideoElement): void {
    this.#observer?.disconnect();
    this.#observer = new IntersectionObserver(
      (entries) => {
        this.#visible = entries.some((e) => e.isIntersecting);
        this.#sync();
      },
      { threshold: 0.25 },
    );
    this.#observer.observe(video);
  }

  #sync = (): void => {
    const video = this.#video;
    if (!video) return;
    if (this.#visible && !this.reducedMotion) void video.play().catch(() => undefined);
    else if (!video.paused) video.pause();
  };
}
