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
 * How a page opts in, once in each load: a POST to `optInUrl(scope)` with `OPT_IN_HEADER: opt-in`,
 * which the worker answers (204, `OPT_IN_HEADER: opted-in`) and never passes on. A request, not a
 * message: it reaches the worker on the page's own path to it, so in order with the page's later
 * requests (an `<img>` of a kept result as the page loads). A header no `<img>` or `<form>` can
 * send: only a script of the page opts it in.
 */
export const OPT_IN_HEADER = 'x-mediakit-playground';
export const optInUrl = (scope: URL) => new URL('mediakit-playground-opt-in', scope);
