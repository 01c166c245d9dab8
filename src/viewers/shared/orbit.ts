/**
 * Camera handling both renderers share: framing a bounding sphere, keyboard orbit and zoom on the
 * canvas, render-on-demand scheduling. Imported only by renderer modules (it imports three).
 */
import { PerspectiveCamera, Spherical, Vector3, type Box3 } from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

/** Points the camera at the box's centre from a distance that fits the whole box in view. */
export function frame(camera: PerspectiveCamera, controls: OrbitControls, box: Box3): void {
  const center = box.getCenter(new Vector3());
  const radius = Math.max(box.getSize(new Vector3()).length() / 2, 1e-3);
  const fov = (camera.fov * Math.PI) / 180;
  const fitHeight = radius / Math.sin(fov / 2);
  const fitWidth = fitHeight / Math.max(camera.aspect, 1e-3);
  const distance = Math.max(fitHeight, camera.aspect < 1 ? fitWidth : 0) * 1.05;
  const direction = new Vector3(0.6, 0.35, 1).normalize();
  camera.position.copy(center).addScaledVector(direction, distance);
  camera.near = distance / 100;
  camera.far = distance * 100;
  camera.updateProjectionMatrix();
  controls.target.copy(center);
  controls.minDistance = radius * 0.2;
  controls.maxDistance = distance * 5;
  controls.update();
}

/** Arrow keys turn the camera, +/- zoom, Home resets: the canvas is usable without a pointer. */
export function keyboardOrbit(canvas: HTMLCanvasElement, camera: PerspectiveCamera, controls: OrbitControls, reset: () => void): () => void {
  const step = Math.PI / 18;
  const onKey = (e: KeyboardEvent) => {
    const offset = camera.position.clone().sub(controls.target);
    const s = new Spherical().setFromVector3(offset);
    switch (e.key) {
      case 'ArrowLeft': s.theta -= step; break;
      case 'ArrowRight': s.theta += step; break;
      case 'ArrowUp': s.phi = Math.max(0.05, s.phi - step); break;
      case 'ArrowDown': s.phi = Math.min(Math.PI - 0.05, s.phi + step); break;
      case '+': case '=': s.radius = Math.max(controls.minDistance, s.radius / 1.15); break;
      case '-': case '_': s.radius = Math.min(controls.maxDistance, s.radius * 1.15); break;
      case 'Home': reset(); e.preventDefault(); return;
      default: return;
    }
    e.preventDefault();
    camera.position.copy(controls.target).add(new Vector3().setFromSpherical(s));
    controls.update();
  };
  canvas.addEventListener('keydown', onKey);
  return () => canvas.removeEventListener('keydown', onKey);
}

/** Coalesces render requests into one per animation frame; `loop()` keeps drawing while it returns true. */
export class FrameScheduler {
  #pending = 0;
  #disposed = false;

  constructor(readonly draw: (time: number) => boolean) {}

  request(): void {
    if (this.#pending || this.#disposed) return;
    this.#pending = requestAnimationFrame((t) => {
      this.#pending = 0;
      if (this.draw(t)) this.request();
    });
  }

  dispose(): void {
    this.#disposed = true;
    cancelAnimationFrame(this.#pending);
  }
}
