/**
 * The playground's Service Worker (issue 23): the session-token proxy and the sandbox, both in
 * the browser, answering the elements' endpoint, so a page works from any static file server
 * with nothing charged. Built as one classic script (`playground-sw.js`) beside `playground.js`,
 * which registers it.
 *
 * Paths, under the worker's scope (its folder): `mediakit` (the proxy: the elements' endpoint),
 * `mediakit-poor` (the same proxy with 5 credits a day: the "not enough credits" and "low"
 * states) and `sandbox` (the sandbox's control plane at `sandbox/__sandbox/*`, with the playground
 * account's `sandbox/__dev/account` and `sandbox/__dev/ledger`, as the dev server has them, and
 * `sandbox/__dev/trickle`, a file of this site sent slowly), so the same demo tools drive both.
 *
 * One pretend account per browser. The proxy's secret is kept in Cache Storage with the kept
 * results, so a kept result's link still opens after the worker restarts; the sandbox itself (its
 * jobs and clock) starts afresh when the browser stops the worker.
 */
import { createProxy } from '../proxy/create-proxy.js';
import type { Proxy } from '../proxy/options.js';
import { createBrowserSandbox } from '../sandbox/browser/index.js';
import { buildScene } from '../sandbox/browser/video.js';
import { BlobUpload } from '../sandbox/browser/upload.js';
import type { SandboxPlatform } from '../sandbox/platform.js';
import { cacheResultStore } from './cache-store.js';
import { ask, type CodecCall } from './codec.js';
import { withoutJobIds, type DevLedger } from '../dev/ledger.js';

// The Service Worker's globals, declared here: the "webworker" lib would retype the whole
// program's DOM (XMLHttpRequest.send and more), which the rest of the package runs in.
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEventLike extends ExtendableEventLike {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
declare const self: {
  readonly registration: { readonly scope: string };
  readonly location: Location;
  skipWaiting(): Promise<void>;
  readonly clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window' }): Promise<Array<{ postMessage(m: unknown, t: Transferable[]): void }>>;
  };
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableEventLike & { data: unknown }) => void): void;
};

const scope = new URL(self.registration.scope).pathname;
const ENDPOINT = scope + 'mediakit';
const POOR_ENDPOINT = scope + 'mediakit-poor';
const SANDBOX = scope + 'sandbox';
/** Credits of the pretend account, and what this browser may spend a day (at `mediakit-poor`: 5). */
const ACCOUNT_CREDITS = 100_000;
const DAILY_BUDGET = 2_000;
const POOR_BUDGET = 5;

/** Runs `call` in the first page that answers; `fallback` when none does. */
async function inPage<T>(call: CodecCall, fallback: () => Promise<T>): Promise<T> {
  for (const client of await self.clients.matchAll({ type: 'window' })) {
    try {
      return await ask<T>(client, call);
    } catch {
      // That page is gone or busy: the next one.
    }
  }
  return fallback();
}

const videoInPages: Pick<SandboxPlatform, 'buildScene' | 'encodeTurntable'> = {
  buildScene: (input, options = {}) =>
    inPage(
      {
        call: 'buildScene',
        input: { ...input, video: input.video instanceof BlobUpload ? input.video.blob : (input.video as Uint8Array) },
        options,
      },
      () => buildScene(input, options),
    ),
  encodeTurntable: (faces, options = {}) =>
    inPage({ call: 'encodeTurntable', faces, options }, () =>
      Promise.reject(
        new Error('No page of the playground is open to encode the turntable (a Service Worker has no video encoder).'),
      ),
    ),
};

const sandbox = createBrowserSandbox({}, videoInPages);

async function keptSecret(): Promise<string> {
  const cache = await caches.open('mediakit-playground');
  const url = 'https://mediakit-playground.invalid/secret';
  const kept = await cache.match(url);
  if (kept) return kept.text();
  const secret = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('');
  await cache.put(url, new Response(secret));
  return secret;
}

interface Stack {
  proxy: Proxy;
  /** The same account, with a session budget of 5 credits (its own budget count and kept results). */
  poor: Proxy;
  account: string;
  key: string;
}

const stack: Promise<Stack> = (async () => {
  const response = await sandbox.fetch(
    new Request('https://sandbox.invalid/__sandbox/accounts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ credits: ACCOUNT_CREDITS }),
    }),
  );
  const { keys, account_id } = (await response.json()) as { keys: Record<string, string>; account_id: string };
  const secret = await keptSecret();
  const proxyAt = (basePath: string, budget: number, results: string) =>
    createProxy({
      upstream: (request) => sandbox.fetch(request),
      keys,
      secret,
      basePath,
      authorize: () => ({ subject: 'playground', budget }),
      results: { store: cacheResultStore(results) },
    });
  return {
    proxy: proxyAt(ENDPOINT, DAILY_BUDGET, 'mediakit-playground-results'),
    poor: proxyAt(POOR_ENDPOINT, POOR_BUDGET, 'mediakit-playground-results-poor'),
    account: account_id,
    key: keys['video']!,
  };
})();

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
 * worker's folder or from the root) sent evenly over `seconds` (1-300), with its length, so a
 * viewer's loading state can be looked at. As inert bytes, whatever the file is.
 */
async function trickle(url: URL): Promise<Response> {
  const src = url.searchParams.get('src') ?? '';
  const seconds = Number(url.searchParams.get('seconds') ?? 30);
  let target: URL | undefined;
  try {
    target = /[\x00-\x1f\x7f]/.test(src) || !src ? undefined : new URL(src, self.registration.scope);
  } catch {
    target = undefined;
  }
  if (!target || target.origin !== self.location.origin || !(seconds >= 1 && seconds <= 300))
    return json(
      { error: { code: 'invalid_request', message: 'trickle needs src, a path on this site, and seconds, 1 to 300.' } },
      400,
    );
  const upstream = await fetch(target, { redirect: 'error', credentials: 'same-origin' }).catch(() => null);
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

async function control(request: Request, url: URL): Promise<Response> {
  const path = url.pathname.slice(SANDBOX.length);
  if (path === '/__dev/trickle' && request.method === 'GET') return trickle(url);
  const { account, key } = await stack;
  if (path === '/__dev/account' && request.method === 'GET') return json({ account_id: account });
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
  const inner = new URL(path + url.search, self.location.origin);
  return sandbox.fetch(new Request(inner, request));
}

self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
// A page loaded past the worker (a hard reload) asks to be taken again.
self.addEventListener('message', (event) => {
  if (event.data === 'claim') event.waitUntil(self.clients.claim());
});
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin) return;
  const under = (base: string) => url.pathname === base || url.pathname.startsWith(base + '/');
  if (under(ENDPOINT)) event.respondWith(stack.then(async ({ proxy }) => proxy.fetch(await withLength(event.request))));
  else if (under(POOR_ENDPOINT))
    event.respondWith(stack.then(async ({ poor }) => poor.fetch(await withLength(event.request))));
  else if (under(SANDBOX)) event.respondWith(control(event.request, url));
});
