import { html, type TemplateResult } from 'lit';
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

export function imageLimits(f: Formatter): ImageLimits {
  const formats = f.list(
    LIMITS.image.formats.map((x) => IMAGE_NAMES[x]),
    'disjunction',
  );
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

/**
 * A drop zone's limits line ("MP4 or MOV · up to 3 minutes · up to 1080p · …"), described by the
 * input as `#limits`. A short item never breaks inside ("up to / 1080p" on a phone): a narrow card
 * wraps between items instead.
 */
export function limitsLine(text: string): TemplateResult {
  return html`<p class="muted limits" id="limits">${text.split(' · ').map((item, i) => html`${i ? ' · ' : ''}<span class=${item.length <= 24 ? 'keep' : ''}>${item}</span>`)}</p>`;
}
