/**
 * One call of `MediaClient` with its retries, over the state the client keeps for its endpoint
 * (the session, the credit ledger, the server's clock).
 */
import { ApiError, HEADERS } from '../api/index.js';
import type { UploadProgress } from '../events/upload-progressed.js';
import { sleep } from './async.js';
import type { CallOptions } from './client-types.js';
import type { CreditLedger } from './credit-ledger.js';
import type { SessionManager } from './session.js';

/** The upload transport loads with the first request that sends a body (a page that only shows jobs never does). */
const transport = () => import('./upload.js');

/** What a call needs of its client; `clockOffset` (server clock minus ours, ms) is written by each answer. */
export interface Line {
  readonly session: SessionManager;
  readonly credits: CreditLedger;
  readonly attempts: number;
  readonly maxWait: number;
  readonly crossOrigin: boolean;
  clockOffset: number;
}

export interface SendInit extends CallOptions {
  method: 'GET' | 'POST';
  body?: XMLHttpRequestBodyInit;
  headers?: Record<string, string>;
  key?: string | undefined;
  onProgress?: ((p: UploadProgress) => void) | undefined;
}

/**
 * One call with its retries: a 401 refreshes the session once; 429 and 503 wait Retry-After;
 * a lost connection is tried again when that is safe (reads, and writes with an Idempotency-Key,
 * which the API answers with the original response instead of charging twice).
 */
export async function fetchWithRetry(line: Line, url: string, init: SendInit, auth: boolean): Promise<Response> {
  const { signal } = init;
  let refreshed = false;
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    const headers: Record<string, string> = { ...init.headers };
    let token: string | undefined;
    if (auth) {
      token = (await line.session.get(signal)).token;
      headers['authorization'] = `Bearer ${token}`;
    }
    if (init.key) headers[HEADERS.idempotencyKey] = init.key;
    let response: Response;
    try {
      response =
        init.method === 'POST' && init.body !== undefined
          ? await (
              await transport()
            ).xhrFetch(url, {
              method: 'POST',
              headers,
              body: init.body,
              signal,
              onProgress: init.onProgress,
              withCredentials: line.crossOrigin,
            })
          : await fetch(url, {
              method: init.method,
              headers,
              signal: signal ?? null,
              credentials: line.crossOrigin ? 'include' : 'same-origin',
            });
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      // upload.ts's NetworkError (by name: that module loads only with the first body sent) or fetch's TypeError.
      if (!(err instanceof TypeError || (err instanceof Error && err.name === 'NetworkError'))) throw err;
      const safe = init.method === 'GET' || init.key !== undefined;
      if (safe && attempt < line.attempts) {
        await sleep(Math.min(8000, 500 * 2 ** (attempt - 1)), signal);
        continue;
      }
      throw new ApiError(
        0,
        'network_error',
        `The connection to ${new URL(url).host} failed; check the network and try again.${init.key ? ' Trying again will not charge twice.' : ''}`,
      );
    }
    line.credits.observe(response.headers);
    const date = Date.parse(response.headers.get('date') ?? '');
    if (Number.isFinite(date)) line.clockOffset = date - Date.now();
    if (response.ok) return response;
    if (response.status === 401 && token && !refreshed) {
      refreshed = true;
      attempt--;
      line.session.invalidate(token);
      continue;
    }
    const error = await ApiError.fromResponse(response);
    const wait = error.retryAfter;
    if (
      (response.status === 429 || response.status === 503) &&
      wait !== undefined &&
      wait <= line.maxWait &&
      attempt < line.attempts
    ) {
      init.onWait?.({ seconds: wait, status: response.status });
      await sleep(wait * 1000, signal);
      continue;
    }
    throw error;
  }
}
