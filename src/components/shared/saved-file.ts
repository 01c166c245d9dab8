/**
 * A saved value's kept file, read again when the value is opened (README "Saving results"), by one
 * rule for every element:
 *
 * - A value is what its author wrote, and an editor opens it with the editor's cookies. So a kept
 *   file is read without cookies (`credentials: 'omit'`), except under the endpoint's own results
 *   path (`{endpoint}/results/…`, whose `owner` access reads them), and its bytes become the
 *   element's `file` (and a form's `<name>-file`) only when they are the image type the value
 *   declares, sniffed from the bytes. Anything else is shown by its URL (an `<img>`, whose bytes no
 *   script reads) and posted as no file.
 * - A kept file that answers 404 or 410 is gone (`SavedFileGone`): the error panel says "This saved
 *   result's file is no longer available" in every element, beside what the element can still
 *   show, with a way to start again. A viewer that loads a kept file reports the same
 *   (`watchSavedFile`, in saved-file-gone.ts with `SavedFileGone`: the part every element loads at once).
 */
import { sniffImage } from '../../api/sniff.js';
import { absolute, GONE, SavedFileGone } from './saved-file-gone.js';

const IMAGE_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

/**
 * Whether `url` is under `{endpoint}/results/`, as the browser resolves it (dot segments, also
 * `%2e`-encoded ones, are resolved first; an encoded slash or backslash is refused).
 */
export function isResultsUrl(url: string, endpoint: string): boolean {
  try {
    const target = absolute(url);
    const results = absolute(endpoint.replace(/\/?$/, '/results/'));
    return (
      target.origin === results.origin &&
      target.pathname.startsWith(results.pathname) &&
      !/%(2f|5c)/i.test(target.pathname)
    );
  } catch {
    return false;
  }
}

/**
 * The bytes of a kept image (`asset`) for the element's `file`: read with no cookies unless it is
 * under `endpoint`'s results path, and returned (typed as declared) only when they are the
 * declared image type. Undefined when they are not, or when they cannot be read (another status, a
 * refused cross-origin read, a network failure): the caller shows the picture by its URL and
 * posts no file. Throws `SavedFileGone` on 404 or 410, and the abort reason when `signal` aborts.
 */
export async function readSavedImage(
  asset: { url: string; type: string },
  endpoint: string,
  signal?: AbortSignal,
): Promise<Blob | undefined> {
  const own = isResultsUrl(asset.url, endpoint);
  let response: Response;
  try {
    const url = absolute(asset.url);
    const credentials = !own ? 'omit' : url.origin === location.origin ? 'same-origin' : 'include';
    response = await fetch(url.href, { credentials, signal: signal ?? null });
  } catch (err) {
    signal?.throwIfAborted();
    console.warn(`[mediakit] the saved file ${asset.url} could not be read; it is shown by its URL only`, err);
    return undefined;
  }
  if (GONE.includes(response.status)) throw new SavedFileGone(asset.url, response.status);
  // A results path that sent the reader elsewhere: what came back is not the kept file.
  if (!response.ok || (own && response.redirected && !isResultsUrl(response.url, endpoint))) return undefined;
  const bytes = await response.blob();
  signal?.throwIfAborted();
  const sniffed = sniffImage(new Uint8Array(await bytes.slice(0, 16).arrayBuffer()));
  if (!sniffed || IMAGE_TYPES[sniffed] !== asset.type) {
    console.warn(
      `[mediakit] the saved file ${asset.url} is not the ${asset.type} its value declares; it is shown by its URL and is no file`,
    );
    return undefined;
  }
  return new Blob([bytes], { type: asset.type });
}
