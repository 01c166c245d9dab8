import { html, noChange, type TemplateResult } from 'lit';
import { Directive, directive, type ElementPart } from 'lit/directive.js';
import { LIMITS } from '../../api/index.js';
import type { Formatter } from '../../internal/format.js';

/** What the drop zones say of images, from the API's limits table (never typed into a dictionary). */
export interface ImageLimits {
  /** "JPG, PNG or WebP", in the page's language. */
  formats: string;
  bytes: number;
  minImages: number;
  maxImages: number;
}

/** What the uploader says of videos, from the API's limits table. */
export interface VideoLimits {
  /** "MP4 or MOV", in the page's language. */
  formats: string;
  seconds: number;
  /** The shorter side of the frame ("1080p"). */
  pixels: number;
  bytes: number;
}

const IMAGE_NAMES = { jpeg: 'JPG', png: 'PNG', webp: 'WebP' } as const;

/**
 * What the image elements take: the API's formats and HEIC, which the element converts on this
 * device before sending (src/client/fit-photo.ts), as it makes photos over 12 MB or over its pixel
 * limit smaller.
 */
export function imageLimits(f: Formatter): ImageLimits {
  const formats = f.list([...LIMITS.image.formats.map((x) => IMAGE_NAMES[x]), 'HEIC'], 'disjunction');
  return {
    formats,
    bytes: LIMITS.image.maxBytes,
    minImages: LIMITS.model.minImages,
    maxImages: LIMITS.model.maxImages,
  };
}

export function videoLimits(f: Formatter): VideoLimits {
  const v = LIMITS.video;
  const formats = f.list(
    v.containers.map((x) => x.toUpperCase()),
    'disjunction',
  );
  return { formats, seconds: v.maxDurationSeconds, pixels: v.maxShortSidePixels, bytes: v.maxBytes };
}

/** The separator drawn between items: hidden from assistive technology, and at the start of a line. */
const SEPARATOR = html`<span class="sep" aria-hidden="true">·\u00a0</span>`;

/**
 * Marks each item that starts a rendered line (`data-line-start`), whose separator the styles then
 * hide: no line of a wrapped limits line starts or ends with a lone "·". Run when the line is laid
 * out anew (its size or words change); hiding a separator can move a break, so it looks again, a
 * few times at most.
 */
function markLineStarts(p: Element): void {
  const items = [...p.querySelectorAll<HTMLElement>('.item')];
  for (let round = 0; round < 3; round++) {
    let changed = false;
    let bottom = -Infinity;
    for (const item of items) {
      const rects = item.getClientRects();
      const first = rects[0];
      if (!first) continue;
      const starts = first.top >= bottom - 1;
      if (starts !== item.hasAttribute('data-line-start')) {
        item.toggleAttribute('data-line-start', starts);
        changed = true;
      }
      bottom = rects[rects.length - 1]!.bottom;
    }
    if (!changed) return;
  }
}

const observer =
  typeof ResizeObserver === 'undefined'
    ? undefined
    : new ResizeObserver((entries) => {
        for (const e of entries)
          if (e.target.isConnected) markLineStarts(e.target);
          else observer?.unobserve(e.target);
      });

/**
 * A drop zone's limits (`#limits`, which the picker's input is described by): the line of items
 * ("MP4 or MOV · up to 3 minutes · up to 1080p · …"), then, after a line break in the term, a
 * sentence about them ("Longer or larger videos are made to fit on this device."). The line keeps
 * to one or two balanced lines: a short item never breaks inside ("up to / 1080p" on a phone), a
 * narrow card wraps between items, and the separator before an item that starts a line is hidden.
 */
export function limitsLine(text: string): TemplateResult {
  const [line = '', ...note] = text.split('\n');
  return html`<div id="limits" class="limits-wrap">
    ${itemsLine(line.split(' · '), 'muted limits')}
    ${note.length ? html`<p class="muted limits-note">${note.join(' ')}</p>` : ''}
  </div>`;
}

/**
 * Watches the line it is placed on (an element part): its line starts are marked whenever it is
 * rendered (new words, a language loaded: the observer sees no new size) and whenever its size
 * changes. A plain directive, not `ref()`: the first load carries no async-directive machinery.
 */
class WatchLines extends Directive {
  render(): typeof noChange {
    return noChange;
  }

  override update(part: ElementPart): typeof noChange {
    const el = part.element;
    if (observer) {
      observer.observe(el);
      requestAnimationFrame(() => markLineStarts(el));
    }
    return noChange;
  }
}
const watchLines = directive(WatchLines);

/**
 * A line of short items joined by "·" that wraps between items and never leaves a "·" at the
 * start or end of a line (the limits line, the converting figures). The `items-line` class
 * carries the wrapping rules; `className` adds the look.
 */
export function itemsLine(items: readonly string[], className = 'muted limits'): TemplateResult {
  return html`<p class="items-line ${className}" ${watchLines()}>${items
    .filter(Boolean)
    .map(
      (item, i) =>
        html`${i ? ' ' : ''}<span class="item ${item.length <= 24 ? 'keep' : ''}">${i ? SEPARATOR : ''}${item}</span>`,
    )}</p>`;
}
