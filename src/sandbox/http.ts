import { ApiError, HEADERS, type ErrorCode } from '../api/index.js';

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export function errorResponse(err: ApiError, headers: Record<string, string> = {}): Response {
  const extra: Record<string, string> = { ...headers };
  if (err.retryAfter !== undefined) extra['retry-after'] = String(err.retryAfter);
  return json(err.toJSON(), err.status, extra);
}

/** Throws the API error for `code`; used by validation so handlers read top to bottom. */
export function fail(code: ErrorCode, message: string, retryAfter?: number): never {
  throw ApiError.of(code, message, retryAfter);
}

export function bytesResponse(bytes: Uint8Array, contentType: string, headers: Record<string, string> = {}): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      'content-type': contentType,
      'content-length': String(bytes.byteLength),
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=0',
      ...headers,
    },
  });
}

/** X-Credits-Charged and X-Credits-Remaining, on every answer that charged. */
export function chargeHeaders(charged: number, remaining: number): Record<string, string> {
  return { [HEADERS.creditsCharged]: String(charged), [HEADERS.creditsRemaining]: String(remaining) };
}
