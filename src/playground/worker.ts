/**
 * The playground's Service Worker: the session-token proxy and the sandbox, both in
 * the browser, answering the elements' endpoint, so a page works from any static file server
 * with nothing charged. Built as one classic script (`playground-sw.js`) beside `playground.js`,
 * which registers it.
 *
 * Its paths, under the worker's scope (its folder), are the playground's (./stack.ts). It answers
 * them only for the pages that opted in during their load (./index.ts sends its opt-in request
 * each load, as MSW's worker answers only the clients that sent it MOCK_ACTIVATE): every other page of
 * the origin, one that never loaded playground.js included, reaches the network, so a site's own
 * proxy at the same path is never shadowed. The opted-in clients are kept in Cache Storage, so a
 * worker the browser stopped and started again still knows them. Once no open page has opted in,
 * the worker unregisters itself (a short grace first, so a reload keeps it and its sandbox).
 *
 * One pretend account per browser. The proxy's secret is kept in Cache Storage with the kept
 * results, so a kept result's link still opens after the worker restarts; the sandbox itself (its
 * jobs and clock) starts afresh when the browser stops the worker.
 */
import { buildScene } from '../sandbox/browser/video.js';
import { BlobUpload } from '../sandbox/browser/upload.js';
import type { SandboxPlatform } from '../sandbox/platform.js';
import { cacheResultStore } from './cache-store.js';
import { ask, type CodecCall } from './codec.js';
import { playgroundStack } from './stack.js';
import { OPT_IN_HEADER, optInUrl } from './target.js';

// The Service Worker's globals, declared here: the "webworker" lib would retype the whole
// program's DOM (XMLHttpRequest.send and more), which the rest of the package runs in.
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEventLike extends ExtendableEventLike {
  readonly request: Request;
  /** The page (or worker) the request comes from; for a navigation, the page that started it. */
  readonly clientId: string;
  respondWith(response: Promise<Response>): void;
}
interface ClientLike {
  readonly id: string;
  postMessage(m: unknown, t: Transferable[]): void;
}
interface MessageEventLike extends ExtendableEventLike {
  readonly data: unknown;
}
declare const self: {
  readonly registration: { readonly scope: string; unregister(): Promise<boolean> };
  readonly location: Location;
  skipWaiting(): Promise<void>;
  readonly clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled?: boolean }): Promise<ClientLike[]>;
  };
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
};

const CACHE = 'mediakit-playground';
const CLIENTS_KEY = 'https://mediakit-playground.invalid/clients';
/** How long a page that just arrived has to opt in before the worker, wanted by no page, unregisters. */
const GRACE_MS = 10_000;

/** The ids of the clients that opted in; undefined until read back from Cache Storage. */
let optedIn: Set<string> | undefined;
const loaded: Promise<Set<string>> = (async () => {
  try {
    const kept = await (await caches.open(CACHE)).match(CLIENTS_KEY);
    optedIn = new Set(kept ? ((await kept.json()) as string[]) : []);
  } catch {
    optedIn = new Set();
  }
  return optedIn;
})();

/** The open pages that opted in. */
async function openOptedIn(): Promise<ClientLike[]> {
  const ids = await loaded;
  return (await self.clients.matchAll({ type: 'window', includeUncontrolled: true })).filter((c) => ids.has(c.id));
}

/** Keeps the ids of the open pages that opted in (closed ones are forgotten). */
async function keepOptedIn(): Promise<void> {
  const ids = await loaded;
  const open = new Set((await openOptedIn()).map((c) => c.id));
  for (const id of ids) if (!open.has(id)) ids.delete(id);
  await (await caches.open(CACHE)).put(CLIENTS_KEY, new Response(JSON.stringify([...ids])));
}

/** Takes a page's opt-in: known at once when the ids are loaded, so the page's next requests see it. */
async function optIn(id: string): Promise<Response> {
  optedIn?.add(id);
  (await loaded).add(id);
  await keepOptedIn();
  return new Response(null, { status: 204, headers: { [OPT_IN_HEADER]: 'opted-in', 'cache-control': 'no-store' } });
}

let leaving: Promise<void> | undefined;
let lastArrival = 0;
/**
 * Unregisters the worker when no open page has opted in, GRACE_MS after the last page arrived
 * (`arrival`: a navigation), so a page still loading has its time to opt in.
 */
function leaveIfUnwanted(arrival: boolean): Promise<void> {
  if (arrival) lastArrival = Date.now();
  leaving ??= (async () => {
    for (let wait = GRACE_MS; wait > 0; wait = lastArrival + GRACE_MS - Date.now())
      await new Promise((resolve) => setTimeout(resolve, wait));
    if ((await openOptedIn()).length === 0) await self.registration.unregister();
  })().finally(() => (leaving = undefined));
  return leaving;
}

/** Runs `call` in the first page of the playground that answers; `fallback` when none does. */
async function inPage<T>(call: CodecCall, fallback: () => Promise<T>): Promise<T> {
  for (const client of await openOptedIn()) {
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

async function keptSecret(): Promise<string> {
  const cache = await caches.open(CACHE);
  const url = 'https://mediakit-playground.invalid/secret';
  const kept = await cache.match(url);
  if (kept) return kept.text();
  const secret = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('');
  await cache.put(url, new Response(secret));
  return secret;
}

const stack = playgroundStack({
  scope: self.registration.scope,
  secret: keptSecret,
  results: cacheResultStore,
  platform: videoInPages,
});

const optInAt = optInUrl(new URL(self.registration.scope)).href;

self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('message', (event) => {
  // A page loaded past the worker (a hard reload) asks to be taken again.
  if (event.data === 'claim') event.waitUntil(self.clients.claim());
});
self.addEventListener('fetch', (event) => {
  const { request, clientId } = event;
  const url = new URL(request.url);
  if (url.href === optInAt && request.method === 'POST' && request.headers.get(OPT_IN_HEADER) === 'opt-in') {
    if (clientId) event.respondWith(optIn(clientId));
    return;
  }
  const mine = stack.owns(url);
  // A page arriving (or a call from a page that never opted in) is when the worker may find that nobody wants it.
  if (request.mode === 'navigate' || (mine && optedIn && !optedIn.has(clientId)))
    event.waitUntil(leaveIfUnwanted(request.mode === 'navigate'));
  if (!mine) return;
  // Known at once: a page that never opted in is not answered at all (the browser asks the network).
  if (optedIn) {
    if (optedIn.has(clientId)) event.respondWith(stack.handle(request));
    return;
  }
  event.respondWith(loaded.then((ids) => (ids.has(clientId) ? stack.handle(request) : fetch(request))));
});
