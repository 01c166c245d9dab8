/**
 * What the proxy answers with: JSON and error envelopes (messages redacted), CORS headers, and the
 * log (redacted, control characters escaped so an upstream message cannot forge a log line).
 */
import { ApiError, HEADERS, type ErrorCode } from '../../api/index.js';
import type { ProxyLogEvent } from '../options.js';

export const PROXY_HEADERS = [
  HEADERS.creditsCharged,
  HEADERS.creditsRemaining,
  HEADERS.rateLimitLimit,
  HEADERS.rateLimitRemaining,
  HEADERS.retryAfter,
  HEADERS.location,
  'idempotent-replayed',
];

/** A failure that is answered as an error envelope. */
export function refuse(code: ErrorCode, message: string, retryAfter?: number): never {
  throw ApiError.of(code, message, retryAfter);
}

/** A refusal that carries headers (rate limits). */
export function refuseWith(
  headers: Record<string, string>,
  code: ErrorCode,
  message: string,
  retryAfter?: number,
): never {
  throw Object.assign(ApiError.of(code, message, retryAfter), { headers });
}

const BASE_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

export function json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...BASE_HEADERS, ...headers } });
}

export function errorResponse(
  err: ApiError,
  redact: (s: string) => string,
  headers: Record<string, string> = {},
): Response {
  const extra: Record<string, string> = {
    ...headers,
    ...((err as ApiError & { headers?: Record<string, string> }).headers ?? {}),
  };
  if (err.retryAfter !== undefined) extra[HEADERS.retryAfter] = String(err.retryAfter);
  return json({ error: { code: err.code, message: redact(err.message) } }, err.status, extra);
}

/** CORS headers for an allowed cross-origin caller, `{}` for same-origin, 'refused' for any other origin. */
export function cors(request: Request, url: URL, allowed: Set<string>): Record<string, string> | 'refused' {
  const origin = request.headers.get('origin');
  if (!origin || origin === url.origin || request.headers.get('sec-fetch-site') === 'same-origin') return {};
  if (!allowed.has(origin)) return 'refused';
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': PROXY_HEADERS.join(', '),
    vary: 'Origin',
  };
}

/** Control characters (and the Unicode line separators) written as escapes: one event, one line. */
export function escapeControl(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
  });
}

export type Log = (level: ProxyLogEvent['level'], message: string) => void;

export function makeLog(sink: ((event: ProxyLogEvent) => void) | undefined, redact: (s: string) => string): Log {
  return (level, message) => {
    const event = { level, message: escapeControl(redact(message)) };
    if (sink) sink(event);
    else console[level === 'error' ? 'error' : 'warn']('[mediakit proxy]', event.message);
  };
}

/** An error's message for a log line. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
