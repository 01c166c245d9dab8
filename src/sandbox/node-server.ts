/**
 * Serves a Web-standard `fetch` handler on node:http: the request body streams in (duplex half),
 * the response body streams out, and a client that goes away aborts the request's signal.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';

export type FetchHandler = (request: Request) => Promise<Response>;

export function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const controller = new AbortController();
  req.once('close', () => {
    if (!req.complete) controller.abort();
  });
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
}

export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((r) => res.once('drain', r));
    }
    res.end();
  } catch {
    res.destroy();
  }
}

/** A node:http listener for a fetch handler. */
export function nodeListener(handler: FetchHandler) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const origin = `http://${req.headers.host ?? 'localhost'}`;
    let request: Request;
    try {
      request = toRequest(req, origin);
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'invalid_request', message: 'The request line could not be parsed.' } }));
      return;
    }
    handler(request).then(
      (response) => writeResponse(response, res),
      () => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'provider_error', message: 'Internal error.' } }));
      },
    );
  };
}

/** Starts an HTTP server for `handler` on `port` (0 for any free port) and host. */
export async function serve(handler: FetchHandler, port: number, host = '127.0.0.1'): Promise<{ server: Server; url: string }> {
  const server = createServer(nodeListener(handler));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  return { server, url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}` };
}

/**
 * Connect/Express/Vite middleware serving `prefix/*` from a fetch handler (the prefix is removed
 * from the path the handler sees); other paths go to `next`.
 */
export function connectMiddleware(prefix: string, handler: FetchHandler) {
  const listener = nodeListener((request) => {
    const url = new URL(request.url);
    url.pathname = url.pathname.slice(prefix.length) || '/';
    const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers: request.headers, signal: request.signal };
    if (request.body) {
      init.body = request.body;
      init.duplex = 'half';
    }
    return handler(new Request(url, init));
  });
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === prefix || path.startsWith(prefix + '/')) listener(req, res);
    else next();
  };
}
