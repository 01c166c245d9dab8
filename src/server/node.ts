/**
 * Serves a Web-standard `fetch` handler on node:http (and so Express, Connect and Vite's dev
 * server): the request body streams in (duplex half), the response body streams out with
 * backpressure, and a client that goes away aborts the request's signal, so a handler that
 * forwards the request upstream stops the upstream request too.
 *
 * Shared by the proxy and the sandbox; imports nothing of either.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * At most this many body bytes wait between the socket and the handler. Counted in bytes: a bare
 * `highWaterMark` would count chunks and let a slow upstream pile a whole upload up in memory.
 */
const BODY_BUFFER_BYTES = 256 * 1024;
const byteStrategy: QueuingStrategy<Uint8Array> = {
  highWaterMark: BODY_BUFFER_BYTES,
  size: (chunk) => chunk.byteLength,
};

/**
 * The request body as a web stream, with backpressure (the socket pauses while BODY_BUFFER_BYTES
 * wait). Not `Readable.toWeb`: on Node 20 a stream cancelled while data still arrives throws
 * "Controller is already closed" as an uncaught exception. Here a cancelled body discards what
 * still arrives, so the handler can still answer (408, 413) on the same connection.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          if (done) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) req.pause();
        });
        req.once('end', () => {
          if (done) return;
          done = true;
          controller.close();
        });
        const broken = (err?: Error) => {
          if (done) return;
          done = true;
          controller.error(err ?? new Error('the request body was cut off'));
        };
        req.once('error', broken);
        req.once('close', () => broken());
      },
      pull() {
        if (req.isPaused()) req.resume();
      },
      cancel() {
        done = true;
        req.resume();
      },
    },
    byteStrategy,
  );
}

export function toRequest(req: IncomingMessage, origin: string, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    signal,
    ...(hasBody ? { body: bodyStream(req), duplex: 'half' } : {}),
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
      // A client that hangs up while we wait for drain never drains: 'close' settles the wait too.
      if (!res.write(value)) {
        await new Promise<void>((r) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            r();
          };
          res.once('drain', done);
          res.once('close', done);
        });
        if (res.destroyed) break;
      }
    }
    res.end();
  } catch {
    res.destroy();
  }
}

function errorJson(res: ServerResponse, status: number, code: string, message: string): void {
  if (!res.headersSent)
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error: { code, message } }));
}

export interface ListenerOptions {
  /** Checks the raw request target before it is parsed (URL parsing resolves `..` and `\`); returns an error message to refuse it with 400. */
  checkTarget?: (target: string) => string | undefined;
  /** Rewrites the parsed URL before the handler sees it (for example to strip a mount prefix). */
  rewrite?: (url: URL) => void;
}

/** A node:http listener for a fetch handler. */
export function nodeListener(handler: FetchHandler, options: ListenerOptions = {}) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const problem = options.checkTarget?.(req.url ?? '/');
    if (problem) {
      req.resume();
      errorJson(res, 400, 'invalid_request', problem);
      return;
    }
    // The response closing before it finished means the client went away: abort the handler's work.
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new Error('client disconnected'));
    });
    let request: Request;
    try {
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
      options.rewrite?.(url);
      req.url = url.pathname + url.search;
      request = toRequest(req, url.origin, controller.signal);
    } catch {
      req.resume();
      errorJson(res, 400, 'invalid_request', 'The request line could not be parsed.');
      return;
    }
    handler(request).then(
      (response) => writeResponse(response, res),
      (err: unknown) => {
        console.error('[mediakit] handler failed:', err instanceof Error ? err.message : err);
        errorJson(res, 500, 'provider_error', 'Internal error.');
      },
    );
  };
}

/** Starts an HTTP server for `handler` on `port` (0 for any free port) and host. */
export async function serve(
  handler: FetchHandler,
  port: number,
  host = '127.0.0.1',
  options: ListenerOptions = {},
): Promise<{ server: Server; url: string }> {
  const server = createServer(nodeListener(handler, options));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  return { server, url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}` };
}

function underPrefix(req: IncomingMessage, prefix: string): boolean {
  const path = (req.url ?? '/').split('?')[0]!;
  return path === prefix || path.startsWith(prefix + '/');
}

/**
 * Connect/Express/Vite middleware serving `prefix/*` from a fetch handler (the prefix is removed
 * from the path the handler sees); other paths go to `next`.
 */
export function connectMiddleware(prefix: string, handler: FetchHandler) {
  const listener = nodeListener(handler, {
    rewrite: (url) => void (url.pathname = url.pathname.slice(prefix.length) || '/'),
  });
  return (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void => {
    if (underPrefix(req, prefix)) listener(req, res);
    else next();
  };
}
