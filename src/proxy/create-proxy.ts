/**
 * `createProxy(options)`: the session-token proxy as a Web-standard `fetch(Request)` handler.
 *
 * Routes under `basePath` (default `/mediakit`):
 * - `POST /session`: runs the site's `authorize(request)` and answers a short-lived token.
 * - `GET /session`: the session's budget (what `<credit-badge>` shows).
 * - The spec's endpoints at the same paths (`/api/v1/...`), with `Authorization: Bearer <token>`
 *   and job *handles* in place of job ids.
 * - `GET /files/<ticket>/<name>`: signed, short-lived download URLs that job outputs point at.
 * - With `results`: `POST /results` keeps a result, `GET|HEAD /results/<id>/<name>` serves it,
 *   `DELETE /results/<id>` removes it (keep/).
 *
 * Nothing else is forwarded. This file wires the parts together (options checked in settings.ts)
 * and dispatches by the route policy table (edge/policy.ts); the work is in the folders beside
 * it: budget/ (ledgers, rate limits, charged calls), tokens/ (session tokens, job handles,
 * secrets), edge/ (upstream calls, answers, body guards, polls and files), keep/ (kept results)
 * and state/ (the stores of budget state). See README "Security model" for what each value can do.
 */
import { ApiError, matchRoute, routePath } from '../api/index.js';
import { BufferPool } from './edge/buffered-read.js';
import { Budget } from './budget/budget.js';
import { charged } from './budget/charged.js';
import type { Call, Ctx } from './context.js';
import { readJson } from './context.js';
import { downloadByHandle, poll, serveFile } from './edge/files.js';
import { Sealer } from './tokens/handles.js';
import { Keeper } from './keep/keep.js';
import type { Proxy, ProxyOptions } from './options.js';
import { resolveOptions } from './settings.js';
import { normalizeBasePath, pathProblem } from './edge/paths.js';
import { POLICIES } from './edge/policy.js';
import { cors, errorResponse, json, makeLog, messageOf, refuse } from './edge/respond.js';
import { makeRedactor } from './edge/rewrite.js';
import { Keyring } from './tokens/secrets.js';
import { Sessions } from './tokens/session.js';
import { MemoryStore, type ByteLedgers } from './state/state-store.js';
import { signToken, type VerifiedSession } from './tokens/tokens.js';
import { Upstream } from './edge/upstream.js';

export type {
  AuthorizeResult,
  RateLimit,
  ProxyLogEvent,
  ProxyOptions,
  Proxy,
  RemoteImagesPolicy,
  ResultAccess,
  ResultOwner,
  ResultsOptions,
} from './options.js';

/** The job handle pattern in paths: a sealed value, base64url. */
const HANDLE_PATTERN = /^[A-Za-z0-9_-]{40,400}$/;
const FILE_PATH = /^\/files\/([A-Za-z0-9_-]{40,2000})(?:\/[A-Za-z0-9._-]{1,64})?$/;
const RESULTS_PATH = /^\/results(\/|$)/;

export function createProxy(options: ProxyOptions): Proxy {
  if (!options || typeof options !== 'object')
    throw new TypeError('createProxy: options are required ({ upstream, keys, secret, authorize }).');
  const keyring = new Keyring(options.secret);
  const basePath = normalizeBasePath(options.basePath ?? '/mediakit');
  if (typeof options.authorize !== 'function')
    throw new TypeError(
      `createProxy: \`authorize(request)\` is required; it returns { subject, budget } for a signed-in user, or null. It was ${typeof options.authorize}.`,
    );
  const settings = resolveOptions(options);
  const redact = makeRedactor(Object.values(settings.keys));
  const log = makeLog(options.log, redact);
  const tokenSettings = {
    issuer: options.issuer ?? 'mediakit-proxy',
    audience: options.audience ?? `mediakit:${basePath || '/'}`,
    ttlSeconds: options.tokenTtlSeconds ?? 900,
    keep: settings.results !== undefined,
  };
  const store = options.store ?? new MemoryStore();
  const ctx: Ctx = {
    settings,
    basePath,
    budget: new Budget(store, settings, log, tokenSettings.audience),
    upstream: new Upstream(options.upstream, log),
    sealer: new Sealer(keyring, basePath, settings.downloadTtlMs),
    pool: new BufferPool(settings.maxBufferedPerSubject, settings.maxBuffered),
    redact,
    log,
  };
  let keeper: Keeper | undefined;
  const sessions = new Sessions(ctx, keyring, tokenSettings, options.authorize, async (claims, subject) =>
    keeper?.usage(claims, subject),
  );
  if (settings.results) keeper = new Keeper(ctx, settings.results, store as ByteLedgers, sessions, options.authorize);

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const corsHeaders = cors(request, url, settings.allowedOrigins);
    if (corsHeaders === 'refused') {
      return errorResponse(
        ApiError.of(
          'forbidden',
          `Pages on ${request.headers.get('origin')!.slice(0, 100)} may not call this service. The site owner can add the origin to the proxy's allowedOrigins.`,
        ),
        redact,
      );
    }
    const path = url.pathname;
    if (path !== basePath && !path.startsWith(basePath + '/'))
      return errorResponse(ApiError.of('not_found', `This proxy serves ${basePath || '/'} only.`), redact, corsHeaders);
    const problem = pathProblem(path);
    if (problem) return errorResponse(ApiError.of('invalid_request', problem), redact, corsHeaders);
    if (request.method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: {
          ...corsHeaders,
          'access-control-allow-methods': keeper ? 'GET, POST, DELETE' : 'GET, POST',
          'access-control-allow-headers': `authorization, content-type, idempotency-key, accept${keeper ? ', x-mediakit-filename' : ''}`,
          'access-control-max-age': '600',
        },
      });
    }
    const rest = path.slice(basePath.length);
    let headers: Record<string, string> = corsHeaders;
    try {
      if (rest === '/session') {
        if (request.method === 'POST') return await sessions.create(request, corsHeaders);
        if (request.method === 'GET') return await sessions.show(request, corsHeaders);
        refuse('method_not_allowed', `${basePath}/session takes POST (new session) or GET (budget).`);
      }
      if (RESULTS_PATH.test(rest)) {
        if (!keeper) refuse('not_found', 'This site does not keep results: the proxy has no `results` store.');
        return await keeper.handle(request, rest, corsHeaders);
      }
      const file = FILE_PATH.exec(rest);
      if (file) {
        if (request.method !== 'GET' && request.method !== 'HEAD')
          refuse('method_not_allowed', 'Download links take GET.');
        return await serveFile(ctx, request, file[1]!, url, corsHeaders);
      }
      const matches = matchRoute(rest, HANDLE_PATTERN);
      if (matches.length === 0)
        refuse(
          'not_found',
          `There is no endpoint at ${rest.slice(0, 100)} on this proxy. Use the API paths under ${basePath}.`,
        );
      const match = matches.find((m) => m.route.method === request.method);
      if (!match)
        refuse(
          'method_not_allowed',
          `${rest.slice(0, 100)} takes ${matches.map((m) => m.route.method).join(', ')}, not ${request.method.slice(0, 10)}.`,
        );
      const session = await sessions.authenticate(request);
      const policy = POLICIES[match.route.name];
      if (policy.kind !== 'account') {
        if (!settings.keys[policy.capability]) refuse('not_found', `This site has not enabled ${policy.capability}.`);
        if (!session.capabilities.includes(policy.capability))
          refuse('forbidden', `This session may not use ${policy.capability}. The site decides what each user may do.`);
      }
      const subject = await ctx.budget.subjectDigest(session.subject);
      headers = {
        ...corsHeaders,
        ...(await ctx.budget.rateLimit(policy.kind === 'charged' ? 'create' : 'poll', subject)),
      };
      const call: Call = { request, url, route: match.route, session, subject, headers };
      switch (policy.kind) {
        case 'account':
          return await account(session, headers);
        case 'charged':
          return await charged(ctx, call, policy);
        case 'poll':
          return await poll(
            ctx,
            call,
            policy,
            match.jobId!,
            await ctx.sealer.openHandle(session, policy.capability, match.jobId!),
          );
        case 'download':
          return await downloadByHandle(
            ctx,
            call,
            policy,
            await ctx.sealer.openHandle(session, policy.capability, match.jobId!),
          );
      }
    } catch (err) {
      if (err instanceof ApiError) return errorResponse(err, redact, headers);
      if (request.signal.aborted)
        return errorResponse(ApiError.of('invalid_request', 'The request was cancelled.'), redact, headers);
      log('error', `proxy failure on ${request.method} ${rest.slice(0, 100)}: ${messageOf(err)}`);
      return errorResponse(
        new ApiError(
          502,
          'upstream_error',
          'The request could not be completed. Nothing was charged if nothing finished; try again.',
        ),
        redact,
        headers,
      );
    }
  }

  async function account(session: VerifiedSession, headers: Record<string, string>): Promise<Response> {
    if (!settings.exposeAccountBalance)
      refuse(
        'forbidden',
        `This site does not share its account balance; GET ${basePath}/session reports this session's budget.`,
      );
    const key = settings.keys[session.capabilities[0] ?? settings.configured[0]!]!;
    const response = await ctx.upstream.call(
      ctx.upstream.url(routePath('account')),
      { headers: { authorization: `Bearer ${key}` } },
      AbortSignal.timeout(settings.upstreamTimeoutMs),
    );
    if (!response.ok) throw await ctx.upstream.error(response, 'account');
    const body = (await readJson(response.body, 64 * 1024)) as
      { data?: { credits?: { balance?: unknown } } } | undefined;
    const balance = Number(body?.data?.credits?.balance);
    return json({ data: { credits: { balance: Number.isFinite(balance) ? balance : 0 } } }, 200, headers);
  }

  return {
    basePath,
    fetch: handle,
    async mintToken(claims) {
      const checked = sessions.claimsFrom(
        {
          subject: claims.subject,
          capabilities: claims.capabilities,
          budget: claims.budget,
          ...(claims.scope !== undefined ? { scope: claims.scope } : {}),
          ...(claims.storageQuota !== undefined ? { storageQuota: claims.storageQuota } : {}),
        },
        'mintToken()',
      );
      const ttl = claims.ttlSeconds ?? tokenSettings.ttlSeconds;
      return (await signToken(keyring, { ...tokenSettings, ttlSeconds: ttl }, checked)).token;
    },
  };
}
