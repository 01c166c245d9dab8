/**
 * The one check for every URL an element puts in `href`, `src`, `poster` or a download link.
 *
 * The URLs come from answers (job outputs, download tickets) and from attributes, and the endpoint
 * an element talks to is not always our proxy: an answer rewritten on the way could carry
 * `javascript:` or `data:text/html` links that run as the site when clicked. Only these pass:
 * - `http:` and `https:` URLs, absolute or relative (a relative one resolves against `base`,
 *   by default the page, so it stays on the page's origin);
 * - `blob:` URLs of this page's origin (object URLs the element made itself);
 * - `data:` URLs of a raster image (`image/png`, `jpeg`, `webp`, `gif`, `avif`), for pictures the
 *   element decoded itself.
 * Anything else gives `undefined`, and the caller renders nothing in its place.
 */
const DATA_IMAGE = /^data:image\/(?:png|jpeg|webp|gif|avif)[;,]/i;

export function safeUrl(url: string | null | undefined, base: string = globalThis.location?.href ?? 'http://localhost/'): string | undefined {
  if (typeof url !== 'string' || url === '') return undefined;
  // Control characters and spaces inside a URL are stripped by the parser, which is how
  // `java\tscript:` slips past naive checks; a URL that needs them is not one we made.
  if (/[\u0000-\u001f\u007f]/.test(url)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url, base);
  } catch {
    return undefined;
  }
  switch (parsed.protocol) {
    case 'http:':
    case 'https:':
      return url;
    case 'blob:':
      return parsed.origin === globalThis.location?.origin ? url : undefined;
    case 'data:':
      return DATA_IMAGE.test(url.trim()) ? url : undefined;
    default:
      return undefined;
  }
}
