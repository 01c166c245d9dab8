/**
 * The playground's Service Worker (issue 23): the session-token proxy and the sandbox, both in
 * the browser, answering the elements' endpoint, so a page works from any static file server
 * with nothing charged. Built as one classic script (`playground-sw.js`) beside `playground.js`,
 * which registers it.
 *
 * Its paths, under the worker's scope (its folder), are the playground's (./stack.ts).
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

async function keptSecret(): Promise<string> {
  const cache = await caches.open('mediakit-playground');
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

self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
// A page loaded past the worker (a hard reload) asks to be taken again.
self.addEventListener('message', (event) => {
  if (event.data === 'claim') event.waitUntil(self.clients.claim());
});
self.addEventListener('fetch', (event) => {
  if (stack.owns(new URL(event.request.url))) event.respondWith(stack.handle(event.request));
});
