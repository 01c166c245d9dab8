// Edge runtimes that take a fetch event (Vercel's edge runtime, run here by the `edge-runtime`
// package): no file system, and `process.env` values are inlined when the function is built.
import { createProxy } from '@mediakit/elements/proxy';
import { siteOptions } from './site.js';

const proxy = createProxy(siteOptions(process.env));

addEventListener('fetch', (event) => event.respondWith(proxy.fetch(event.request)));
