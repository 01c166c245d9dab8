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
