/**
 * `resolveOptions`: every option checked once at `createProxy`, with defaults filled in, as the
 * `Settings` the handlers read. An error names the option and the value that was passed.
 */
import type { Capability } from '../api/index.js';
import type { ResultStore } from './keep/result-store.js';
import type { ProxyOptions, RateLimit, RemoteImagesPolicy, ResultAccess } from './options.js';

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
