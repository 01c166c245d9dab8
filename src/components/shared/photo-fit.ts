/**
 * A chosen photo made to fit, for the three image elements (<headshot-studio>, <bg-tool>,
 * <model-generator>): `fitChosenPhoto` loads the converter (src/client/fit-photo.ts, with the HEIC
 * decoder behind it) only when a photo is chosen, and `renderPhotoFit` is the facts line that says
 * what was done ("Converted from HEIC, 48 MP to 12 MP, 1.2 MB to 2.9 MB.").
 */
import { html, nothing } from 'lit';
import type { FittedPhoto, PhotoFit, PhotoLimits } from '../../client/fit-photo.js';
import type { CheckedImage } from '../../client/validate-input.js';
import type { LocalizeController } from './localize.js';
import type { PhotoFitStrings } from './photo-fit-strings.js';

export type { FittedPhoto, PhotoFit, PhotoLimits };

/** The picker's `accept`: what the API takes, and what is converted to it (HEIC/HEIF, AVIF). */
export const PHOTO_ACCEPT = 'image/jpeg,image/png,image/webp,image/heic,image/heif,image/avif,.heic,.heif';

/** Reads, checks and where needed converts a chosen photo (a ValidationError when it cannot be used). */
export async function fitChosenPhoto(file: File, field: string, limits?: PhotoLimits): Promise<FittedPhoto> {
  const { fitPhoto } = await import('../../client/fit-photo.js');
  return fitPhoto(file, field, limits);
}

const NAMES: Record<PhotoFit['from'], string> = { heic: 'HEIC', avif: 'AVIF', jpeg: '', png: '', webp: '' };
const mp = (width: number, height: number) => Math.round((width * height) / 100_000) / 10;

/** The facts line of a converted photo (`part="photo-fit"`), nothing for a photo sent as chosen. */
export function renderPhotoFit(
  t: LocalizeController<PhotoFitStrings>,
  fit: PhotoFit | undefined,
  out: CheckedImage | undefined,
) {
  if (!fit || !out) return nothing;
  const text = t.term('photoFitted', {
    from: NAMES[fit.from],
    fromMp: mp(fit.fromWidth, fit.fromHeight),
    toMp: mp(out.width, out.height),
    fromBytes: fit.fromBytes,
    toBytes: out.bytes,
    turned: fit.turned ? 1 : 0,
  });
  return html`<p part="photo-fit" class="muted photo-fit">${text}</p>`;
}
