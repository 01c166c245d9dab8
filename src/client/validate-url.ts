/**
 * The check of an image address the service fetches itself, apart from the other input checks
 * (validate-input.ts) so <bg-tool>'s address field loads only this on first load.
 */
import { refuse } from './validate.js';

/** An http(s) URL the service fetches itself. */
export function validateImageUrl(url: string, field = 'image_url'): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // handled below
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
    refuse('invalid_request', field, `${field} must be an http(s) URL the service can fetch.`);
  return url;
}
