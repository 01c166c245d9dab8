/**
 * The one check for every URL an element puts in `href`, `src`, `poster` or a download link.
 *
 * The URLs come from answers (job outputs, download tickets) and from attributes, and the endpoint
 * an element talks to is not always our proxy: an answer rewritten on the way could carry
 * `javascript:` or `data:text/html` links that run as the site when clicked. Only these pass:
 * - `http:` and `https:` URLs, absolute or relative (a relative one resolves against `base`,
 *   by default the page, so it stays on the page's origin);
 * - object URLs of this document (`isOwnObjectUrl`: ones the element or the in-page playground made);
 * - `data:` URLs of a raster image (`image/png`, `jpeg`, `webp`, `gif`, `avif`), for pictures the
 *   element decoded itself.
 * Anything else gives `undefined`, and the caller renders nothing in its place.
 */
import { isOwnObjectUrl } from '../api/object-url.js';

const DATA_IMAGE = /^data:image\/(?:png|jpeg|webp|gif|avif)[;,]/i;

export function safeUrl(
  url: string | null | undefined,
  base: string = globalThis.location?.href ?? 'http://localhost/',
): string | undefined {
  // Control characters inside a URL are stripped by the parser, which is how `java\tscript:`
  // slips past naive checks; a URL that needs them is not one we made.
  if (!url || /[\u0000-\u001f\u007f]/.test(url)) return undefined;
  try {
    const parsed = new URL(url, base);
    const { protocol } = parsed;
    const ok =
      protocol === 'http:' ||
      protocol === 'https:' ||
      isOwnObjectUrl(parsed) ||
      (protocol === 'data:' && DATA_IMAGE.test(url));
    return ok ? url : undefined;
  } catch {
    return undefined;
  }
}
