/**
 * `toNodeHandler(proxy)`: the proxy on node:http, Express, Connect, Fastify's `raw` handlers and
 * Vite's dev server. The raw request target is checked before Node's URL parser resolves `..` or
 * `\`, bodies stream in both directions, and a browser that goes away aborts the upstream call.
 *
 * As middleware (`app.use(toNodeHandler(proxy))`), requests outside the proxy's basePath go to
 * `next()`; as a plain listener (`http.createServer(toNodeHandler(proxy))`) they get a 404.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeListener } from '../server/node.js';
import { targetProblem } from './edge/paths.js';
import type { Proxy } from './create-proxy.js';

export function toNodeHandler(proxy: Pick<Proxy, 'fetch' | 'basePath'>) {
  const listener = nodeListener((request) => proxy.fetch(request), { checkTarget: targetProblem });
  const prefix = proxy.basePath;
  return (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void): void => {
    const path = (req.url ?? '/').split('?')[0]!;
    const mine = prefix === '' || path === prefix || path.startsWith(prefix + '/');
    if (!mine && next) next();
    else listener(req, res);
  };
}
