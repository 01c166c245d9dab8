/**
 * The playground without a Service Worker: in an opaque-origin iframe (`<iframe
 * sandbox="allow-scripts">`, as code playgrounds and some docs sites frame examples) or a page
 * served over plain http, the browser allows no Service Worker, so the page runs the proxy and the
 * sandbox itself (./stack.ts) and answers the elements' calls in place, as MSW's fallback mode
 * does: `fetch` and `XMLHttpRequest` to the playground's paths never reach the network.
 *
 * What a page cannot intercept are the links the elements put in `<img>`, `<video>` and `<a>`:
 * the proxy's signed file links in job answers are fetched here and handed over as object URLs.
 * Nothing is kept (such a page has no storage that outlives it): a result's value has no asset,
 * and the elements say so, as with any proxy that keeps nothing.
 */
import { playgroundStack, type PlaygroundStack } from './stack.js';
import { targetOf } from './target.js';

/** Walks a JSON answer and turns every link to one of the playground's files into an object URL. */
async function withObjectUrls(value: unknown, stack: PlaygroundStack, files: string[]): Promise<unknown> {
  if (typeof value === 'string') {
    let url: URL;
    try {
      url = new URL(value, document.baseURI);
    } catch {
      return value;
    }
    if (!stack.owns(url) || !files.some((base) => url.pathname.startsWith(base))) return value;
    const file = await stack.handle(new Request(url));
    return file.ok ? URL.createObjectURL(await file.blob()) : value;
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => withObjectUrls(v, stack, files)));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await withObjectUrls(v, stack, files);
    return out;
  }
  return value;
}

/** An XMLHttpRequest that answers the playground's paths in the page (the elements upload through XHR for its progress). */
function inPageXhr(owns: (url: URL) => boolean, answer: (request: Request) => Promise<Response>) {
  const Native = window.XMLHttpRequest;
  return class PlaygroundXhr extends Native {
    #target?: { method: string; url: URL; headers: Headers };
    #answer?: { status: number; statusText: string; headers: Headers; body: Blob };
    /** The send in flight: aborted, or replaced by a new open(), it reports nothing more. */
    #sending?: AbortController;

    override open(method: string, url: string | URL, ...rest: [boolean?, string?, string?]): void {
      const target = targetOf(url);
      this.#answer = undefined;
      this.#sending?.abort();
      this.#sending = undefined;
      if (target && owns(target)) {
        this.#target = { method: method.toUpperCase(), url: target, headers: new Headers() };
        return;
      }
      this.#target = undefined;
      (super.open as (...a: unknown[]) => void)(method, url, ...rest);
    }
    override setRequestHeader(name: string, value: string): void {
      if (this.#target) this.#target.headers.set(name, value);
      else super.setRequestHeader(name, value);
    }
    override send(body?: Document | XMLHttpRequestBodyInit | null): void {
      const target = this.#target;
      if (!target) return super.send(body);
      const sending = (this.#sending = new AbortController());
      const init: RequestInit = { method: target.method, headers: target.headers, signal: sending.signal };
      if (body != null && target.method !== 'GET' && target.method !== 'HEAD') init.body = body as BodyInit;
      const request = new Request(target.url, init);
      const current = () => this.#sending === sending && !sending.signal.aborted;
      void (async () => {
        try {
          // The whole body is "sent" at once: one progress event with its size, as a fast network gives.
          const size = body instanceof Blob ? body.size : init.body ? (await request.clone().blob()).size : 0;
          this.upload.dispatchEvent(
            new ProgressEvent('progress', { loaded: size, total: size, lengthComputable: true }),
          );
          const response = await answer(request);
          const answered = { status: response.status, statusText: response.statusText, headers: response.headers };
          const blob = await response.blob();
          if (!current()) return;
          this.#answer = { ...answered, body: blob };
          this.dispatchEvent(new ProgressEvent('load'));
        } catch {
          if (!current()) return;
          this.dispatchEvent(new ProgressEvent('error'));
        }
        this.dispatchEvent(new ProgressEvent('loadend'));
      })();
    }
    override abort(): void {
      if (!this.#target) return super.abort();
      const sending = this.#sending;
      if (!sending || sending.signal.aborted) return;
      // The request carries the signal: the proxy and the sandbox stop what they can of it.
      sending.abort();
      this.dispatchEvent(new ProgressEvent('abort'));
      this.dispatchEvent(new ProgressEvent('loadend'));
    }
    override get status(): number {
      return this.#target ? (this.#answer?.status ?? 0) : super.status;
    }
    override get statusText(): string {
      return this.#target ? (this.#answer?.statusText ?? '') : super.statusText;
    }
    override get readyState(): number {
      return this.#target ? (this.#answer ? 4 : 1) : super.readyState;
    }
    override get response(): unknown {
      if (!this.#target) return super.response as unknown;
      return this.#answer?.body ?? null;
    }
    override getAllResponseHeaders(): string {
      if (!this.#target) return super.getAllResponseHeaders();
      return [...(this.#answer?.headers ?? [])].map(([k, v]) => `${k}: ${v}\r\n`).join('');
    }
    override getResponseHeader(name: string): string | null {
      if (!this.#target) return super.getResponseHeader(name);
      return this.#answer?.headers.get(name) ?? null;
    }
  };
}

/**
 * Runs the playground in this page for the paths under `scope` (the folder its Service Worker
 * would have served): `fetch` and `XMLHttpRequest` to them are answered here from now on. Answers
 * the stack and the page's new `fetch` (a caller that held calls hands them to it directly).
 */
export function runInPage(
  scope: string,
  network: typeof fetch = window.fetch.bind(window),
): { stack: PlaygroundStack; fetch: typeof fetch } {
  const stack = playgroundStack(
    // A secret of this page's life: nothing it signs outlives the page.
    { scope, secret: async () => crypto.getRandomValues(new Uint8Array(32)) },
    network,
  );
  const files = [stack.endpoint, stack.poorEndpoint].map((e) => e + '/files/');
  const answer = async (request: Request): Promise<Response> => {
    const response = await stack.handle(request);
    if (!(response.headers.get('content-type') ?? '').includes('application/json')) return response;
    const body = await withObjectUrls(await response.json(), stack, files);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(body), { status: response.status, statusText: response.statusText, headers });
  };
  const inPageFetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = targetOf(input);
    if (!url || !stack.owns(url)) return network(input, init);
    const request = new Request(input instanceof Request ? input : url, init);
    // As fetch does: an aborted signal rejects at once with its reason, whatever the answer does.
    const aborted = new Promise<never>((_, reject) => {
      const signal = request.signal;
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    return Promise.race([answer(request), aborted]);
  };
  window.fetch = inPageFetch;
  window.XMLHttpRequest = inPageXhr(stack.owns, answer);
  return { stack, fetch: inPageFetch };
}
