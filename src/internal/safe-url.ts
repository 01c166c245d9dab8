/**
 * The one check for every URL an element puts in `href`, `src`, `poster` or a download link.
 *
 * The URLs come from answers (job outputs, download tickets) and from attributes, and the endpoint
 * an element talks to is not always our proxy: an answer rewritten on the way could carry
 * `javascript:` or `data:text/html` links that run as the site when clicked. Only these pass:
 * - `http:` and `https:` URLs, absolute or relative (a relative one resolves against `base`,
 *   by default the page, so it stays on the page's origin);
 * - `blob:` URLs of this document's origin (object URLs the element made itself; in an opaque-origin
 *   iframe that origin is `null`, which `self.origin` says and `location.origin` does not);
 * - `data:` URLs of a raster image (`image/png`, `jpeg`, `webp`, `gif`, `avif`), for pictures the
 *   element decoded itself.
 * Anything else gives `undefined`, and the caller renders nothing in its place.
 */
const DATA_IMAGE = /^data:image\/(?:png|jpeg|webp|gif|avif)[;,]/i;

export function safeUrl(
  url: string | null | undefined,
  base: string = globalThis.location?.href ?? 'http://localhost/',
): string | undefined {
  // Control characters inside a URL are stripped by the parser, which is how `java\tscript:`
  // slips past naive checks; a URL that needs them is not one we made.
  if (!url || /[\u0000-\u001f\u007f]/.test(url)) return undefined;
  try {
    const { protocol, origin } = new URL(url, base);
    const ok =
      protocol === 'http:' ||
      protocol === 'https:' ||
      (protocol === 'blob:' && origin === (globalThis.origin ?? globalThis.location?.origin)) ||
      (protocol === 'data:' && DATA_IMAGE.test(url));
    return ok ? url : undefined;
  } catch {
    return undefined;
  }
}
