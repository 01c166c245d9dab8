// Kept apart from ./stack.ts, which carries the proxy and the sandbox: ./index.ts needs only this.

/** Where a `fetch` or XHR call goes, resolved as the browser would; undefined for what is no URL (the browser then refuses it itself). */
export function targetOf(input: RequestInfo | URL): URL | undefined {
  try {
    return new URL(input instanceof Request ? input.url : String(input), document.baseURI);
  } catch {
    return undefined;
  }
}
