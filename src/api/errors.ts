/**
 * Error codes of the API, documented in one place. The spec names only `provider_error`
 * ("The full list of error code values: not shown"); the rest are ours, stable, and shared by the
 * sandbox, the proxy and the client. Every refusal is `{ error: { code, message } }` and charges
 * nothing.
 */
export const ERROR_CODES = {
  /** 400: a parameter is missing, malformed or out of range; the message names the field and the fix. */
  invalid_request: 400,
  /** 400: an Idempotency-Key was reused with a different request body or endpoint. */
  idempotency_conflict: 400,
  /** 401: no key, an unknown key, or a key of another capability (or an invalid session token). */
  unauthorized: 401,
  /** 402: the balance (or the session's budget) is below the price of the call. Checked before work. */
  insufficient_credits: 402,
  /** 403: a download link whose signature is wrong or whose time is over; poll the job again for a fresh one. */
  link_expired: 403,
  /** 403: the session may not do this: a capability its token lacks, an origin the proxy does not allow, the account balance when it is not exposed. */
  forbidden: 403,
  /** 404: no such route, or a job that does not exist for this key. */
  not_found: 404,
  /** 405: the route exists but not with this method. */
  method_not_allowed: 405,
  /** 408: an upload stopped sending data for longer than the proxy's idle timeout. */
  upload_timeout: 408,
  /** 410: the job's result was purged by the provider; a new job must be started. */
  expired: 410,
  /** 411: a video upload without Content-Length (the proxy must judge the size before reading). */
  length_required: 411,
  /** 413: the video is larger than 500 MB (judged from Content-Length before reading when sent). */
  payload_too_large: 413,
  /** 415: a body of a content type the endpoint does not take (for example XML, or multipart on the 3D endpoint). */
  unsupported_content_type: 415,
  /** 422: the video is not MP4/MOV by its bytes, or is over 3 minutes or over 1080p. */
  unsupported_media: 422,
  /** 429: too many requests; wait the Retry-After seconds. */
  rate_limited: 429,
  /** 500: the provider failed (at creation, or every headshot variant failed). */
  provider_error: 500,
  /** 502: the proxy could not reach the media service, or the service refused the site's key. */
  upstream_error: 502,
  /** 503: the proxy's store (budgets, rate limits) is unreachable, so it refuses rather than spend unchecked. */
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Why a call failed, stable and fit for translation (the English message stays as the fallback).
 * Validation in the browser sets the precise one (`too_long`, `resolution`, ...); an answer from
 * the server gets one derived from its code and status.
 */
export type ErrorReason =
  | 'empty'
  | 'too_large'
  | 'not_video'
  | 'not_image'
  | 'unreadable'
  | 'undecodable'
  | 'too_long'
  | 'resolution'
  | 'image_count'
  | 'prompt_length'
  | 'invalid'
  | 'insufficient_credits'
  | 'rate_limited'
  | 'network'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'expired'
  | 'upload_timeout'
  | 'conflict'
  | 'provider'
  | 'unavailable'
  | 'unknown';

/** Values a message about the error needs: `{ seconds, max }`, `{ bytes, max }`, `{ width, height }`. */
export type ErrorParams = Record<string, number | string>;

/** The reason an answer with this code and status stands for. */
export function reasonOf(status: number, code: string): ErrorReason {
  switch (code) {
    case 'insufficient_credits':
      return 'insufficient_credits';
    case 'rate_limited':
      return 'rate_limited';
    case 'network_error':
      return 'network';
    case 'unauthorized':
      return 'unauthorized';
    case 'forbidden':
    case 'link_expired':
      return 'forbidden';
    case 'not_found':
      return 'not_found';
    case 'expired':
      return 'expired';
    case 'upload_timeout':
      return 'upload_timeout';
    case 'idempotency_conflict':
      return 'conflict';
    case 'payload_too_large':
      return 'too_large';
    case 'unsupported_media':
      return 'not_video';
    case 'provider_error':
      return 'provider';
    case 'unavailable':
    case 'upstream_error':
      return 'unavailable';
    case 'invalid_request':
    case 'unsupported_content_type':
      return 'invalid';
  }
  if (status === 0) return 'network';
  if (status >= 500) return 'unavailable';
  return 'unknown';
}

/** A failed API call, as every layer sees it. `retryAfter` is in seconds (from Retry-After). */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly retryAfter: number | undefined;
  /** Why, stable and fit for translation. */
  readonly reason: ErrorReason;
  /** What a translated message needs (seconds, limits, sizes). */
  readonly params: ErrorParams;

  constructor(
    status: number,
    code: string,
    message: string,
    retryAfter?: number,
    reason?: ErrorReason,
    params?: ErrorParams,
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
    this.reason = reason ?? reasonOf(status, code);
    this.params = params ?? (retryAfter !== undefined ? { seconds: retryAfter } : {});
  }

  toJSON(): { error: { code: string; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }

  /** The error for a code, with the code's status. */
  static of(code: ErrorCode, message: string, retryAfter?: number): ApiError {
    return new ApiError(ERROR_CODES[code], code, message, retryAfter);
  }

  /** Reads an error envelope from a response (without throwing on a body that is not one). */
  static async fromResponse(response: Response): Promise<ApiError> {
    const retryHeader = response.headers.get('retry-after');
    const retryAfter = retryHeader !== null && /^\d+$/.test(retryHeader) ? Number(retryHeader) : undefined;
    let code = 'http_' + response.status;
    let message = `The request failed with HTTP ${response.status}.`;
    try {
      const body = (await response.json()) as Partial<{ error: { code?: unknown; message?: unknown } }>;
      if (typeof body.error?.code === 'string') code = body.error.code;
      if (typeof body.error?.message === 'string') message = body.error.message;
    } catch {
      // Not JSON (a gateway page, a cut connection): keep the generic message.
    }
    return new ApiError(response.status, code, message, retryAfter);
  }
}
