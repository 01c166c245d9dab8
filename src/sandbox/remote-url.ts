/**
 * The platform-free half of fetching an image URL: the URL's own rules and the answers when it
 * cannot be fetched. Node's client (./remote-fetch.ts) adds DNS checks on every hop; the
 * browser's (./browser/platform.ts) is the browser's fetch.
 */
import { fail } from './http.js';

export interface ImageUrlFailures {
  unreachable: () => never;
  tooLarge: () => never;
}

/** The refusals naming `field`: an address that cannot be fetched, a file over the size cap. */
export function imageUrlFailures(field: string, maxBytes: number): ImageUrlFailures {
  return {
    unreachable: () =>
      fail(
        'invalid_request',
        `${field} could not be fetched as an image from a public address. Use a publicly reachable http(s) URL, or send the image bytes instead.`,
      ),
    tooLarge: () =>
      fail(
        'invalid_request',
        `${field} serves more than ${Math.round(maxBytes / 1024 / 1024)} MB; images may be at most 12 MB.`,
      ),
  };
}

/** `raw` as an http(s) URL without credentials, or a 400 naming `field`. */
export function parseImageUrl(raw: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail('invalid_request', `${field} is not a valid URL; send an absolute http(s) URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    fail('invalid_request', `${field} must be an http or https URL, not ${url.protocol.replace(':', '')}.`);
  if (url.username || url.password) fail('invalid_request', `${field} must not contain credentials.`);
  return url;
}
