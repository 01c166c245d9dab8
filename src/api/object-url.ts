/**
 * Whether `url` is an object URL of this document: one `URL.createObjectURL` made here (an element
 * for a picture it decoded, the in-page playground for a file it answered). Its origin is this
 * document's (`self.origin`, not `location.origin`: in an opaque-origin iframe the document's
 * origin is `null` while its location has a host). In such a frame every foreign blob URL has the
 * origin `null` too, so there only the exact form the browser gives (`blob:null/<uuid>`) passes:
 * `blob:javascript:…` and the like never do.
 */
const OPAQUE_OBJECT_URL = /^blob:null\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isOwnObjectUrl(url: URL): boolean {
  const here = globalThis.origin ?? globalThis.location?.origin;
  if (url.protocol !== 'blob:' || !here || url.origin !== here) return false;
  return here !== 'null' || OPAQUE_OBJECT_URL.test(url.href);
}
