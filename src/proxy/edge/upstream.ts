/**
 * The upstream side: URLs built from the route table only, the call itself with its outcome
 * classified (sent or certainly not sent), and upstream errors mapped to what a browser may see.
 */
import { ApiError, type Capability } from '../../api/index.js';
import { knownCode } from './rewrite.js';
import { messageOf, type Log } from './respond.js';
import { buildRequest, RequestNotBuilt, supportedRedirect } from '../runtime.js';
import { readText } from './read-body.js';

/** Why an upstream call produced no answer, and whether upstream may have acted on it. */
export class UpstreamFailure extends Error {
  constructor(
    /** 'not-sent': upstream certainly did not process it (connection refused, body failed first); 'timeout' and 'unknown': it may have. */
    readonly outcome: 'not-sent' | 'timeout' | 'unknown',
    override readonly cause: unknown,
  ) {
    super(`upstream call failed (${outcome}): ${messageOf(cause)}`);
  }
}

/** Errors of a connection that was never made: upstream saw nothing. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function codeOf(err: unknown): string | undefined {
  for (
    let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    e = e.cause as typeof e, i++
  ) {
    if (typeof e.code === 'string') return e.code;
  }
  return undefined;
}

/** A reused keep-alive socket reset before any answer: the request never reached upstream's handler. */
function staleSocket(err: unknown): boolean {
  const code = codeOf(err);
  return (err as { reusedSocket?: boolean }).reusedSocket === true && (code === 'ECONNRESET' || code === 'EPIPE');
}

/** What undici says when the kept-alive socket it reused was closed by the other side. */
function resetBeforeAnswer(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
}

export type UpstreamInit = RequestInit & { duplex?: 'half' };

/** A small upstream answer read whole (polls). */
export interface SmallAnswer {
  status: number;
  /** The body text, or undefined when it was larger than asked for or broke. */
  text: string | undefined;
  retryAfter: string | null;
}

type NodeGet = (url: URL, headers: Record<string, string>, timeoutMs: number, max: number) => Promise<SmallAnswer>;

let nodeGet: Promise<NodeGet | undefined> | undefined;

/**
 * On Node, small GETs (polls) go through node:http with a keep-alive agent: the same request as
 * fetch, without the Request, Headers, AbortSignal and stream objects fetch builds per call (most
 * of the latency a poll added). Elsewhere, undefined: fetch is used.
 */
function nodeGetter(): Promise<NodeGet | undefined> {
  nodeGet ??= (async () => {
    if (typeof process === 'undefined' || !process.versions?.node) return undefined;
    try {
      const http = await import('node:http');
      const https = await import('node:https');
      const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };
      const once = (url: URL, headers: Record<string, string>, timeoutMs: number, max: number) =>
        new Promise<SmallAnswer>((resolve, reject) => {
          const protocol = url.protocol as 'http:' | 'https:';
          const req = (protocol === 'https:' ? https.request : http.request)(
            url,
            { method: 'GET', headers, agent: agents[protocol], timeout: timeoutMs },
            (res) => {
              const chunks: Buffer[] = [];
              let size = 0;
              res.on('data', (c: Buffer) => {
                size += c.length;
                if (size > max) {
                  res.destroy();
                } else chunks.push(c);
              });
              const retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null;
              res.once('end', () =>
                resolve({ status: res.statusCode ?? 502, text: Buffer.concat(chunks).toString('utf8'), retryAfter }),
              );
              res.once('close', () => {
                if (!res.complete) resolve({ status: res.statusCode ?? 502, text: undefined, retryAfter });
              });
            },
          );
          req.once('timeout', () =>
            req.destroy(Object.assign(new Error('upstream timeout'), { name: 'TimeoutError' })),
          );
          req.once('error', (err) => reject(req.reusedSocket ? Object.assign(err, { reusedSocket: true }) : err));
          req.end();
        });
      // A kept-alive socket the upstream closed as this GET went out answers nothing: the GET goes
      // once more on a fresh socket (Node's documented race; a GET changes nothing upstream).
      return async (url, headers, timeoutMs, max) => {
        try {
          return await once(url, headers, timeoutMs, max);
        } catch (err) {
          if (!staleSocket(err)) throw err;
          return await once(url, headers, timeoutMs, max);
        }
      };
    } catch {
      return undefined;
    }
  })();
  return nodeGet;
}

export class Upstream {
  readonly base: URL;
  readonly #fetch: (url: URL, init: UpstreamInit) => Promise<Response>;
  readonly #direct: boolean;

  constructor(
    upstream: string | URL | ((request: Request) => Promise<Response>),
    private readonly log: Log,
  ) {
    if (typeof upstream === 'function') {
      this.base = new URL('http://upstream.invalid/');
      this.#direct = false;
      this.#fetch = (url, init) =>
        url.origin === this.base.origin ? upstream(buildRequest(url, init)) : fetch(url, init);
    } else {
      try {
        this.base = new URL(String(upstream));
      } catch {
        throw new TypeError(
          `createProxy: upstream must be the media API's base URL (https://…) or a fetch function; it was ${JSON.stringify(String(upstream)).slice(0, 80)}.`,
        );
      }
      if (this.base.protocol !== 'https:' && this.base.protocol !== 'http:')
        throw new TypeError(`createProxy: upstream must be an http(s) URL; it was "${this.base.href.slice(0, 80)}".`);
      this.#fetch = (url, init) => fetch(url, init);
      this.#direct = true;
    }
  }

  /** A GET whose whole answer is small (a poll): status and text. Throws `UpstreamFailure` like `call`. */
  async getSmall(url: URL, headers: Record<string, string>, timeoutMs: number, max: number): Promise<SmallAnswer> {
    const get = this.#direct ? await nodeGetter() : undefined;
    if (get) {
      try {
        return await get(url, headers, timeoutMs, max);
      } catch (err) {
        const code = codeOf(err);
        if (code && NOT_CONNECTED.has(code)) throw new UpstreamFailure('not-sent', err);
        throw new UpstreamFailure((err as Error).name === 'TimeoutError' ? 'timeout' : 'unknown', err);
      }
    }
    const response = await this.call(url, { headers }, AbortSignal.timeout(timeoutMs));
    return {
      status: response.status,
      text: await readText(response.body, max),
      retryAfter: response.headers.get('retry-after'),
    };
  }

  /** The upstream URL of a path from the route table (never a browser's path). */
  url(path: string): URL {
    const url = new URL(this.base);
    url.pathname = this.base.pathname.replace(/\/$/, '') + path;
    url.search = '';
    return url;
  }

  /**
   * Calls upstream. Throws `UpstreamFailure` saying whether upstream may have acted on the request;
   * `bodyFailed()` tells when the request body broke before it was complete.
   */
  async call(
    url: URL,
    init: UpstreamInit,
    signal: AbortSignal,
    bodyFailed: () => boolean = () => false,
  ): Promise<Response> {
    const send = () => this.#fetch(url, { ...init, redirect: supportedRedirect(init.redirect), signal });
    try {
      try {
        return await send();
      } catch (err) {
        // A GET (no body) whose kept-alive socket was reset before an answer goes once more.
        const method = (init.method ?? 'GET').toUpperCase();
        if ((method !== 'GET' && method !== 'HEAD') || signal.aborted || !resetBeforeAnswer(err)) throw err;
        return await send();
      }
    } catch (err) {
      if (bodyFailed() || err instanceof RequestNotBuilt) throw new UpstreamFailure('not-sent', err);
      if (signal.aborted && (signal.reason as Error | undefined)?.name === 'TimeoutError')
        throw new UpstreamFailure('timeout', err);
      const code = codeOf(err);
      if (code && NOT_CONNECTED.has(code)) throw new UpstreamFailure('not-sent', err);
      throw new UpstreamFailure('unknown', err);
    }
  }

  /** Whether a non-2xx answer is one the spec says charged nothing (every 4xx, and 500 with an error envelope). */
  static isFree(status: number, code: string): boolean {
    return (status >= 400 && status < 500) || (status === 500 && knownCode(code) !== undefined);
  }

  /** The browser's answer for an upstream error: a known code, a redacted message, never the upstream's headers. */
  async error(response: Response, capability: Capability | 'account'): Promise<ApiError> {
    return this.errorFrom(response.status, await ApiError.fromResponse(response), capability);
  }

  errorFrom(status: number, parsed: ApiError, capability: Capability | 'account'): ApiError {
    if (status === 401 || (status === 403 && parsed.code === 'unauthorized')) {
      this.log('error', `upstream refused the ${capability} key (${status} ${parsed.code}): ${parsed.message}`);
      return ApiError.of(
        'upstream_error',
        "The media service refused this site's API key. Nothing was charged. The site owner must check the proxy's keys.",
      );
    }
    if (status === 402)
      return ApiError.of(
        'insufficient_credits',
        "The site's credit balance is too low for this call; nothing was charged. Try again later.",
      );
    const code = knownCode(parsed.code);
    if (!code || (status >= 500 && code !== 'provider_error')) {
      this.log('warn', `upstream answered ${status} ${parsed.code}: ${parsed.message}`);
      return new ApiError(
        502,
        'upstream_error',
        'The media service failed to answer this request. Nothing was charged; try again in a moment.',
      );
    }
    return new ApiError(status, code, parsed.message, parsed.retryAfter);
  }
}
