/**
 * `createProxy(options)`: the session-token proxy as a Web-standard `fetch(Request)` handler.
 *
 * Routes under `basePath` (default `/mediakit`):
 * - `POST /session`: runs the site's `authorize(request)` and answers a short-lived token.
 * - `GET /session`: the session's budget (what `<credit-badge>` shows).
 * - The spec's endpoints at the same paths (`/api/v1/...`), with `Authorization: Bearer <token>`
 *   and job *handles* in place of job ids.
 * - `GET /files/<ticket>/<name>`: signed, short-lived download URLs that job outputs point at.
 *
 * Nothing else is forwarded. See README "Security model" for what each value can do.
 */
import {
  ApiError,
  COSTS,
  HEADERS,
  IDEMPOTENCY_KEY_PATTERN,
  matchRoute,
  maxRequestBytes,
  headshotCharge,
  readCapped,
  type Capability,
  type ErrorCode,
  type RouteSpec,
} from '../api/index.js';
import { normalizeBasePath, pathProblem } from './paths.js';
import { FILE_KINDS, knownCode, makeRedactor, modelJobView, videoJobView, type FileKind, type Rewriter } from './rewrite.js';
import { Keyring, digestName, hmac, type SecretOption } from './secrets.js';
import { MemoryStore, type ProxyStore } from './store.js';
import { checkClaims, signToken, verifyToken, type SessionClaims, type TokenSettings, type VerifiedSession } from './tokens.js';

/** What the site's `authorize` hook returns for a signed-in (or anonymous but allowed) end user. */
export interface AuthorizeResult {
  /** Stable id of the end user (the site's user id, or an anonymous id in a cookie). Jobs are bound to it. */
  subject: string;
  /** Capabilities to grant; default: every capability the proxy has a key for. */
  capabilities?: Capability[];
  /** Credits this subject may spend per budget window (default window: one day). */
  budget: number;
}

export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

export interface ProxyLogEvent {
  level: 'warn' | 'error';
  message: string;
}

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
  /** Budgets and rate limits. Default: in memory (one instance). Use `RedisStore` for several. */
  store?: ProxyStore;
  /** Session token lifetime. Default 900 s; the elements refresh before expiry. */
  tokenTtlSeconds?: number;
  /** Lifetime of download URLs in job outputs. Default 900 s; polling again mints fresh ones. */
  downloadTtlSeconds?: number;
  /** The period a budget counts over. Default 86 400 s (a day). */
  budgetWindowSeconds?: number;
  /** Per-subject limits: job creation and other charged calls, polls and downloads, session requests. */
  rateLimits?: { create?: RateLimit; poll?: RateLimit; session?: RateLimit };
  /** Let `GET /api/v1/account` and X-Credits-Remaining show the site's whole balance. Default false: they show the session's. */
  exposeAccountBalance?: boolean;
  /** An upload that sends nothing for this long is cut (408). Default 30 000 ms. */
  uploadIdleTimeoutMs?: number;
  /** Time allowed to upstream for a call without an upload body. Default 120 000 ms (headshots are synchronous). */
  upstreamTimeoutMs?: number;
  /** Time allowed to the store per operation before the call is refused (fail closed). Default 2 000 ms. */
  storeTimeoutMs?: number;
  /** Token `iss` and `aud`. Defaults: `mediakit-proxy` and `mediakit:<basePath>`. */
  issuer?: string;
  audience?: string;
  /** Where warnings go (already redacted). Default: console. */
  log?: (event: ProxyLogEvent) => void;
}

export interface Proxy {
  fetch(request: Request): Promise<Response>;
  /** A session token for claims your own backend vouches for (the `session` property of the elements). */
  mintToken(claims: SessionClaims & { ttlSeconds?: number }): Promise<string>;
  readonly basePath: string;
}

/** The job handle pattern in paths: a sealed value, base64url. */
const HANDLE_PATTERN = /^[A-Za-z0-9_-]{40,400}$/;
const FILE_PATH = /^\/files\/([A-Za-z0-9_-]{40,2000})(?:\/[A-Za-z0-9._-]{1,64})?$/;
const PROXY_HEADERS = [HEADERS.creditsCharged, HEADERS.creditsRemaining, HEADERS.rateLimitLimit, HEADERS.rateLimitRemaining, HEADERS.retryAfter, HEADERS.location, 'idempotent-replayed'];
const encoder = new TextEncoder();

const DEFAULT_LIMITS = {
  create: { limit: 30, windowSeconds: 60 },
  poll: { limit: 600, windowSeconds: 60 },
  session: { limit: 60, windowSeconds: 60 },
};

/** The capability whose key and grant a route needs (downloads belong to their job's capability). */
function capabilityOf(route: RouteSpec): Capability | 'account' {
  if (route.capability === 'any') return 'account';
  if (route.capability) return route.capability;
  return route.name === 'downloadVideoJob' ? 'video' : 'generate';
}

/** A failure that is answered as an error envelope. */
function refuse(code: ErrorCode, message: string, retryAfter?: number): never {
  throw ApiError.of(code, message, retryAfter);
}

interface HandlePayload {
  /** Upstream job id. */
  j: string;
  /** Credits charged at creation (refunded to the budget if the job fails). */
  c: number;
  /** Budget window the charge went to. */
  w: number;
}

export function createProxy(options: ProxyOptions): Proxy {
  if (!options || typeof options !== 'object') throw new TypeError('createProxy: options are required ({ upstream, keys, secret, authorize }).');
  const keyring = new Keyring(options.secret);
  const basePath = normalizeBasePath(options.basePath ?? '/mediakit');
  if (typeof options.authorize !== 'function') throw new TypeError('createProxy: `authorize(request)` is required; it returns { subject, budget } for a signed-in user, or null.');
  const keys: Partial<Record<Capability, string>> = {};
  for (const [capability, key] of Object.entries(options.keys ?? {}) as [Capability, string | undefined][]) {
    if (key === undefined || key === '') continue;
    if (typeof key !== 'string' || /\s/.test(key)) throw new TypeError(`createProxy: keys.${capability} must be the API key as a string.`);
    keys[capability] = key;
  }
  const configured = Object.keys(keys) as Capability[];
  if (configured.length === 0) throw new TypeError('createProxy: `keys` needs at least one of video, headshot, generate, imageTools.');

  const upstreamBase = typeof options.upstream === 'function' ? new URL('http://upstream.invalid/') : new URL(String(options.upstream));
  const upstreamFetch: (url: URL, init: RequestInit) => Promise<Response> =
    typeof options.upstream === 'function'
      ? (() => {
          const handler = options.upstream;
          return (url, init) => (url.origin === upstreamBase.origin ? handler(new Request(url, init)) : fetch(url, init));
        })()
      : (url, init) => fetch(url, init);

  const store = options.store ?? new MemoryStore();
  const tokenSettings: TokenSettings = {
    issuer: options.issuer ?? 'mediakit-proxy',
    audience: options.audience ?? `mediakit:${basePath || '/'}`,
    ttlSeconds: options.tokenTtlSeconds ?? 900,
  };
  const downloadTtlMs = (options.downloadTtlSeconds ?? 900) * 1000;
  const windowSeconds = options.budgetWindowSeconds ?? 86_400;
  const limits = { ...DEFAULT_LIMITS, ...options.rateLimits };
  const allowedOrigins = new Set((options.allowedOrigins ?? []).map((o) => new URL(o).origin));
  const idleMs = options.uploadIdleTimeoutMs ?? 30_000;
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? 120_000;
  const storeTimeoutMs = options.storeTimeoutMs ?? 2_000;
  const redact = makeRedactor(Object.values(keys));
  const log = (level: ProxyLogEvent['level'], message: string) => {
    const event = { level, message: redact(message) };
    if (options.log) options.log(event);
    else console[level === 'error' ? 'error' : 'warn']('[mediakit proxy]', event.message);
  };

  // ---------------------------------------------------------------- store access, fail closed

  async function guarded<T>(op: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        op,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`store did not answer within ${storeTimeoutMs} ms`)), storeTimeoutMs);
        }),
      ]);
    } catch (err) {
      log('error', `store failed: ${err instanceof Error ? err.message : String(err)}`);
      refuse('unavailable', 'The service cannot check budgets right now, so nothing was sent and nothing was charged. Try again in a moment.', 5);
    } finally {
      clearTimeout(timer);
    }
  }

  const windowOf = (nowMs: number) => Math.floor(nowMs / 1000 / windowSeconds);
  const ledgerKey = async (subject: string, window: number) => `budget:${await digestName(subject)}:${window}`;
  const ledgerTtl = windowSeconds + 3600;

  async function budgetView(session: SessionClaims, used?: number) {
    const window = windowOf(Date.now());
    const u = used ?? (await guarded(store.used(await ledgerKey(session.subject, window))));
    return { limit: session.budget, used: u, remaining: Math.max(0, session.budget - u), window_seconds: windowSeconds, resets_at: new Date((window + 1) * windowSeconds * 1000).toISOString() };
  }

  async function rateLimit(bucket: keyof typeof DEFAULT_LIMITS, subject: string): Promise<Record<string, string>> {
    const { limit, windowSeconds: w } = limits[bucket];
    const { count, resetMs } = await guarded(store.hit(`rl:${bucket}:${await digestName(subject)}`, w));
    const headers = { [HEADERS.rateLimitLimit]: String(limit), [HEADERS.rateLimitRemaining]: String(Math.max(0, limit - count)) };
    if (count > limit) {
      const retry = Math.max(1, Math.ceil(resetMs / 1000));
      throw Object.assign(ApiError.of('rate_limited', `Too many ${bucket === 'create' ? 'new requests' : bucket === 'poll' ? 'status checks' : 'session requests'} from this session; wait ${retry} s and try again. Nothing was charged.`, retry), { headers });
    }
    return headers;
  }

  // ---------------------------------------------------------------- responses

  function cors(request: Request, url: URL): Record<string, string> | 'refused' {
    const origin = request.headers.get('origin');
    if (!origin || origin === url.origin || request.headers.get('sec-fetch-site') === 'same-origin') return {};
    if (!allowedOrigins.has(origin)) return 'refused';
    return {
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': PROXY_HEADERS.join(', '),
      vary: 'Origin',
    };
  }

  function json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers },
    });
  }

  function errorResponse(err: ApiError, headers: Record<string, string> = {}): Response {
    const extra: Record<string, string> = { ...headers };
    if (err.retryAfter !== undefined) extra[HEADERS.retryAfter] = String(err.retryAfter);
    return json({ error: { code: err.code, message: redact(err.message) } }, err.status, extra);
  }

  // ---------------------------------------------------------------- sealed values

  async function sealHandle(subject: string, capability: Capability, payload: HandlePayload): Promise<string> {
    return keyring.seal('handle', JSON.stringify(payload), `${capability}\n${subject}`);
  }

  async function openHandle(subject: string, capability: Capability, handle: string): Promise<HandlePayload> {
    const plain = await keyring.open('handle', handle, `${capability}\n${subject}`);
    const payload = plain ? (JSON.parse(plain) as HandlePayload) : undefined;
    if (!payload || typeof payload.j !== 'string') refuse('not_found', 'No job with this id exists for this session. Use the job_id this session was given when it created the job.');
    return payload;
  }

  /** How job objects are rewritten for the browser: redacted messages, outputs as download tickets. */
  const rewrite: Rewriter = {
    redact,
    async ticket(upstreamUrl, kind, notAfterMs) {
      const expires = Math.min(Date.now() + downloadTtlMs, notAfterMs !== undefined && Number.isFinite(notAfterMs) ? notAfterMs : Infinity);
      const sealed = await keyring.seal('file', JSON.stringify({ u: upstreamUrl, k: kind, e: expires }), '');
      return { url: `${basePath}/files/${sealed}/${FILE_KINDS[kind].name}`, expiresAt: new Date(expires).toISOString() };
    },
  };

  // ---------------------------------------------------------------- upstream

  function upstreamUrl(path: string): URL {
    const url = new URL(upstreamBase);
    url.pathname = upstreamBase.pathname.replace(/\/$/, '') + path;
    url.search = '';
    return url;
  }

  async function callUpstream(url: URL, init: RequestInit & { duplex?: 'half' }, signal: AbortSignal): Promise<Response> {
    try {
      return await upstreamFetch(url, { ...init, signal });
    } catch (err) {
      if (signal.aborted && (signal.reason as Error | undefined)?.name === 'TimeoutError') {
        refuse('upstream_error', 'The media service did not answer in time. Nothing was charged if nothing finished; try again.');
      }
      throw err;
    }
  }

  /** The browser's answer for an upstream error: a known code, a redacted message, never the upstream's headers. */
  async function upstreamError(response: Response, capability: Capability | 'account'): Promise<ApiError> {
    const parsed = await ApiError.fromResponse(response);
    if (response.status === 401 || (response.status === 403 && parsed.code === 'unauthorized')) {
      log('error', `upstream refused the ${capability} key (${response.status} ${parsed.code}): ${parsed.message}`);
      return ApiError.of('upstream_error', 'The media service refused this site\'s API key. Nothing was charged. The site owner must check the proxy\'s keys.');
    }
    if (response.status === 402) {
      return ApiError.of('insufficient_credits', 'The site\'s credit balance is too low for this call; nothing was charged. Try again later.');
    }
    const code = knownCode(parsed.code);
    if (!code || (response.status >= 500 && code !== 'provider_error')) {
      log('warn', `upstream answered ${response.status} ${parsed.code}: ${parsed.message}`);
      return new ApiError(502, 'upstream_error', 'The media service failed to answer this request. Nothing was charged; try again in a moment.');
    }
    return new ApiError(response.status, code, parsed.message, parsed.retryAfter);
  }

  // ---------------------------------------------------------------- session

  async function authenticate(request: Request): Promise<VerifiedSession> {
    const header = request.headers.get('authorization');
    const token = header ? /^Bearer ([A-Za-z0-9._-]{10,4096})$/.exec(header.trim())?.[1] : undefined;
    if (!token) refuse('unauthorized', `Send the session token as "Authorization: Bearer <token>"; get one from POST ${basePath}/session.`);
    const verified = await verifyToken(keyring, tokenSettings, token);
    if (verified === 'expired') refuse('unauthorized', `The session token has expired; get a new one from POST ${basePath}/session.`);
    if (verified === 'invalid') refuse('unauthorized', `The session token is not valid for this site; get a new one from POST ${basePath}/session.`);
    return verified;
  }

  function claimsFrom(result: AuthorizeResult, where: string): SessionClaims {
    const claims = checkClaims({ ...result, capabilities: result.capabilities ?? configured }, where);
    claims.capabilities = claims.capabilities.filter((c) => configured.includes(c));
    return claims;
  }

  async function createSession(request: Request, headers: Record<string, string>): Promise<Response> {
    let result: AuthorizeResult | null;
    try {
      result = await options.authorize(request);
    } catch (err) {
      log('error', `authorize() threw: ${err instanceof Error ? err.message : String(err)}`);
      refuse('unavailable', 'The site could not check who you are right now. Try again in a moment.', 5);
    }
    if (result === null || result === undefined) refuse('unauthorized', 'This site did not recognise you: sign in, then try again.');
    let claims: SessionClaims;
    try {
      claims = claimsFrom(result, 'authorize() result');
    } catch (err) {
      log('error', (err as Error).message);
      refuse('unavailable', 'The site\'s sign-in check answered something unexpected. Try again later.');
    }
    const rl = await rateLimit('session', claims.subject);
    const { token, exp } = await signToken(keyring, tokenSettings, claims);
    return json(
      { data: { token, token_type: 'Bearer', expires_at: new Date(exp * 1000).toISOString(), capabilities: claims.capabilities, budget: await budgetView(claims) } },
      200,
      { ...headers, ...rl },
    );
  }

  // ---------------------------------------------------------------- routes

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const corsHeaders = cors(request, url);
    if (corsHeaders === 'refused') {
      return errorResponse(ApiError.of('forbidden', `Pages on ${request.headers.get('origin')!.slice(0, 100)} may not call this service. The site owner can add the origin to the proxy's allowedOrigins.`));
    }
    const path = url.pathname;
    if (path !== basePath && !path.startsWith(basePath + '/')) return errorResponse(ApiError.of('not_found', `This proxy serves ${basePath || '/'} only.`), corsHeaders);
    const problem = pathProblem(path);
    if (problem) return errorResponse(ApiError.of('invalid_request', problem), corsHeaders);
    if (request.method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: { ...corsHeaders, 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'authorization, content-type, idempotency-key, accept', 'access-control-max-age': '600' },
      });
    }
    const rest = path.slice(basePath.length);
    let extra: Record<string, string> = corsHeaders;
    try {
      if (rest === '/session') {
        if (request.method === 'POST') return await createSession(request, corsHeaders);
        if (request.method === 'GET') {
          const session = await authenticate(request);
          return json({ data: { expires_at: new Date(session.exp * 1000).toISOString(), capabilities: session.capabilities, budget: await budgetView(session) } }, 200, corsHeaders);
        }
        refuse('method_not_allowed', `${basePath}/session takes POST (new session) or GET (budget).`);
      }
      const file = FILE_PATH.exec(rest);
      if (file) {
        if (request.method !== 'GET' && request.method !== 'HEAD') refuse('method_not_allowed', 'Download links take GET.');
        return await serveFile(request, file[1]!, url, corsHeaders);
      }
      const matches = matchRoute(rest, HANDLE_PATTERN);
      if (matches.length === 0) refuse('not_found', `There is no endpoint at ${rest.slice(0, 100)} on this proxy. Use the API paths under ${basePath}.`);
      const match = matches.find((m) => m.route.method === request.method);
      if (!match) refuse('method_not_allowed', `${rest.slice(0, 100)} takes ${matches.map((m) => m.route.method).join(', ')}, not ${request.method.slice(0, 10)}.`);
      const session = await authenticate(request);
      const capability = capabilityOf(match.route);
      if (capability !== 'account') {
        if (!keys[capability]) refuse('not_found', `This site has not enabled ${capability}.`);
        if (!session.capabilities.includes(capability)) refuse('forbidden', `This session may not use ${capability}. The site decides what each user may do.`);
      }
      extra = { ...corsHeaders, ...(await rateLimit(match.route.charged ? 'create' : 'poll', session.subject)) };
      const route = match.route;
      if (route.name === 'account') return await account(session, extra);
      if (route.charged) return await charged(request, route, capability as Capability, session, extra);
      const payload = await openHandle(session.subject, capability as Capability, match.jobId!);
      if (route.name === 'getVideoJob' || route.name === 'getModelJob') return await poll(match.jobId!, route, capability as Capability, session, payload, extra);
      return await downloadByHandle(request, route, url, capability as Capability, session, payload, extra);
    } catch (err) {
      if (err instanceof ApiError) return errorResponse(err, { ...extra, ...((err as ApiError & { headers?: Record<string, string> }).headers ?? {}) });
      if (request.signal.aborted) return errorResponse(ApiError.of('invalid_request', 'The request was cancelled.'), extra);
      log('error', `proxy failure on ${request.method} ${rest.slice(0, 100)}: ${err instanceof Error ? err.message : String(err)}`);
      return errorResponse(new ApiError(502, 'upstream_error', 'The request could not be completed. Nothing was charged if nothing finished; try again.'), extra);
    }
  }

  async function account(session: VerifiedSession, headers: Record<string, string>): Promise<Response> {
    if (!options.exposeAccountBalance) {
      refuse('forbidden', `This site does not share its account balance; GET ${basePath}/session reports this session's budget.`);
    }
    const key = keys[session.capabilities[0] ?? configured[0]!]!;
    const response = await callUpstream(upstreamUrl('/api/v1/account'), { headers: { authorization: `Bearer ${key}` } }, AbortSignal.timeout(upstreamTimeoutMs));
    if (!response.ok) throw await upstreamError(response, 'account');
    const body = (await response.json()) as { data?: { credits?: { balance?: unknown } } };
    const balance = Number(body.data?.credits?.balance);
    return json({ data: { credits: { balance: Number.isFinite(balance) ? balance : 0 } } }, 200, headers);
  }

  // ---------------------------------------------------------------- charged calls

  function checkContentType(request: Request, route: RouteSpec): string {
    const type = request.headers.get('content-type') ?? '';
    const isJson = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i.test(type);
    const isMultipart = /^multipart\/form-data;\s*boundary=("?)[0-9A-Za-z'()+_,./:=?-]{1,70}\1$/i.test(type);
    const accepted = route.name === 'createVideoJob' ? isMultipart : route.name === 'createModelJob' ? isJson : isJson || isMultipart;
    if (!accepted) {
      const wanted = route.name === 'createVideoJob' ? 'multipart/form-data (field video_file)' : route.name === 'createModelJob' ? 'application/json' : 'multipart/form-data or application/json';
      refuse('unsupported_content_type', `This endpoint takes ${wanted}; the request's Content-Type was ${type ? `"${type.slice(0, 60)}"` : 'missing'}.`);
    }
    return type;
  }

  /** The most a call can cost, read before it is sent. */
  async function maxCost(route: RouteSpec, body: Uint8Array | undefined, type: string): Promise<number> {
    if (route.name === 'createVideoJob') return COSTS.videoJob;
    if (route.name === 'createModelJob') return COSTS.modelJob;
    if (route.name === 'imageTool') return COSTS.imageTool;
    // Headshots: only the requested slots can be charged, so a one-slot retry needs only its price.
    let variants: unknown;
    try {
      if (type.startsWith('application/json')) variants = (JSON.parse(new TextDecoder().decode(body)) as { variants?: unknown }).variants;
      else variants = (await new Response(body as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).formData()).get('variants') ?? undefined;
    } catch {
      return COSTS.headshotFullBatch;
    }
    if (typeof variants === 'string') variants = variants.split(',').map((v) => Number(v.trim()));
    if (variants === undefined) return headshotCharge(4);
    return Array.isArray(variants) && variants.length >= 1 && variants.length <= 4 ? headshotCharge(new Set(variants).size) : COSTS.headshotFullBatch;
  }

  async function charged(request: Request, route: RouteSpec, capability: Capability, session: VerifiedSession, headers: Record<string, string>): Promise<Response> {
    const key = keys[capability]!;
    const type = checkContentType(request, route);
    const max = maxRequestBytes(route.name as Parameters<typeof maxRequestBytes>[0]);
    const declaredHeader = request.headers.get('content-length');
    const declared = declaredHeader !== null && /^\d{1,15}$/.test(declaredHeader) ? Number(declaredHeader) : undefined;
    if (declared !== undefined && declared > max) {
      refuse('payload_too_large', route.name === 'createVideoJob' ? 'The video is larger than 500 MB. Trim or re-encode it (1080p H.264 at a moderate bitrate) and try again.' : 'The request body is too large: images may be at most 12 MB each.');
    }
    if (route.name === 'createVideoJob' && declared === undefined) refuse('length_required', 'Video uploads need a Content-Length header (browsers send one for a File or FormData body).');
    const idempotencyKey = request.headers.get(HEADERS.idempotencyKey);
    if (idempotencyKey !== null && !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
      refuse('invalid_request', 'Idempotency-Key must be 1-255 printable ASCII characters without spaces (a UUID is ideal).');
    }

    const upstreamHeaders: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': type };
    // The browser's key, namespaced per subject and route under a key only the server knows, so
    // one user's key can never name another user's request upstream.
    let reservation: string;
    if (idempotencyKey !== null) {
      reservation = 'mk_' + (await hmac(encoder.encode(key), `${session.subject}\n${route.name}\n${idempotencyKey}`));
      upstreamHeaders[HEADERS.idempotencyKey] = reservation;
    } else reservation = 'once_' + crypto.randomUUID();
    if (route.name === 'imageTool' && /application\/json/i.test(request.headers.get('accept') ?? '')) upstreamHeaders['accept'] = 'application/json';

    // Small bodies are read (headshots, to price the requested slots); the rest stream through.
    let body: Uint8Array | ReadableStream<Uint8Array> | undefined;
    const state = { failure: undefined as ApiError | undefined };
    if (route.name === 'headshots') body = await readAll(request, max);
    else if (request.body) body = guardBody(request.body, declared, max, state);
    const length = body instanceof Uint8Array ? body.byteLength : body === undefined ? 0 : declared;
    if (length !== undefined) upstreamHeaders['content-length'] = String(length);

    const cost = await maxCost(route, body instanceof Uint8Array ? body : undefined, type);
    const window = windowOf(Date.now());
    const ledger = await ledgerKey(session.subject, window);
    const reserved = await guarded(store.reserve(ledger, reservation, cost, session.budget, ledgerTtl));
    if (!reserved.ok) {
      const left = Math.max(0, session.budget - reserved.used);
      refuse('insufficient_credits', `This call costs up to ${cost} credits and this session has ${left} left of its ${session.budget} for the period. Nothing was charged.`);
    }

    let response: Response;
    try {
      const signal = body instanceof ReadableStream ? request.signal : AbortSignal.any([request.signal, AbortSignal.timeout(upstreamTimeoutMs)]);
      response = await callUpstream(
        upstreamUrl(route.pattern),
        // redirect 'error': Node's fetch keeps no replay copy of a streamed body (no redirect can follow).
        { method: 'POST', headers: upstreamHeaders, body: body as BodyInit | undefined, duplex: 'half', redirect: 'error' },
        signal,
      );
    } catch (err) {
      await store.release(ledger, reservation).catch(() => undefined);
      if (state.failure) throw state.failure;
      throw err;
    }
    if (!response.ok) {
      await guarded(store.release(ledger, reservation));
      throw await upstreamError(response, capability);
    }

    const chargedHeader = response.headers.get(HEADERS.creditsCharged);
    const contentType = response.headers.get('content-type') ?? '';
    const isJson = contentType.startsWith('application/json');
    const data = isJson ? ((await response.json()) as Record<string, unknown>) : undefined;
    const chargedCredits = chargedHeader !== null && /^\d+$/.test(chargedHeader) ? Number(chargedHeader) : typeof data?.['credits_charged'] === 'number' ? (data['credits_charged'] as number) : cost;
    const used = await guarded(store.settle(ledger, reservation, chargedCredits, ledgerTtl));
    const remaining = options.exposeAccountBalance ? response.headers.get(HEADERS.creditsRemaining) ?? '' : String(Math.max(0, session.budget - used));
    const out: Record<string, string> = { ...headers, [HEADERS.creditsCharged]: String(chargedCredits), [HEADERS.creditsRemaining]: remaining };
    if (response.headers.get('idempotent-replayed')) out['idempotent-replayed'] = 'true';

    if (!data) {
      // Image tools' binary answer: the image, with a Content-Type from a fixed list.
      const imageType = /^image\/(png|jpeg)\b/.exec(contentType)?.[0] ?? 'application/octet-stream';
      return new Response(response.body, { status: response.status, headers: { ...out, 'content-type': imageType, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } });
    }
    const result: Record<string, unknown> = { ...data, credits_charged: chargedCredits };
    if (!options.exposeAccountBalance && 'credits_remaining' in data) result['credits_remaining'] = Number(remaining);
    if (route.name === 'createVideoJob' || route.name === 'createModelJob') {
      const job = (data['data'] ?? {}) as Record<string, unknown>;
      const payload: HandlePayload = { j: String(job['job_id']), c: chargedCredits, w: window };
      const handle = await sealHandle(session.subject, capability, payload);
      result['data'] = route.name === 'createVideoJob' ? { job_id: handle, status: job['status'] } : await modelJobView(job, handle, rewrite);
      if (route.name === 'createModelJob') out[HEADERS.location] = `${basePath}/api/v1/3d/jobs/${handle}`;
    }
    return json(result, response.status, out);
  }

  // ---------------------------------------------------------------- polls and downloads

  async function fetchJob(route: RouteSpec, capability: Capability, payload: HandlePayload): Promise<Record<string, unknown>> {
    const path = (route.name === 'getVideoJob' || route.name === 'downloadVideoJob' ? '/api/v1/video-to-3d/jobs/' : '/api/v1/3d/jobs/') + encodeURIComponent(payload.j);
    const response = await callUpstream(upstreamUrl(path), { headers: { authorization: `Bearer ${keys[capability]!}` } }, AbortSignal.timeout(upstreamTimeoutMs));
    if (response.status === 404) refuse('not_found', 'No job with this id exists for this session.');
    if (!response.ok) throw await upstreamError(response, capability);
    return ((await response.json()) as { data?: Record<string, unknown> }).data ?? {};
  }

  async function poll(handle: string, route: RouteSpec, capability: Capability, session: VerifiedSession, payload: HandlePayload, headers: Record<string, string>): Promise<Response> {
    const data = await fetchJob(route, capability, payload);
    if (data['status'] === 'failed' && payload.c > 0) {
      // The upstream refunds a failed job; the session's budget gets the credits back, once.
      await guarded(store.settle(await ledgerKey(session.subject, payload.w), 'refund_' + (await digestName(payload.j)), -payload.c, ledgerTtl));
    }
    const view = route.name === 'getVideoJob' ? await videoJobView(data, handle, rewrite) : await modelJobView(data, handle, rewrite);
    return json({ data: view }, 200, headers);
  }

  /** The mirrored download endpoints, for fetch with a Bearer token: the same bytes as the job's tickets. */
  async function downloadByHandle(request: Request, route: RouteSpec, url: URL, capability: Capability, session: VerifiedSession, payload: HandlePayload, headers: Record<string, string>): Promise<Response> {
    let target: string;
    let kind: FileKind;
    const id = encodeURIComponent(payload.j);
    if (route.name === 'downloadVideoJob') {
      const extract = url.searchParams.get('extract');
      if (extract !== null && extract !== 'ply') refuse('invalid_request', 'extract may only be "ply" (the raw .ply); leave it out for the zip archive.');
      const data = await fetchJob(route, capability, payload);
      const output = data['output'] as { ply_url?: string; archive_url?: string } | null | undefined;
      if (data['status'] === 'expired') refuse('expired', 'This result was purged by the provider. Start a new job to reconstruct the video again.');
      if (!output?.ply_url || !output.archive_url) refuse('not_found', 'This job has no result yet; download once its status is succeeded.');
      target = extract === 'ply' ? output.ply_url : output.archive_url;
      kind = extract === 'ply' ? 'ply' : 'zip';
    } else {
      const suffix = route.name === 'downloadModel' ? 'model' : route.name === 'downloadTurntable' ? 'turntable' : 'reference';
      target = `/api/demo/3d/jobs/${id}/${suffix}`;
      kind = suffix === 'model' ? 'glb' : suffix === 'turntable' ? 'mp4' : 'image';
    }
    return streamFile(request, target, kind, url.searchParams.get('download') === '1', headers);
  }

  async function serveFile(request: Request, sealed: string, url: URL, headers: Record<string, string>): Promise<Response> {
    const plain = await keyring.open('file', sealed, '');
    const ticket = plain ? (JSON.parse(plain) as { u: string; k: FileKind; e: number }) : undefined;
    if (!ticket || !(ticket.k in FILE_KINDS)) refuse('link_expired', 'This download link is not valid. Poll the job again for fresh links.');
    if (ticket.e < Date.now()) refuse('link_expired', 'This download link has expired. Poll the job again (the page does this for you) for fresh links.');
    const download = url.searchParams.get('download');
    return streamFile(request, ticket.u, ticket.k, download === '1', headers);
  }

  async function streamFile(request: Request, target: string, kind: FileKind, attachment: boolean, headers: Record<string, string>): Promise<Response> {
    const resolved = new URL(target, upstreamBase);
    if (resolved.protocol !== 'https:' && resolved.protocol !== 'http:') refuse('not_found', 'This file is not available.');
    const range = request.headers.get('range');
    const upstreamHeaders: Record<string, string> = {};
    if (range && /^bytes=\d*-\d*$/.test(range)) upstreamHeaders['range'] = range;
    // Downloads are authorized by their signed URL alone: no key goes with them (they may redirect to the provider's storage).
    const response = await callUpstream(resolved, { headers: upstreamHeaders, redirect: 'follow' }, AbortSignal.any([request.signal, AbortSignal.timeout(upstreamTimeoutMs)]));
    if (!response.ok) {
      await response.body?.cancel();
      if (response.status === 403) refuse('link_expired', 'This download link has expired. Poll the job again for fresh links.');
      if (response.status === 410) refuse('expired', 'This result was purged by the provider. Start a new job to make it again.');
      if (response.status === 404) refuse('not_found', 'This file is not available (yet): download once the job has succeeded.');
      if (response.status === 416) return new Response(null, { status: 416, headers: { ...headers, 'content-range': response.headers.get('content-range') ?? '' } });
      throw await upstreamError(response, kind === 'ply' || kind === 'zip' ? 'video' : 'generate');
    }
    const spec = FILE_KINDS[kind];
    let type: string = spec.type;
    if (kind === 'image') type = /^image\/(png|jpeg|webp)$/.exec(response.headers.get('content-type') ?? '')?.[0] ?? 'application/octet-stream';
    const out: Record<string, string> = {
      ...headers,
      'content-type': type,
      'content-disposition': `${attachment || spec.attachment ? 'attachment' : 'inline'}; filename="${spec.name}"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; sandbox",
      'referrer-policy': 'no-referrer',
    };
    const length = response.headers.get('content-length');
    if (length && /^\d+$/.test(length)) out['content-length'] = length;
    if (response.headers.get('accept-ranges') === 'bytes') out['accept-ranges'] = 'bytes';
    const contentRange = response.headers.get('content-range');
    if (response.status === 206 && contentRange && /^bytes \d+-\d+\/(\d+|\*)$/.test(contentRange)) out['content-range'] = contentRange;
    if (request.method === 'HEAD') {
      await response.body?.cancel();
      return new Response(null, { status: response.status, headers: out });
    }
    return new Response(response.body, { status: response.status === 206 ? 206 : 200, headers: out });
  }

  // ---------------------------------------------------------------- bodies

  function readAll(request: Request, max: number): Promise<Uint8Array> {
    return readCapped(request.body, max, () => refuse('payload_too_large', 'The request body is too large: images may be at most 12 MB each.'));
  }

  /**
   * The upload as it streams upstream: never more than declared (or `max`) bytes, and cut when
   * the browser sends nothing for `idleMs`. Chunks pass through untouched (no copy).
   */
  function guardBody(source: ReadableStream<Uint8Array>, declared: number | undefined, max: number, state: { failure: ApiError | undefined }): ReadableStream<Uint8Array> {
    const reader = source.getReader();
    const limit = Math.min(declared ?? max, max);
    let total = 0;
    // Idle means the browser sent nothing while we waited for it; a slow upstream that is not
    // asking for more does not count.
    let waitingSince: number | undefined;
    let timer: ReturnType<typeof setInterval> | undefined;
    const stop = () => clearInterval(timer);
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          // The watchdog starts with the first read: a body that is never forwarded (a refused
          // call) leaves no timer behind.
          timer ??= setInterval(() => {
            if (waitingSince === undefined || Date.now() - waitingSince < idleMs) return;
            stop();
            state.failure = ApiError.of('upload_timeout', `The upload stalled (nothing received for ${Math.round(idleMs / 1000)} s) and was stopped. Nothing was charged; check the connection and try again.`);
            controller.error(state.failure);
            void reader.cancel().catch(() => undefined);
          }, Math.max(50, Math.min(1000, idleMs / 4)));
          try {
            waitingSince = Date.now();
            const { done, value } = await reader.read();
            waitingSince = undefined;
            if (done) {
              stop();
              controller.close();
              return;
            }
            total += value.byteLength;
            if (total > limit) {
              stop();
              state.failure = total > max ? ApiError.of('payload_too_large', 'The video is larger than 500 MB. Trim or re-encode it and try again.') : ApiError.of('invalid_request', 'The body is longer than its Content-Length.');
              controller.error(state.failure);
              await reader.cancel().catch(() => undefined);
              return;
            }
            controller.enqueue(value);
          } catch (err) {
            stop();
            controller.error(err);
          }
        },
        cancel(reason) {
          stop();
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
  }

  return {
    basePath,
    fetch: handle,
    async mintToken(claims) {
      const checked = claimsFrom({ subject: claims.subject, capabilities: claims.capabilities, budget: claims.budget }, 'mintToken()');
      const ttl = claims.ttlSeconds ?? tokenSettings.ttlSeconds;
      return (await signToken(keyring, { ...tokenSettings, ttlSeconds: ttl }, checked)).token;
    },
  };
}
