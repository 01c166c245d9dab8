// The playground's addresses, kept apart from ./stack.ts (which carries the proxy and the
// sandbox): ./index.ts needs only these before ./in-page.ts has loaded.

/** Where a `fetch` or XHR call goes, resolved as the browser would; undefined for what is no URL (the browser then refuses it itself). */
export function targetOf(input: RequestInfo | URL): URL | undefined {
  try {
    return new URL(input instanceof Request ? input.url : String(input), document.baseURI);
  } catch {
    return undefined;
  }
}

/** `url`'s path is `base` or below it. */
export const under = (url: URL, base: string) => url.pathname === base || url.pathname.startsWith(base + '/');

/** The playground's paths under `scope`: the proxy, the proxy with 5 credits a day, the sandbox's control plane. */
export function playgroundPaths(scope: URL) {
  return {
    endpoint: scope.pathname + 'mediakit',
    poorEndpoint: scope.pathname + 'mediakit-poor',
    sandboxPath: scope.pathname + 'sandbox',
  };
}

/** Whether `url` is one of the playground's paths under `scope`. */
export function ownedBy(scope: URL): (url: URL) => boolean {
  const bases = Object.values(playgroundPaths(scope));
  return (url) => url.origin === scope.origin && bases.some((base) => under(url, base));
}

/**
 * The message a page posts to the worker, with a port for the answer, once in each load: the
 * worker answers only the pages (clients) that sent it.
 */
export const OPT_IN_MESSAGE = 'mediakit-playground-opt-in';
