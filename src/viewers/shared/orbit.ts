/**
 * Camera handling both renderers share: our own orbit controls (drag to turn, wheel or pinch to
 * zoom; smaller than three's OrbitControls, which also pans and damps), framing the subject,
 * keyboard orbit and zoom on the canvas. Imported only by renderer modules (it imports three).
 */
import { Box3, PerspectiveCamera, Quaternion, Spherical, Vector3, type Mesh, type Object3D } from 'three';
import type { ViewerUp } from './viewer-renderer.js';

/** Share of the view's height (or width) that the subject's bounds fill on the first frame. */
const FILL = 0.9;
/** Where the camera looks from: a little to the right and above the front. */
const VIEW_DIRECTION = new Vector3(0.6, 0.35, 1).normalize();

/** The rotation that turns a file whose up axis is `up` so that its up is three's +y. */
export function uprightRotation(up: ViewerUp): Quaternion {
  const q = new Quaternion();
  const x = new Vector3(1, 0, 0);
  if (up === '-y') q.setFromAxisAngle(x, Math.PI);
  else if (up === '+z') q.setFromAxisAngle(x, -Math.PI / 2);
  else if (up === '-z') q.setFromAxisAngle(x, Math.PI / 2);
  return q;
}

/**
 * Turns the camera around `target` with a pointer (one finger or the primary button) and zooms
 * with the wheel or a pinch, within minDistance..maxDistance; `autoRotate` turns it slowly.
 * `onStart` fires when a person first moves the view, `onChange` after every move.
 */
export class Orbit {
  readonly target = new Vector3();
  minDistance = 0;
  maxDistance = Infinity;
  autoRotate = false;
  /** Turns per minute while auto-rotating. */
  autoRotateSpeed = 1;
  onChange: () => void = () => undefined;
  onStart: () => void = () => undefined;
  readonly #pointers = new Map<number, { x: number; y: number }>();
  readonly #spherical = new Spherical();
  readonly #offset = new Vector3();
  readonly #element: HTMLElement;
  readonly #camera: PerspectiveCamera;

  constructor(camera: PerspectiveCamera, element: HTMLElement) {
    this.#camera = camera;
    this.#element = element;
    element.addEventListener('pointerdown', this.#down);
    element.addEventListener('pointermove', this.#move);
    element.addEventListener('pointerup', this.#up);
    element.addEventListener('pointercancel', this.#up);
    element.addEventListener('wheel', this.#wheel, { passive: false });
  }

  /** Applies a turn (radians) and a zoom factor, plus auto-rotation for `dt` seconds. */
  update(dt = 0, dTheta = 0, dPhi = 0, zoom = 1): void {
    const s = this.#spherical.setFromVector3(this.#offset.copy(this.#camera.position).sub(this.target));
    s.theta += dTheta - (this.autoRotate ? ((2 * Math.PI) / 60) * this.autoRotateSpeed * dt : 0);
    s.phi = Math.min(Math.PI - 0.01, Math.max(0.01, s.phi + dPhi));
    s.radius = Math.min(this.maxDistance, Math.max(this.minDistance, s.radius * zoom));
    this.#camera.position.copy(this.target).add(this.#offset.setFromSpherical(s));
    this.#camera.lookAt(this.target);
  }

  dispose(): void {
    this.#element.removeEventListener('pointerdown', this.#down);
    this.#element.removeEventListener('pointermove', this.#move);
    this.#element.removeEventListener('pointerup', this.#up);
    this.#element.removeEventListener('pointercancel', this.#up);
    this.#element.removeEventListener('wheel', this.#wheel);
  }

  #moved(dTheta: number, dPhi: number, zoom: number): void {
    this.update(0, dTheta, dPhi, zoom);
    this.onChange();
  }

  #down = (e: PointerEvent) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    this.#element.setPointerCapture?.(e.pointerId);
    this.#pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    this.onStart();
  };

  #move = (e: PointerEvent) => {
    const last = this.#pointers.get(e.pointerId);
    if (!last) return;
    const [a, b] = [...this.#pointers.values()];
    const before = b ? Math.hypot(a!.x - b.x, a!.y - b.y) : 0;
    this.#pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (this.#pointers.size === 1) {
      const k = (2 * Math.PI) / Math.max(1, this.#element.clientHeight);
      this.#moved(-(e.clientX - last.x) * k, -(e.clientY - last.y) * k, 1);
    } else {
      const [c, d] = [...this.#pointers.values()];
      const after = Math.hypot(c!.x - d!.x, c!.y - d!.y);
      if (before > 0 && after > 0) this.#moved(0, 0, before / after);
    }
  };

  #up = (e: PointerEvent) => {
    this.#pointers.delete(e.pointerId);
  };

  #wheel = (e: WheelEvent) => {
    e.preventDefault();
    this.onStart();
    this.#moved(0, 0, Math.pow(0.95, -Math.sign(e.deltaY)));
  };
}

/** `box` turned by `q` (the axis-aligned box around the turned corners). */
export function rotateBox(box: Box3, q: Quaternion): Box3 {
  const out = new Box3();
  const p = new Vector3();
  for (let i = 0; i < 8; i++) {
    p.set(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z).applyQuaternion(
      q,
    );
    out.expandByPoint(p);
  }
  return out;
}

/**
 * Points the camera at the box's centre from the nearest distance at which the subject is inside
 * FILL of the view. With `points` (world positions, x y z after one another), the fit is to the
 * points themselves, leaving out the farthest `1 - quantile` of them (floaters); without, to the
 * box's corners. A fit of the bounding sphere, as before, left tall or flat subjects small.
 */
export function frame(
  camera: PerspectiveCamera,
  controls: Orbit,
  box: Box3,
  points?: ArrayLike<number>,
  quantile = 1,
): void {
  const radius = Math.max(box.getSize(new Vector3()).length() / 2, 1e-3);
  const toCamera = VIEW_DIRECTION;
  const right = new Vector3().crossVectors(camera.up, toCamera).normalize();
  const up = new Vector3().crossVectors(toCamera, right);
  const tanV = Math.tan((camera.fov * Math.PI) / 360) * FILL;
  const tanH = tanV * Math.max(camera.aspect, 1e-3);
  const corners: number[] = [];
  for (let i = 0; i < 8; i++)
    corners.push(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z);
  const cloud = points && points.length >= 3 ? points : corners;
  const n = Math.floor(cloud.length / 3);
  const p = new Vector3();
  const needs = new Float32Array(n);
  const at = (i: number, center: Vector3) => p.set(cloud[i * 3]!, cloud[i * 3 + 1]!, cloud[i * 3 + 2]!).sub(center);
  // The nearest distance that keeps all but the farthest (1 - quantile) of the points in view.
  const fit = (center: Vector3): number => {
    for (let i = 0; i < n; i++) {
      at(i, center);
      const depth = p.dot(toCamera); // towards the camera
      needs[i] = Math.max(depth + Math.abs(p.dot(right)) / tanH, depth + Math.abs(p.dot(up)) / tanV);
    }
    const sorted = needs.slice().sort();
    return Math.max(sorted[Math.min(n - 1, Math.floor(quantile * (n - 1)))]!, radius * 0.05);
  };
  // Perspective draws the near side larger, so the subject sits off-centre around the box's
  // centre: look at the middle of its projection instead, then fit again from there.
  const center = box.getCenter(new Vector3());
  let distance = fit(center);
  let x0 = Infinity,
    x1 = -Infinity,
    y0 = Infinity,
    y1 = -Infinity;
  for (let i = 0; i < n; i++) {
    if (needs[i]! > distance) continue; // a floater left out of view
    at(i, center);
    const ahead = distance - p.dot(toCamera);
    if (ahead <= 0) continue;
    const x = p.dot(right) / ahead;
    const y = p.dot(up) / ahead;
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  if (Number.isFinite(x0) && Number.isFinite(y0)) {
    center.addScaledVector(right, ((x0 + x1) / 2) * distance).addScaledVector(up, ((y0 + y1) / 2) * distance);
    distance = fit(center);
  }
  camera.position.copy(center).addScaledVector(toCamera, distance);
  camera.near = distance / 100;
  camera.far = (distance + radius) * 20;
  camera.updateProjectionMatrix();
  controls.target.copy(center);
  controls.minDistance = Math.min(radius * 0.2, distance * 0.5);
  controls.maxDistance = Math.max(distance, radius) * 5;
  controls.update();
  controls.onChange();
}

/** Up to `max` vertex positions of a loaded model, in world space, for frame(). */
export function samplePoints(root: Object3D, max = 20_000): Float32Array {
  const meshes: Mesh[] = [];
  let total = 0;
  root.traverse((o) => {
    const m = o as Mesh;
    if (m.isMesh && m.geometry?.attributes['position'] && m.visible) {
      meshes.push(m);
      total += m.geometry.attributes['position'].count;
    }
  });
  const step = Math.max(1, Math.ceil(total / max));
  const out: number[] = [];
  const v = new Vector3();
  for (const m of meshes) {
    const pos = m.geometry.attributes['position']!;
    for (let i = 0; i < pos.count; i += step) {
      v.fromBufferAttribute(pos, i).applyMatrix4(m.matrixWorld);
      out.push(v.x, v.y, v.z);
    }
  }
  return new Float32Array(out);
}

/** Arrow keys turn the camera, +/- zoom, Home resets: the canvas is usable without a pointer. */
export function keyboardOrbit(
  canvas: HTMLElement,
  camera: PerspectiveCamera,
  controls: Orbit,
  reset: () => void,
): () => void {
  const step = Math.PI / 18;
  const onKey = (e: KeyboardEvent) => {
    const offset = camera.position.clone().sub(controls.target);
    const s = new Spherical().setFromVector3(offset);
    switch (e.key) {
      case 'ArrowLeft':
        s.theta -= step;
        break;
      case 'ArrowRight':
        s.theta += step;
        break;
      case 'ArrowUp':
        s.phi = Math.max(0.05, s.phi - step);
        break;
      case 'ArrowDown':
        s.phi = Math.min(Math.PI - 0.05, s.phi + step);
        break;
      case '+':
      case '=':
        s.radius = Math.max(controls.minDistance, s.radius / 1.15);
        break;
      case '-':
      case '_':
        s.radius = Math.min(controls.maxDistance, s.radius * 1.15);
        break;
      case 'Home':
        reset();
        e.preventDefault();
        return;
      default:
        return;
    }
    e.preventDefault();
    camera.position.copy(controls.target).add(new Vector3().setFromSpherical(s));
    controls.update();
    controls.onChange();
  };
  canvas.addEventListener('keydown', onKey);
  return () => canvas.removeEventListener('keydown', onKey);
}
