/**
 * The English words of a photo made to fit (src/client/fit-photo.ts), for the three image
 * elements only: the other elements never load them. Other languages: src/translations/.
 */
import type { Formatter } from '../../internal/format.js';

export const photoFitStrings = {
  /**
   * The facts line of a photo made to fit before sending: `from` names a format the API does not
   * take ("HEIC", else empty), the megapixels and bytes before and after, `turned` 1 when an EXIF
   * orientation was drawn upright.
   */
  photoFitted: (
    p: { from: string; fromMp: number; toMp: number; fromBytes: number; toBytes: number; turned: number },
    f: Formatter,
  ) =>
    [
      p.from ? `Converted from ${p.from}` : 'Made to fit',
      ...(p.fromMp !== p.toMp ? [`${f.number(p.fromMp)}\u00a0MP to ${f.number(p.toMp)}\u00a0MP`] : []),
      `${f.bytes(p.fromBytes)} to ${f.bytes(p.toBytes)}`,
      ...(p.turned ? ['turned upright'] : []),
    ].join(', ') + '.',
};

export type PhotoFitStrings = typeof photoFitStrings;
