/**
 * The proxy's public option types: what a site passes to `createProxy` and what it gets back.
 * settings.ts checks them once, with defaults filled in.
 */
import type { Capability } from '../api/index.js';
import type { ResultStore } from './keep/result-store.js';
import type { SecretOption } from './tokens/secrets.js';
import type { ProxyStore } from './state/state-store.js';
import type { SessionClaims } from './tokens/tokens.js';

/** What the site's `authorize` hook returns for a signed-in (or anonymous but allowed) end user. */
export interface AuthorizeResult {
  /** Stable id of the end user (the site's user id, or an anonymous id in a cookie). Jobs are bound to it. */
  subject: string;
  /** Capabilities to grant; default: every capability the proxy has a key for. */
  capabilities?: Capability[];
  /** Credits this subject may spend per budget window (default window: one day). */
  budget: number;
  /**
   * A team or site the subject works in (1-200 characters). Its jobs are bound to the scope: every
   * subject of the scope can poll, download and keep them. Budgets and rate limits stay per subject.
   */
  scope?: string;
  /** Bytes of kept results this subject may hold; overrides `results.quotaBytes`. */
  storageQuota?: number;
}

/** Who a kept result belongs to, for an `access` function: the keeping subject and its scope, if any. */
export interface ResultOwner {
  subject: string;
  scope?: string;
}

/**
 * Who may read a kept result at its URL: `'public'` (anyone holding the unguessable URL),
 * `'owner'` (the site's `authorize(request)`, or a session token, must name the subject that kept
 * it, or its scope when it was kept under one), or your own check. A refused read is a 404.
 */
export type ResultAccess = 'public' | 'owner' | ((request: Request, owner: ResultOwner) => boolean | Promise<boolean>);

/** Kept results: the proxy streams results into the site's store, so they outlive the provider's links. */
export interface ResultsOptions {
  /** Where kept results go: `fileResultStore({ dir })`, `s3ResultStore(...)` or your own `ResultStore`. */
  store: ResultStore;
  /** Who may read a kept result. Default `'public'`. */
  access?: ResultAccess;
  /** Bytes each subject may keep (a session's `storageQuota` overrides it). Default 1 GiB. */
  quotaBytes?: number;
  /** The largest image a page may keep (headshots, background removal). Default 25 MiB. */
  maxImageBytes?: number;
  /**
   * How long the quota a keep in progress holds lasts unless renewed; the keep renews it while it
   * streams, so a proxy that dies mid-keep frees it after this. Default 300 s.
   */
  holdSeconds?: number;
}

export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

export interface ProxyLogEvent {
  level: 'warn' | 'error';
  message: string;
}

/**
 * Which remote image URLs (`image_url`, 3D `images`) the proxy forwards: `'public'` (http(s) URLs of
 * public hosts only), `'deny'` (none: uploads and data URLs only), or your own check.
 */
export type RemoteImagesPolicy = 'public' | 'deny' | ((url: URL) => boolean | Promise<boolean>);

export interface ProxyOptions {
  /** The media API's base URL, or a fetch function (for example the sandbox's, in-process). */
  upstream: string | URL | ((request: Request) => Promise<Response>);
  /** The site's API keys, one per capability it uses. Never sent anywhere but upstream. */
  keys: Partial<Record<Capability, string>>;
  /** At least 32 bytes; or `{ current: { id, secret }, previous: [...] }` to rotate. */
  secret: SecretOption;
  /** The site's check: who is this request's end user, what may they do? `null` answers 401. */
  authorize(request: Request): AuthorizeResult | null | Promise<AuthorizeResult | null>;
  /** Where the proxy is mounted. Default `/mediakit`. */
  basePath?: string;
  /** Other origins whose pages may call the proxy (CORS). Same-origin pages always may. Default none. */
  allowedOrigins?: string[];
  /**
   * Other origins whose files a job's download links may name (a provider's storage, such as
   * `"https://files.provider.example"`). The proxy streams a download only from the upstream's own
   * origin or one of these, so no link (and no ticket, even one forged with a stolen secret) makes
   * it fetch another host. Default none.
   */
  downloadOrigins?: string[];
  /** Budgets and rate limits. Default: in memory (one instance). Use `RedisStore` for several. */
  store?: ProxyStore;
  /** Session token lifetime. Default 900 s; the elements refresh before expiry. */
  tokenTtlSeconds?: number;
  /** Lifetime of download URLs in job outputs. Default 900 s; polling again mints fresh ones. */
  downloadTtlSeconds?: number;
  /** The period a budget counts over. Default 86 400 s (a day). */
  budgetWindowSeconds?: number;
  /** Credits all subjects together may spend per budget window (a site-wide cap on top of each session's budget). Default: no cap. */
  totalBudget?: number;
  /** Per-subject limits: job creation and other charged calls, polls and downloads, session requests, keeping results (default 120 a minute). */
  rateLimits?: { create?: RateLimit; poll?: RateLimit; session?: RateLimit; keep?: RateLimit };
  /** Let `GET /api/v1/account` and X-Credits-Remaining show the site's whole balance. Default false: they show the session's. */
  exposeAccountBalance?: boolean;
  /** A request body that sends nothing for this long is cut (408). Default 30 000 ms. */
  uploadIdleTimeoutMs?: number;
  /** Time allowed to receive a whole body the proxy reads before forwarding (headshots, image tools, 3D jobs). Default 120 000 ms. */
  bodyTimeoutMs?: number;
  /** Body bytes one subject may have buffered in the proxy at once. Default 128 MiB (one largest 3D job body fits). */
  maxBufferedBytesPerSubject?: number;
  /** Body bytes all subjects together may have buffered at once. Default 512 MiB. */
  maxBufferedBytes?: number;
  /** Remote image URLs the proxy forwards. Default `'public'`. */
  remoteImages?: RemoteImagesPolicy;
  /** Time allowed to upstream for a call without an upload body. Default 120 000 ms (headshots are synchronous). */
  upstreamTimeoutMs?: number;
  /** Time allowed to the store per operation before the call is refused (fail closed). Default 2 000 ms. */
  storeTimeoutMs?: number;
  /** Token `iss` and `aud`. Defaults: `mediakit-proxy` and `mediakit:<basePath>`. Store keys carry the audience: give each site its own when sites share a store. */
  issuer?: string;
  audience?: string;
  /**
   * Keep results: `POST {basePath}/results` streams a job's file (or a page's image) into this store
   * and answers a permanent URL. Needs a store (`store`) with byte ledgers (MemoryStore and
   * RedisStore have them). Default: off.
   */
  results?: ResultsOptions;
  /** Where warnings go (already redacted, control characters escaped). Default: console. */
  log?: (event: ProxyLogEvent) => void;
}

export interface Proxy {
  fetch(request: Request): Promise<Response>;
  /** A session token for claims your own backend vouches for (the `session` property of the elements). */
  mintToken(claims: SessionClaims & { ttlSeconds?: number }): Promise<string>;
  readonly basePath: string;
}
