/**
 * The raw API calls a showcase page makes to its proxy, for the developer tools panel: method, path
 * and status. The elements call the proxy through `fetch` and, for request bodies with upload
 * progress, `XMLHttpRequest`; both are wrapped once per page. Only calls under the endpoint are
 * listed, and only what the browser itself sent: the proxy holds the keys and turns upstream job
 * ids into handles, and the long handles and download tickets are shortened here besides.
 */

export interface ApiCall {
  readonly id: number;
  readonly method: string;
  /** The path under the page's origin, opaque segments shortened. */
  readonly path: string;
  /** The HTTP status; 0 while it runs; -1 when no answer came (network error, aborted). */
  status: number;
  readonly at: Date;
}

type Listener = (call: ApiCall) => void;

const listeners = new Set<{ base: string; listener: Listener }>();
let installed = false;
let next = 1;

/** `/mediakit/api/v1/3d/jobs/Zx81…` rather than the whole handle or ticket. */
function shortPath(url: URL): string {
  return url.pathname
    .split('/')
    .map((s) => (s.length > 20 && /^[A-Za-z0-9_.~%-]+$/.test(s) ? `${s.slice(0, 6)}…` : s))
    .join('/');
}

/** Who was told of each call that has not ended yet. */
const watching = new WeakMap<ApiCall, Listener[]>();

function begin(method: string, input: string | URL): ApiCall | undefined {
  let url: URL;
  try {
    url = new URL(input, location.href);
  } catch {
    return undefined;
  }
  const href = url.origin + url.pathname;
  const watchers = [...listeners]
    .filter(({ base }) => href === base || href.startsWith(base + '/'))
    .map(({ listener }) => listener);
  if (watchers.length === 0) return undefined;
  const call: ApiCall = { id: next++, method: method.toUpperCase(), path: shortPath(url), status: 0, at: new Date() };
  watching.set(call, watchers);
  for (const listener of watchers) listener(call);
  return call;
}

function end(call: ApiCall | undefined, status: number): void {
  if (!call) return;
  call.status = status;
  for (const listener of watching.get(call) ?? []) listener(call);
  watching.delete(call);
}

function install(): void {
  if (installed) return;
  installed = true;
  const fetch = window.fetch;
  window.fetch = async function (input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = input instanceof Request ? input : undefined;
    const call = begin(init?.method ?? request?.method ?? 'GET', request ? request.url : input.toString());
    try {
      const response = await fetch.call(this, input, init);
      end(call, response.status);
      return response;
    } catch (err) {
      end(call, -1);
      throw err;
    }
  };
  const calls = new WeakMap<XMLHttpRequest, { method: string; url: string | URL }>();
  const { open, send } = XMLHttpRequest.prototype;
  XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: []) {
    calls.set(this, { method, url });
    return (open as (...a: unknown[]) => void).call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    const opened = calls.get(this);
    const call = opened && begin(opened.method, opened.url);
    if (call) this.addEventListener('loadend', () => end(call, this.status || -1), { once: true });
    return send.call(this, body);
  };
}

/**
 * Tells `listener` about every call under `endpoint` this page makes from now on: once when it
 * starts (status 0) and once when it ends (the same object, its status set). Returns the unsubscribe.
 */
export function watchApiCalls(endpoint: string, listener: Listener): () => void {
  install();
  const url = new URL(endpoint, location.href);
  const entry = { base: (url.origin + url.pathname).replace(/\/$/, ''), listener };
  listeners.add(entry);
  return () => listeners.delete(entry);
}
