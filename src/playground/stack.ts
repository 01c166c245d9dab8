/**
 * The playground's server side, wherever it runs: the session-token proxy and the browser build of
 * the sandbox behind it, answering the paths under one scope (a folder URL). The Service Worker
 * (./worker.ts) runs it for every page of its folder; a page that may not have a Service Worker
 * (an opaque-origin iframe, a page served over plain http) runs it itself (./in-page.ts).
 *
 * Paths, under the scope: `mediakit` (the proxy: the elements' endpoint), `mediakit-poor` (the same
 * proxy with 5 credits a day: the "not enough credits" and "low" states) and `sandbox` (the
 * sandbox's control plane at `sandbox/__sandbox/*`, with the playground account's
 * `sandbox/__dev/account` and `sandbox/__dev/ledger`, as the dev server has them, and
 * `sandbox/__dev/trickle`, a file of this site sent slowly), so the same demo tools drive both.
 */
import { createProxy } from '../proxy/create-proxy.js';
import type { Proxy } from '../proxy/options.js';
import type { ResultStore } from '../proxy/keep/result-store.js';
import type { SecretOption } from '../proxy/tokens/secrets.js';
import { ownedBy, playgroundPaths, under } from './target.js';
import { createBrowserSandbox } from '../sandbox/browser/index.js';
import type { SandboxPlatform } from '../sandbox/platform.js';
import { withoutJobIds, type DevLedger } from '../sandbox/dev-ledger.js';

/** Credits of the pretend account, and what this browser may spend a day (at `mediakit-poor`: 5). */
const ACCOUNT_CREDITS = 100_000;
const DAILY_BUDGET = 2_000;
const POOR_BUDGET = 5;

export interface StackOptions {
  /** The folder the paths are under, as an absolute URL (`https://site.example/docs/`). */
  scope: string;
  /** The proxy's signing secret. */
  secret: () => Promise<SecretOption>;
  /** Where kept results go, by store name; none: nothing is kept (the elements say so). */
  results?: (name: string) => ResultStore;
  /** Platform parts the caller makes differently (the Service Worker asks a page for video work). */
  platform?: Partial<SandboxPlatform>;
}

export interface PlaygroundStack {
  readonly endpoint: string;
  readonly poorEndpoint: string;
  readonly sandboxPath: string;
  /** Whether `url` is one of the playground's paths. */
  owns(url: URL): boolean;
  /** Answers a request to one of the playground's paths. */
  handle(request: Request): Promise<Response>;
}

/**
 * A browser's Request never carries Content-Length (a forbidden header, even in a Service Worker),
 * and the proxy asks for it on uploads, as on a server, where the browser sends one. The body is
 * taken as a Blob (a large video stays on the browser's disk) and its size declared on a copy.
 */
async function withLength(request: Request): Promise<Request> {
  if (request.method === 'GET' || request.method === 'HEAD' || request.headers.has('content-length')) return request;
  const body = await request.blob();
  const headers = new Headers(request.headers); // a Headers of its own has no guard: it may hold the length
  headers.set('content-length', String(body.size));
  const copy = new Request(request.url, { method: request.method, headers, body, signal: request.signal });
  Object.defineProperty(copy, 'headers', { value: headers });
  return copy;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

/**
 * `sandbox/__dev/trickle?src=…&seconds=…`: a file of this site (`src`, a path, relative to the
 * scope or from the root) sent evenly over `seconds` (1-300), with its length, so a viewer's
 * loading state can be looked at. As inert bytes, whatever the file is.
 */
async function trickle(url: URL, scope: URL, load: typeof fetch): Promise<Response> {
  const src = url.searchParams.get('src') ?? '';
  const seconds = Number(url.searchParams.get('seconds') ?? 30);
  let target: URL | undefined;
  try {
    target = /[\x00-\x1f\x7f]/.test(src) || !src ? undefined : new URL(src, scope);
  } catch {
    target = undefined;
  }
  if (!target || target.origin !== scope.origin || !(seconds >= 1 && seconds <= 300))
    return json(
      { error: { code: 'invalid_request', message: 'trickle needs src, a path on this site, and seconds, 1 to 300.' } },
      400,
    );
  const upstream = await load(target, { redirect: 'error', credentials: 'same-origin' }).catch(() => null);
  if (!upstream?.ok) {
    await upstream?.body?.cancel();
    const status = upstream?.status === 404 ? 404 : 502;
    return json(
      { error: { code: 'not_found', message: `${target.pathname} answered ${upstream?.status ?? 'nothing'}.` } },
      status,
    );
  }
  const bytes = new Uint8Array(await upstream.arrayBuffer());
  const chunk = Math.max(1, Math.ceil(bytes.length / (seconds * 4)));
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (at > 0) await new Promise((r) => setTimeout(r, 250));
      controller.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
      if (at >= bytes.length) controller.close();
    },
  });
  return new Response(body, {
    headers: {
      'content-type': 'application/octet-stream',
      'content-length': String(bytes.length),
      'x-content-type-options': 'nosniff',
      'content-security-policy': 'sandbox',
      'cache-control': 'no-store',
    },
  });
}

export function playgroundStack(options: StackOptions, load: typeof fetch = fetch): PlaygroundStack {
  const scope = new URL(options.scope);
  const { endpoint, poorEndpoint, sandboxPath } = playgroundPaths(scope);
  const sandbox = createBrowserSandbox({}, options.platform);

  // The pretend visitor: budgets, rate limits, job handles and kept results are theirs. A new
  // visitor (`/__dev/visitor`) starts from a full budget and sees none of the last one's jobs.
  let subject = 'playground';

  const stack = (async () => {
    const response = await sandbox.fetch(
      new Request('https://sandbox.invalid/__sandbox/accounts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ credits: ACCOUNT_CREDITS }),
      }),
    );
    const { keys, account_id } = (await response.json()) as { keys: Record<string, string>; account_id: string };
    const secret = await options.secret();
    const proxyAt = (basePath: string, budget: number, results: string): Proxy =>
      createProxy({
        upstream: (request) => sandbox.fetch(request),
        keys,
        secret,
        basePath,
        authorize: () => ({ subject, budget }),
        ...(options.results ? { results: { store: options.results(results) } } : {}),
      });
    return {
      proxy: proxyAt(endpoint, DAILY_BUDGET, 'mediakit-playground-results'),
      /** The same account, with a session budget of 5 credits (its own budget count and kept results). */
      poor: proxyAt(poorEndpoint, POOR_BUDGET, 'mediakit-playground-results-poor'),
      account: account_id,
      key: keys['video']!,
    };
  })();

  async function control(request: Request, url: URL): Promise<Response> {
    const path = url.pathname.slice(sandboxPath.length);
    if (path === '/__dev/trickle' && request.method === 'GET') return trickle(url, scope, load);
    const { account, key } = await stack;
    if (path === '/__dev/account' && request.method === 'GET') return json({ account_id: account });
    if (path === '/__dev/visitor' && request.method === 'POST') {
      subject = `playground-${crypto.randomUUID()}`;
      return json({ ok: true });
    }
    if (path === '/__dev/ledger' && request.method === 'GET') {
      const r = await sandbox.fetch(
        new Request(`https://sandbox.invalid/__sandbox/accounts/${account}/ledger`, {
          headers: { authorization: `Bearer ${key}` },
        }),
      );
      if (!r.ok) return json(await r.json(), r.status);
      return json(withoutJobIds((await r.json()) as DevLedger));
    }
    // The sandbox's own control plane (clock, faults, accounts), as the dev server mounts it.
    return sandbox.fetch(new Request(new URL(path + url.search, 'https://sandbox.invalid'), request));
  }

  return {
    endpoint,
    poorEndpoint,
    sandboxPath,
    owns: ownedBy(scope),
    async handle(request) {
      const url = new URL(request.url);
      if (under(url, endpoint)) return (await stack).proxy.fetch(await withLength(request));
      if (under(url, poorEndpoint)) return (await stack).poor.fetch(await withLength(request));
      return control(request, url);
    },
  };
}
