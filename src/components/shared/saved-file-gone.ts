/**
 * A saved value's kept file that is gone (404 or 410), by one rule for every element (saved-file.ts
 * has the whole rule): the error the panel names, and a viewer's report of it. Small and first-load;
 * reading a kept image (saved-file.ts) loads with the first value that names one.
 */
import type { ViewerFailedEvent } from '../../events/viewer-failed.js';

export const GONE = [404, 410];

/** A saved value's kept file answered 404 or 410: it is no longer available. */
export class SavedFileGone extends Error {
  override readonly name = 'SavedFileGone';
  /** The reason the error panel gives it (`data-reason`). */
  readonly code = 'not_found';
  readonly url: string;
  readonly status: number;

  constructor(url: string, status: number) {
    super(`The saved result's file ${url} answered HTTP ${status}: it is no longer available.`);
    this.url = url;
    this.status = status;
  }
}

export const isSavedFileGone = (error: unknown): error is SavedFileGone => error instanceof SavedFileGone;

export const absolute = (url: string) => new URL(url, document.baseURI);

/**
 * Calls `gone` when a viewer inside `host` reports that a kept file it loads (one of `urls()`)
 * answered 404 or 410.
 */
export function watchSavedFile(
  host: EventTarget,
  urls: () => readonly (string | undefined)[],
  gone: (error: SavedFileGone) => void,
): void {
  host.addEventListener('mk-viewer-failed', (e) => {
    const { code, src } = (e as ViewerFailedEvent).detail;
    const status = Number(/^http_(\d+)$/.exec(code)?.[1]);
    if (!GONE.includes(status) || !src) return;
    const href = absolute(src).href;
    if (urls().some((u) => u && absolute(u).href === href)) gone(new SavedFileGone(src, status));
  });
}
