/**
 * `PhotoListController`: the photos of <model-generator>'s photo mode, their checks, order (the
 * move buttons, or dragging a thumbnail with a mouse, pen or finger), view labels, removal and
 * what was done to make each fit, their intake (picker, drop, paste, camera: the shared FileIntakeController) and their part
 * of the template. The host hears about every change (its Idempotency-Key belongs to one input)
 * and about refusals (its error panel).
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { LIMITS } from '../../api/index.js';
import { ValidationError } from '../../client/validate.js';
import type { AnnouncerController } from '../shared/announcer.js';
import { FileIntakeController } from '../shared/file-intake.js';
import type { LocalizeController } from '../shared/localize.js';
import type { SharedStrings } from '../shared/strings.js';
import { imageLimits, limitsLine } from '../shared/limits.js';
import { PHOTO_ACCEPT, renderPhotoFit } from '../shared/photo-fit.js';
import type { PhotoFitStrings } from '../shared/photo-fit-strings.js';
import { checkPhoto, move, newPhoto, VIEW_LABELS, VIEWS, type Photo, type View } from './photos.js';
import type { ModelGeneratorStrings } from './strings.js';

const { maxImages } = LIMITS.model;

export interface PhotoListOptions {
  t: LocalizeController<ModelGeneratorStrings & SharedStrings & PhotoFitStrings>;
  announce: AnnouncerController;
  /** The photos changed (added, checked, moved, labelled, removed). */
  onChange(): void;
  /** A refusal to show (too many photos, not an image, one that cannot be made to fit); undefined clears it. */
  onError(error: unknown): void;
  /** Whether photos may be added now (picker, drop, paste). */
  enabled(): boolean;
  /** Take pasted photos anywhere on the page (`paste-global`). */
  pageWide(): boolean;
  /** The element's `capture`: the picker, and the camera button, open that camera. */
  capture?(): string | undefined;
}

/** A thumbnail being dragged: where it was, where it would land, and how far the pointer went. */
interface Drag {
  key: string;
  from: number;
  to: number;
  pointerId: number;
  startY: number;
  moved: boolean;
}

export class PhotoListController implements ReactiveController {
  readonly host: ReactiveControllerHost & HTMLElement;
  /** The picker, drop and paste that add photos. */
  readonly intake: FileIntakeController;
  #photos: Photo[] = [];
  #drag: Drag | undefined;
  readonly #o: PhotoListOptions;

  constructor(host: ReactiveControllerHost & HTMLElement, options: PhotoListOptions) {
    this.host = host;
    this.#o = options;
    host.addController(this);
    const { enabled, pageWide } = options;
    this.intake = new FileIntakeController(host, {
      accept: PHOTO_ACCEPT,
      multiple: true,
      onFiles: (files) => this.add(files),
      enabled,
      pageWide,
      capture: () => options.capture?.(),
      camera: 'environment',
    });
  }

  get photos(): readonly Photo[] {
    return this.#photos;
  }

  /** 1-6 photos, every one checked and within the limits. */
  get ready(): boolean {
    return this.#photos.length >= 1 && this.#photos.length <= maxImages && this.#photos.every((p) => p.state === 'ok');
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.#endDrag();
  }

  /** Adds photos (all or none: more than six in all is refused) and checks each. */
  add(files: (File | string)[], announce = true): void {
    this.#o.onError(undefined);
    const total = this.#photos.length + files.length;
    if (total > maxImages) {
      this.#o.onError(
        new ValidationError(
          'invalid_request',
          'images',
          `Image mode takes 1 to ${maxImages} photos; ${total} were given.`,
          'image_count',
          { count: total, min: 1, max: maxImages },
        ),
      );
      return;
    }
    const added = files.map(newPhoto);
    this.#set([...this.#photos, ...added]);
    for (const photo of added) {
      void checkPhoto(photo).then(
        (checked) => this.#replace(photo.key, checked),
        (err: unknown) => {
          this.#revoke(photo);
          this.#set(this.#photos.filter((p) => p.key !== photo.key));
          this.#o.onError(err);
        },
      );
    }
    if (announce && added.length)
      this.#o.announce.say(this.#o.t.term('mgPhotosLabel', { count: this.#photos.length, max: maxImages }));
  }

  clear(): void {
    for (const p of this.#photos) this.#revoke(p);
    this.#set([]);
  }

  /** 'checking' while a photo is still being checked and made to fit, else undefined. */
  blocker(): 'checking' | undefined {
    return this.#photos.some((x) => x.state !== 'ok') ? 'checking' : undefined;
  }

  #set(photos: Photo[]): void {
    this.#photos = photos;
    this.#o.onChange();
    this.host.requestUpdate();
  }

  #replace(key: string, photo: Photo): void {
    this.#set(this.#photos.map((p) => (p.key === key ? photo : p)));
  }

  #revoke(photo: Photo): void {
    if (typeof photo.source !== 'string' && photo.thumb) URL.revokeObjectURL(photo.thumb);
  }

  #move(index: number, to: number): void {
    if (to < 0 || to >= this.#photos.length || to === index) return;
    const key = this.#photos[index]!.key;
    this.#set(move(this.#photos, index, to));
    this.#o.announce.say(this.#o.t.term('mgMoved', { n: index + 1, to: to + 1 }));
    // Focus stays on the photo that moved: the button in the direction it went, or the other one at either end.
    const earlier = to < index;
    void this.host.updateComplete.then(() => {
      const item = this.host.shadowRoot?.querySelector(`[data-key="${key}"]`);
      const same = item?.querySelector<HTMLButtonElement>(earlier ? '[part~="move-earlier"]' : '[part~="move-later"]');
      (same && !same.disabled
        ? same
        : item?.querySelector<HTMLButtonElement>(earlier ? '[part~="move-later"]' : '[part~="move-earlier"]')
      )?.focus();
    });
  }

  // Dragging: pointer events on the thumbnail (mouse, pen and touch alike; the thumbnail has
  // touch-action: none so a finger drags instead of scrolling). HTML5 drag and drop would reach
  // the element's file drop zone and does not fire for touch in most browsers.

  #onPointerDown = (e: PointerEvent) => {
    const thumb = (e.target as Element).closest?.('.photo-thumb');
    const item = thumb?.closest<HTMLElement>('[part~="photo"]');
    if (!thumb || !item || !e.isPrimary || e.button !== 0 || this.#drag) return;
    const from = this.#photos.findIndex((p) => p.key === item.dataset['key']);
    if (from < 0 || this.#photos.length < 2) return;
    e.preventDefault(); // no text selection, no native image drag
    try {
      thumb.setPointerCapture(e.pointerId);
    } catch {
      // A pointer the browser does not know (a synthetic event): its events reach the thumbnail anyway.
    }
    this.#drag = { key: item.dataset['key']!, from, to: from, pointerId: e.pointerId, startY: e.clientY, moved: false };
    this.host.ownerDocument.addEventListener('keydown', this.#onKey);
  };

  #onPointerMove = (e: PointerEvent) => {
    const d = this.#drag;
    if (!d || e.pointerId !== d.pointerId) return;
    if (!d.moved && Math.abs(e.clientY - d.startY) < 4) return;
    const list = e.currentTarget as HTMLElement;
    const items = [...list.querySelectorAll<HTMLElement>(':scope > [part~="photo"]')];
    // The photo lands after every other photo whose middle the pointer has passed.
    const to = items.filter(
      (el, i) => i !== d.from && e.clientY > el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2,
    ).length;
    if (to !== d.to || !d.moved) this.host.requestUpdate();
    d.moved = true;
    d.to = to;
  };

  #onPointerUp = (e: PointerEvent) => {
    const d = this.#drag;
    if (!d || e.pointerId !== d.pointerId) return;
    this.#endDrag();
    if (d.moved) this.#move(d.from, d.to);
  };

  #onPointerCancel = (e: PointerEvent) => {
    if (this.#drag && e.pointerId === this.#drag.pointerId) this.#endDrag();
  };

  #onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !this.#drag) return;
    e.preventDefault();
    this.#endDrag();
  };

  #endDrag(): void {
    if (!this.#drag) return;
    this.#drag = undefined;
    this.host.ownerDocument.removeEventListener('keydown', this.#onKey);
    this.host.requestUpdate();
  }

  #remove(index: number): void {
    const photo = this.#photos[index]!;
    this.#revoke(photo);
    this.#set(this.#photos.filter((_, i) => i !== index));
    this.#o.announce.say(this.#o.t.term('mgRemoved', { name: photo.name }));
    void this.host.updateComplete.then(() => {
      const root = this.host.shadowRoot;
      const buttons = root?.querySelectorAll<HTMLButtonElement>('[part~="remove-photo"]') ?? [];
      (
        buttons[Math.min(index, buttons.length - 1)] ??
        root?.querySelector<HTMLButtonElement>('[part~="choose-button"]')
      )?.focus();
    });
  }

  /** The drop zone with the picker (and, on touch devices, the camera button); none once six photos are in. */
  renderIntake() {
    const { t } = this.#o;
    const intake = this.intake;
    const full = this.#photos.length >= maxImages;
    const touch = typeof matchMedia !== 'undefined' && matchMedia('(pointer: coarse)').matches;
    return html`<div part="drop-zone" class="drop ${intake.dragging ? 'dragging' : ''}">
      <svg viewBox="0 0 24 24" aria-hidden="true"><path fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round" d="M4 7.5A1.5 1.5 0 0 1 5.5 6h2l1.5-2h6l1.5 2h2A1.5 1.5 0 0 1 20 7.5v10a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 4 17.5z M12 16.5a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7z"/></svg>
      <div class="row">
        ${full ? nothing : intake.render(t.term('mgChoosePhotos'), { describedBy: 'limits', primary: this.#photos.length === 0 })}
        ${touch && !full ? intake.renderCamera(t.term('mgCamera')) : nothing}
      </div>
      <p class="muted">${intake.dragging ? t.term('dropActive') : t.term('mgDropHere')}</p>
      ${limitsLine(t.term('mgPhotoLimits', imageLimits(t.f)))}
    </div>`;
  }

  /** The list (`part="photos"`), or nothing when empty; `disabled` turns every control in it off. */
  render(disabled = false) {
    if (!this.#photos.length) return nothing;
    const label = this.#o.t.term('mgPhotosLabel', { count: this.#photos.length, max: maxImages });
    return html`<ol part="photos" class="photos ${this.#drag?.moved ? 'sorting' : ''}" aria-label=${label}
      @pointerdown=${disabled ? nothing : this.#onPointerDown} @pointermove=${this.#onPointerMove} @pointerup=${this.#onPointerUp} @pointercancel=${this.#onPointerCancel} @lostpointercapture=${this.#onPointerCancel}>
      ${this.#photos.map((p, i) => this.#renderPhoto(p, i, disabled))}
    </ol>`;
  }

  #renderPhoto(p: Photo, i: number, disabled: boolean) {
    const t = this.#o.t;
    const n = i + 1;
    const small =
      p.state === 'ok' && p.width > 0 && Math.min(p.width, p.height) < LIMITS.model.recommendedMinImagePixels;
    const d = this.#drag?.moved ? this.#drag : undefined;
    // The drop line: before the photo the dragged one would land in front of, or after the one it would follow.
    const drop = d && d.to !== d.from && i === d.to ? (d.to < d.from ? 'drop-before' : 'drop-after') : '';
    return html`<li part="photo" class="photo ${d?.key === p.key ? 'dragged' : ''} ${drop}" data-key=${p.key} data-state=${p.state}>
      <img class="photo-thumb" src=${p.thumb || nothing} alt=${t.term('mgPhotoAlt', { n, name: p.name })} draggable="false" />
      <div class="photo-body">
        <span class="photo-name">${p.name}</span>
        ${
          p.state === 'checking'
            ? html`<span class="muted">${t.term('mgChecking')}</span>`
            : html`<span class="muted nums">${p.width ? `${t.f.dims(p.width, p.height)} · ${t.f.bytes(p.bytes)}` : ''}</span>
                ${renderPhotoFit(t, p.fit, p.format ? { format: p.format, width: p.width, height: p.height, bytes: p.bytes } : undefined)}
                ${small ? html`<span class="warn">${t.term('mgSmall', { width: p.width, height: p.height, px: LIMITS.model.recommendedMinImagePixels })}</span>` : nothing}`
        }
        <label class="view">${t.term('mgView')}
          <select part="view-select" ?disabled=${disabled} @change=${(e: Event) => this.#replace(p.key, { ...p, view: (e.target as HTMLSelectElement).value as View })}>
            ${VIEWS.map((v) => html`<option value=${v} ?selected=${p.view === v}>${t.term(VIEW_LABELS[v])}</option>`)}
          </select>
        </label>
      </div>
      <div class="photo-actions">
        <button type="button" part="move-earlier" class="secondary icon" aria-label=${t.term('mgMoveEarlier', { n })} ?disabled=${disabled || i === 0} @click=${() => this.#move(i, i - 1)}>↑</button>
        <button type="button" part="move-later" class="secondary icon" aria-label=${t.term('mgMoveLater', { n })} ?disabled=${disabled || i === this.#photos.length - 1} @click=${() => this.#move(i, i + 1)}>↓</button>
        <button type="button" part="remove-photo" class="secondary icon" aria-label=${t.term('mgRemove', { n })} ?disabled=${disabled} @click=${() => this.#remove(i)}>✕</button>
      </div>
    </li>`;
  }
}
