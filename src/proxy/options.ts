/**
 * The proxy's public option and result types, and `resolveOptions`: every option checked once at
 * `createProxy`, with defaults filled in. An error names the option and the value that was passed.
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

const DEFAULT_LIMITS = {
  create: { limit: 30, windowSeconds: 60 },
  poll: { limit: 600, windowSeconds: 60 },
  session: { limit: 60, windowSeconds: 60 },
  // Keeping charges nothing and a headshot batch keeps up to four images: its own bucket, so a
  // user who keeps what they make is never slowed on making it.
  keep: { limit: 120, windowSeconds: 60 },
};

export type RateBucket = keyof typeof DEFAULT_LIMITS;

/** The options with defaults, checked. */
export interface Settings {
  keys: Partial<Record<Capability, string>>;
  configured: Capability[];
  allowedOrigins: Set<string>;
  /** Origins besides the upstream's that downloads may come from. */
  downloadOrigins: Set<string>;
  downloadTtlMs: number;
  windowSeconds: number;
  totalBudget: number | undefined;
  limits: Record<RateBucket, RateLimit>;
  idleMs: number;
  bodyTimeoutMs: number;
  maxBufferedPerSubject: number;
  maxBuffered: number;
  remoteImages: RemoteImagesPolicy;
  upstreamTimeoutMs: number;
  storeTimeoutMs: number;
  exposeAccountBalance: boolean;
  results: ResolvedResults | undefined;
}

export interface ResolvedResults {
  store: ResultStore;
  access: ResultAccess;
  quotaBytes: number;
  maxImageBytes: number;
  holdSeconds: number;
}

const show = (value: unknown): string => {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'function') return 'a function';
  try {
    return String(JSON.stringify(value)).slice(0, 60);
  } catch {
    return typeof value;
  }
};

function positive(options: ProxyOptions, name: keyof ProxyOptions, fallback: number, integer = false): number {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new TypeError(
      `createProxy: ${name} must be a positive ${integer ? 'whole ' : ''}number; it was ${show(value)}.`,
    );
  }
  return value;
}

export function resolveOptions(options: ProxyOptions): Settings {
  const keys: Partial<Record<Capability, string>> = {};
  for (const [capability, key] of Object.entries(options.keys ?? {}) as [Capability, unknown][]) {
    if (key === undefined || key === '') continue;
    if (typeof key !== 'string' || /\s/.test(key))
      throw new TypeError(
        `createProxy: keys.${capability} must be the API key as a string without spaces; it was ${typeof key === 'string' ? 'a string with spaces' : show(key)}.`,
      );
    keys[capability] = key;
  }
  const configured = Object.keys(keys) as Capability[];
  if (configured.length === 0)
    throw new TypeError(
      `createProxy: \`keys\` needs at least one of video, headshot, generate, imageTools; it was ${show(options.keys)}.`,
    );
  const allowedOrigins = new Set<string>();
  for (const origin of options.allowedOrigins ?? []) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
      throw new TypeError(
        `createProxy: allowedOrigins entry ${show(origin)} is not an origin such as "https://shop.example".`,
      );
    allowedOrigins.add(parsed.origin);
  }
  const downloadOrigins = new Set<string>();
  for (const origin of options.downloadOrigins ?? []) {
    let parsed: URL | undefined;
    try {
      parsed = typeof origin === 'string' ? new URL(origin) : undefined;
    } catch {
      parsed = undefined;
    }
    // An origin only: a path would read as if it limited downloads to that path.
    if (
      !parsed ||
      (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') ||
      parsed.username ||
      parsed.password ||
      parsed.pathname !== '/' ||
      parsed.search ||
      parsed.hash
    )
      throw new TypeError(
        `createProxy: downloadOrigins entry ${show(origin)} is not an origin such as "https://files.provider.example".`,
      );
    downloadOrigins.add(parsed.origin);
  }
  const limits = { ...DEFAULT_LIMITS };
  for (const [bucket, limit] of Object.entries(options.rateLimits ?? {}) as [RateBucket, RateLimit | undefined][]) {
    if (limit === undefined) continue;
    if (!(bucket in DEFAULT_LIMITS) || !limit || !(limit.limit > 0) || !(limit.windowSeconds > 0)) {
      throw new TypeError(
        `createProxy: rateLimits.${bucket} must be { limit, windowSeconds } with positive numbers; it was ${show(limit)}.`,
      );
    }
    limits[bucket] = limit;
  }
  const remote = options.remoteImages ?? 'public';
  if (remote !== 'public' && remote !== 'deny' && typeof remote !== 'function') {
    throw new TypeError(
      `createProxy: remoteImages must be 'public', 'deny' or a function (url) => boolean; it was ${show(remote)}.`,
    );
  }
  if (options.totalBudget !== undefined && (!Number.isInteger(options.totalBudget) || options.totalBudget < 0)) {
    throw new TypeError(
      `createProxy: totalBudget must be a whole number of credits; it was ${show(options.totalBudget)}.`,
    );
  }
  return {
    keys,
    configured,
    allowedOrigins,
    downloadOrigins,
    downloadTtlMs: positive(options, 'downloadTtlSeconds', 900) * 1000,
    windowSeconds: positive(options, 'budgetWindowSeconds', 86_400, true),
    totalBudget: options.totalBudget,
    limits,
    idleMs: positive(options, 'uploadIdleTimeoutMs', 30_000),
    bodyTimeoutMs: positive(options, 'bodyTimeoutMs', 120_000),
    maxBufferedPerSubject: positive(options, 'maxBufferedBytesPerSubject', 128 * 1024 * 1024),
    maxBuffered: positive(options, 'maxBufferedBytes', 512 * 1024 * 1024),
    remoteImages: remote,
    upstreamTimeoutMs: positive(options, 'upstreamTimeoutMs', 120_000),
    storeTimeoutMs: positive(options, 'storeTimeoutMs', 2_000),
    exposeAccountBalance: options.exposeAccountBalance === true,
    results: resolveResults(options),
  };
}

function resolveResults(options: ProxyOptions): ResolvedResults | undefined {
  const r = options.results;
  if (r === undefined) return undefined;
  if (!r || typeof r !== 'object')
    throw new TypeError(
      `createProxy: results must be { store, access?, quotaBytes?, maxImageBytes?, holdSeconds? }; it was ${show(r)}.`,
    );
  const store = r.store as Partial<ResultStore> | undefined;
  const methods = ['put', 'get', 'head', 'delete'] as const;
  if (!store || typeof store !== 'object' || methods.some((m) => typeof store[m] !== 'function')) {
    throw new TypeError(
      `createProxy: results.store must be a ResultStore with put, get, head and delete (fileResultStore({ dir }), s3ResultStore(...) or your own); it was ${store && typeof store === 'object' ? `an object without ${methods.filter((m) => typeof store[m] !== 'function').join(', ')}` : show(store)}.`,
    );
  }
  const access = r.access ?? 'public';
  if (access !== 'public' && access !== 'owner' && typeof access !== 'function')
    throw new TypeError(
      `createProxy: results.access must be 'public', 'owner' or a function (request, owner) => boolean; it was ${show(access)}.`,
    );
  // A store that answers its own public URLs (s3ResultStore's publicBaseUrl) serves every kept file
  // to anyone with the link, without the proxy's nosniff and CSP: no read check can hold there.
  if (access !== 'public' && (store as ResultStore).publicUrls === true)
    throw new TypeError(
      `createProxy: results.access is ${typeof access === 'function' ? 'a function' : "'owner'"}, but results.store answers public URLs (s3ResultStore's publicBaseUrl), which anyone with the link can read. Leave out publicBaseUrl (the proxy then serves kept files and checks who reads them), or set results.access to 'public'.`,
    );
  const bytes = (name: 'quotaBytes' | 'maxImageBytes', fallback: number, min: number) => {
    const value = r[name];
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
      throw new TypeError(
        `createProxy: results.${name} must be a whole number of bytes, ${min} or more; it was ${show(value)}.`,
      );
    return value;
  };
  const store2 = options.store as Record<string, unknown> | undefined;
  if (store2 && ['holdBytes', 'dropBytes', 'bytesUsed'].some((m) => typeof store2[m] !== 'function'))
    throw new TypeError(
      'createProxy: results needs a `store` that counts kept bytes (holdBytes, dropBytes, bytesUsed): MemoryStore and RedisStore do; add them to your own store.',
    );
  return {
    store: store as ResultStore,
    access,
    quotaBytes: bytes('quotaBytes', 1024 * 1024 * 1024, 0),
    maxImageBytes: bytes('maxImageBytes', 25 * 1024 * 1024, 1),
    holdSeconds: holdSecondsOf(r.holdSeconds),
  };
}

function holdSecondsOf(value: unknown): number {
  if (value === undefined) return 300;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 1 || value > 86_400)
    throw new TypeError(
      `createProxy: results.holdSeconds must be a number of seconds from 1 to 86400; it was ${show(value)}.`,
    );
  return value;
}
