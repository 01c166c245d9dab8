/**
 * The session token: fetched lazily from the proxy (`POST {endpoint}/session`, with the site's own
 * cookies) or from the host's `session()` function, reused until shortly before it expires, one
 * request in flight however many calls wait. A 401 invalidates it (MediaClient retries once).
 */
import { ApiError } from '../api/index.js';
import { abortable } from './async.js';

export interface SessionInfo {
  token: string;
  /** Expiry by this browser's clock (ms since the epoch): arrival plus the token's lifetime. */
  expiresAt: number;
  /** The token's subject, hashed: the scope under which this user's jobs are stored. */
  subjectHash: string;
  /** The proxy keeps results (it has a `results` store): the token's `keep` claim. */
  keep: boolean;
}

/** Refresh when less than this share of the token's life is left (and at least 30 s). */
const REFRESH_SHARE = 0.2;
const MIN_MARGIN_MS = 30_000;

interface Claims {
  sub?: unknown;
  exp?: unknown;
  iat?: unknown;
  keep?: unknown;
}

/** The token's claims, read without verification: only the proxy verifies; we need exp and sub. */
function readClaims(token: string): Claims {
  const part = token.split('.')[1];
  if (!part) return {};
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4))) as Claims;
  } catch {
    return {};
  }
}

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
}

export type TokenSource = (signal?: AbortSignal) => Promise<string>;
/** Told when a token's subject differs from the last one this manager saw (its first token included). */
export type SubjectListener = (subjectHash: string) => Promise<void>;

/** The page's managers, so clearStoredData() can make each fetch a new session. */
const managers = new Set<WeakRef<SessionManager>>();

export class SessionManager {
  /** Drops the token every manager in this page holds (a user logged out); their next `get` fetches one. */
  static forgetAll(): void {
    for (const ref of managers) {
      const manager = ref.deref();
      if (manager) manager.#current = undefined;
      else managers.delete(ref);
    }
  }

  readonly #source: TokenSource;
  readonly #onSubject: SubjectListener | undefined;
  #current: SessionInfo | undefined;
  #inflight: Promise<SessionInfo> | undefined;
  #margin = MIN_MARGIN_MS;
  #subject: string | undefined;

  constructor(source: TokenSource, onSubject?: SubjectListener) {
    this.#source = source;
    this.#onSubject = onSubject;
    managers.add(new WeakRef(this));
  }

  /** A valid session, fetching one when none is held or the held one is about to expire. */
  get(signal?: AbortSignal): Promise<SessionInfo> {
    const now = Date.now();
    if (this.#current && this.#current.expiresAt - this.#margin > now) return Promise.resolve(this.#current);
    // One fetch for every caller; a caller's abort stops its wait, not the shared fetch.
    this.#inflight ??= this.#fetch().finally(() => (this.#inflight = undefined));
    return signal ? abortable(this.#inflight, signal) : this.#inflight;
  }

  /** Forget `token` (the proxy refused it); the next `get` fetches a new one. */
  invalidate(token: string): void {
    if (this.#current?.token === token) this.#current = undefined;
  }

  async #fetch(): Promise<SessionInfo> {
    const token = await this.#source();
    const received = Date.now();
    if (typeof token !== 'string' || token.split('.').length !== 3) {
      throw new ApiError(
        401,
        'unauthorized',
        'The session function did not return a session token; it must resolve to the token string your backend minted with mintToken().',
      );
    }
    const claims = readClaims(token);
    // The token's lifetime (exp - iat, both server time) counted from when it arrived here, so a
    // visitor whose clock is off by minutes neither refreshes on every call nor sends expired tokens.
    const lifetime =
      typeof claims.exp === 'number' && typeof claims.iat === 'number' && claims.exp > claims.iat
        ? (claims.exp - claims.iat) * 1000
        : 60_000;
    this.#margin = Math.max(MIN_MARGIN_MS, lifetime * REFRESH_SHARE);
    // A token shorter-lived than the margin would be refreshed on every call; keep it for half its life then.
    if (lifetime <= this.#margin) this.#margin = lifetime / 2;
    const info = {
      token,
      expiresAt: received + lifetime,
      subjectHash: await sha256Hex(String(claims.sub ?? '')),
      keep: claims.keep === true,
    };
    if (info.subjectHash !== this.#subject && this.#onSubject) {
      // Before anyone gets the session: the new user never sees, even briefly, what the last one left.
      await this.#onSubject(info.subjectHash).catch((err: unknown) =>
        console.warn("[mediakit] could not delete the previous user's data from this device", err),
      );
    }
    this.#subject = info.subjectHash;
    this.#current = info;
    return info;
  }
}
