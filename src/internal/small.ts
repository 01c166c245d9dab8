/** Small helpers the elements share (each was written twice before). */

/** Focuses the first element found for the first selector of a comma list that finds one (preference order, not document order). */
export function focusFirst(root: ParentNode, selectors: string): boolean {
  for (const sel of selectors.split(',')) {
    const el = root.querySelector<HTMLElement>(sel.trim());
    if (el) {
      el.focus();
      return true;
    }
  }
  return false;
}

/** True for the AbortError a cancelled fetch, upload or wait rejects with. */
export function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}

/** A lazily loaded module: the one load, shared; `loaded` once it is in (undefined before). */
export interface Loader<T> {
  (): Promise<T>;
  readonly loaded: T | undefined;
}

/** Loads with the first call and shares the load; a failed load (offline, a replaced chunk) is tried again on the next call. */
export function loadOnce<T>(load: () => Promise<T>): Loader<T> {
  let loading: Promise<T> | undefined;
  let loaded: T | undefined;
  const get = () =>
    (loading ??= load().then(
      (m) => (loaded = m),
      (err: unknown) => ((loading = undefined), Promise.reject(err)),
    ));
  return Object.defineProperty(get, 'loaded', { get: () => loaded }) as Loader<T>;
}
