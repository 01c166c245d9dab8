/**
 * What differs between the runtimes the proxy runs on (Node, Cloudflare Workers, Deno, Bun, edge
 * runtimes), checked once by trying the feature rather than by naming the runtime.
 */

let redirect: RequestRedirect | undefined;

/**
 * The redirect mode for an upstream call that asks for `'error'`. Node's fetch keeps a copy of a
 * streamed request body for redirect replay unless redirects are refused, so `'error'` where the
 * runtime has it. workerd refuses `'error'` (a TypeError before anything is sent); there `'manual'`
 * sends the same request, and a 3xx answer is a non-2xx upstream answer like any other.
 */
export function supportedRedirect(wanted: RequestRedirect | undefined): RequestRedirect | undefined {
  if (wanted !== 'error') return wanted;
  if (redirect === undefined) {
    try {
      new Request('http://upstream.invalid/', { redirect: 'error' });
      redirect = 'error';
    } catch {
      redirect = 'manual';
    }
  }
  return redirect;
}

/** A request the runtime refused to build: it never left this process, so upstream saw nothing. */
export class RequestNotBuilt extends Error {
  constructor(override readonly cause: unknown) {
    super(`the runtime refused the upstream request before sending it: ${(cause as Error)?.message ?? cause}`);
  }
}

/** `new Request(url, init)`, with a refusal marked as never sent. */
export function buildRequest(url: URL, init: RequestInit): Request {
  try {
    return new Request(url, init);
  } catch (err) {
    throw new RequestNotBuilt(err);
  }
}

/**
 * `AbortSignal.any`, or the same made by hand where the runtime lacks it (the `edge-runtime`
 * package's VM): aborted with the first of `signals` to abort, and its reason.
 */
export function anySignal(signals: AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals);
  const controller = new AbortController();
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}
