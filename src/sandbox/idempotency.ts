/**
 * Idempotency-Key replay (spec "General rules" 5): per API key, the first request with a key runs;
 * concurrent and later requests with the same key and the same content get its response (status,
 * body, headers) and are never charged again.
 *
 * Choices where the spec is silent:
 * - Only successful answers (2xx) are stored. An error charged nothing, so a retry after a 429,
 *   402 or 400 runs again instead of replaying the refusal forever.
 * - The same key with different content (another endpoint, other fields, another file) is a 400
 *   `idempotency_conflict`, as Stripe does. Content means parsed fields, not raw bytes, because a
 *   browser re-sending one FormData picks a new multipart boundary.
 * - Keys are kept 24 hours of sandbox time.
 * - Replays carry `Idempotent-Replayed: true`.
 */
import { ApiError } from '../api/index.js';

export interface StoredResponse {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
}

interface Entry {
  fingerprint: string;
  at: number;
  result: Promise<StoredResponse>;
}

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export class IdempotencyCache {
  readonly #entries = new Map<string, Entry>();

  constructor(private readonly now: () => number) {}

  /**
   * Runs `work` once per (apiKey, key) and answers its response; requests that arrive while it runs
   * get the same answer, later ones a replay of a stored 2xx. `work` must not throw.
   */
  async run(apiKey: string, key: string, fingerprint: string, work: () => Promise<Response>): Promise<Response> {
    const id = apiKey + '\n' + key;
    const existing = this.#entries.get(id);
    if (existing && this.now() - existing.at < IDEMPOTENCY_TTL_MS) {
      if (existing.fingerprint !== fingerprint) {
        throw ApiError.of(
          'idempotency_conflict',
          'This Idempotency-Key was already used for a different request. Use a new key for new content, or resend exactly the same request to get its original answer.',
        );
      }
      return toResponse(await existing.result, true);
    }
    const entry: Entry = {
      fingerprint,
      at: this.now(),
      result: work().then(async (response) => ({
        status: response.status,
        headers: [...response.headers],
        body: new Uint8Array(await response.arrayBuffer()),
      })),
    };
    this.#entries.set(id, entry);
    const stored = await entry.result;
    if ((stored.status < 200 || stored.status > 299) && this.#entries.get(id) === entry) this.#entries.delete(id);
    return toResponse(stored, false);
  }
}

function toResponse(stored: StoredResponse, replayed: boolean): Response {
  const headers = new Headers(stored.headers);
  if (replayed) headers.set('idempotent-replayed', 'true');
  return new Response(stored.body.slice() as Uint8Array<ArrayBuffer>, { status: stored.status, headers });
}
