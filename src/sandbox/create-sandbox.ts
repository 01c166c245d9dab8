/**
 * `createSandbox(options)`: the media API emulator (src/api/API-REFERENCE.md) as a Web-standard
 * `fetch(Request) => Promise<Response>` handler, plus the `/__sandbox/*` control plane for tests
 * and demos. It runs in-process behind the proxy or behind any HTTP server (see ../server/node.ts).
 *
 * Platform-free: what differs between Node and the browser (spooling, image URL fetching, the
 * artifact makers) comes in as a `SandboxPlatform` (./platform.ts). `createSandbox` in ./index.ts
 * gives it Node's; the playground (../playground) gives it the browser's.
 */
import {
  ApiError,
  HEADERS,
  IDEMPOTENCY_KEY_PATTERN,
  KEY_PREFIXES,
  LIMITS,
  matchRoute,
  maxRequestBytes,
  type Capability,
  type RouteMatch,
  type RouteSpec,
} from '../api/index.js';
import { AccountBook, type ResolvedKey } from './accounts.js';
import { createClock, type SandboxClock } from './clock.js';
import { errorResponse, fail, json } from './http.js';
import { IdempotencyCache } from './idempotency.js';
import { fingerprint, isUpload, parseBody, readBody, type Body } from './inputs.js';
import { parseMultipartStream } from './multipart.js';
import type { SandboxPlatform } from './platform.js';
import { RateLimiter, type RateLimitOptions } from './rate-limit.js';
import { JobRegistry, type ArtifactOptions } from './job-routes.js';
import { SyncRoutes } from './sync-routes.js';
import { createControlPlane } from './control-plane.js';

export interface SandboxOptions {
  /** Clock speed: sandbox seconds per real second. Default 12 (a short video job in about 20 s, a 3D job in about 5 s). */
  speed?: number;
  /** Rate limit per key and charged endpoint. Default 120 requests per 60 s. */
  rateLimit?: RateLimitOptions;
  /** Secret for download link signatures. Default: random per process. */
  secret?: string;
  /** How long a succeeded video result is kept before it expires (sandbox ms). Default 7 days. */
  videoRetentionMs?: number;
  /** Fetch used for image_url and http(s) images instead of the built-in client (then only the URLs' text is checked, not their DNS answers). */
  fetchImage?: typeof fetch;
  /** Time allowed to fetch an image URL, redirects included (real ms). Default 10 000. */
  imageUrlTimeoutMs?: number;
  /**
   * Image URLs are fetched from public addresses only (checked after DNS, on every redirect hop,
   * at most `maxRedirects` of them, default 3). `allowLoopback` lets them reach 127.0.0.1/::1/
   * localhost, for tests that serve images locally. Default: public only.
   */
  imageUrls?: { allowLoopback?: boolean; maxRedirects?: number };
  /** Sizes of generated artifacts (smaller is faster in tests). */
  artifacts?: ArtifactOptions;
}

export interface Sandbox {
  fetch(request: Request): Promise<Response>;
  readonly clock: SandboxClock;
  /** Waits until every artifact being generated is written (tests, graceful shutdown). */
  idle(): Promise<void>;
}

const CAPABILITY_LABEL: Record<Capability, string> = {
  video: 'video-to-3D',
  headshot: 'headshot',
  generate: '3D generation',
  imageTools: 'image tools',
};

/** The sandbox on `platform` (Node's or the browser's). */
export function createSandboxOn(platform: SandboxPlatform, options: SandboxOptions = {}): Sandbox {
  // Uploads a process killed mid-request left on disk are deleted: nothing else would delete them.
  void platform.sweep();
  const clock = createClock(options.speed ?? 12);
  const accounts = new AccountBook();
  const limiter = new RateLimiter(options.rateLimit);
  const idempotency = new IdempotencyCache(() => clock.now());
  const jobs = new JobRegistry(accounts, clock, options, platform);
  const sync = new SyncRoutes(accounts, clock, options, platform);
  const controlPlane = createControlPlane(accounts, clock, jobs);

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/__sandbox/')) return controlPlane(request, url);
    const provider = /^\/__provider\/models\/(job_[A-Za-z0-9_-]+)\.glb$/.exec(url.pathname);
    if (provider && request.method === 'GET') return jobs.providerModel(provider[1]!, url);
    const matches = matchRoute(url.pathname);
    if (matches.length === 0)
      fail(
        'not_found',
        `There is no endpoint at ${url.pathname.slice(0, 100)}. See the API reference for the paths (API-REFERENCE.md in @mediakit/elements: dist/api/ in the package, src/api/ in its repository).`,
      );
    const match = matches.find((m) => m.route.method === request.method);
    if (!match) {
      return errorResponse(
        ApiError.of(
          'method_not_allowed',
          `${url.pathname} takes ${matches.map((m) => m.route.method).join(', ')}, not ${request.method}.`,
        ),
        {
          allow: matches.map((m) => m.route.method).join(', '),
        },
      );
    }
    if (match.route.capability === null) return jobs.download(match, url);
    const auth = authenticate(request, match.route);
    jobs.settle(auth.account);
    if (!match.route.charged) {
      if (match.route.name === 'account') return json({ data: { credits: { balance: auth.account.balance } } });
      return jobs.poll(match, auth);
    }
    return charged(request, match, auth);
  }

  async function charged(request: Request, match: RouteMatch, auth: ResolvedKey): Promise<Response> {
    const rate = accounts.takeFault(auth.account, 'rate_limit')
      ? { allowed: false, limit: limiter.limit, remaining: 0, retryAfter: 1 }
      : limiter.hit(`${auth.key}\n${match.route.name}`);
    const rateHeaders = {
      [HEADERS.rateLimitLimit]: String(rate.limit),
      [HEADERS.rateLimitRemaining]: String(rate.remaining),
    };
    if (!rate.allowed) {
      await request.body?.cancel().catch(() => {});
      return errorResponse(
        ApiError.of(
          'rate_limited',
          `Too many requests. Wait ${rate.retryAfter} s (Retry-After) and send the same request again; nothing was charged.`,
          rate.retryAfter,
        ),
        rateHeaders,
      );
    }
    const idemKey = request.headers.get(HEADERS.idempotencyKey);
    if (idemKey !== null && !IDEMPOTENCY_KEY_PATTERN.test(idemKey)) {
      fail(
        'invalid_request',
        'Idempotency-Key must be 1 to 255 visible ASCII characters without spaces (a UUID is a good choice).',
      );
    }
    const body = await readRequestBody(request, match.route);
    try {
      return await runCharged(request, match, auth, body, idemKey, rateHeaders);
    } finally {
      // Spooled uploads a job did not keep (a refusal, a replay) are deleted now.
      for (const value of body.fields.values()) if (isUpload(value) && !value.kept) await value.dispose();
    }
  }

  async function runCharged(
    request: Request,
    match: RouteMatch,
    auth: ResolvedKey,
    body: Body,
    idemKey: string | null,
    rateHeaders: Record<string, string>,
  ): Promise<Response> {
    const work = async (): Promise<Response> => {
      try {
        const response = await route(match.route, body, request, auth);
        for (const [k, v] of Object.entries(rateHeaders)) response.headers.set(k, v);
        return response;
      } catch (err) {
        if (err instanceof ApiError) return errorResponse(err, rateHeaders);
        throw err;
      }
    };
    if (idemKey === null) return work();
    return idempotency.run(auth.key, idemKey, await fingerprint(match.route.name, body, platform.sha256), work);
  }

  function route(spec: RouteSpec, body: Body, request: Request, auth: ResolvedKey): Promise<Response> {
    switch (spec.name) {
      case 'createVideoJob':
        return jobs.createVideo(body, auth);
      case 'createModelJob':
        return jobs.createModel(body, auth);
      case 'headshots':
        return sync.headshots(body, auth);
      case 'imageTool':
        return sync.imageTool(body, auth, request.headers.get('accept') ?? '');
      default:
        throw new Error(`unrouted charged endpoint ${spec.name}`);
    }
  }

  async function readRequestBody(request: Request, spec: RouteSpec): Promise<Body> {
    if (spec.name === 'createVideoJob') {
      // Streamed: the file part is spooled to a temporary file as it arrives.
      const tooLarge = (): never =>
        fail(
          'payload_too_large',
          'video_file is larger than 500 MB. Trim or re-encode the video (1080p H.264 at a moderate bitrate) and try again.',
        );
      const type = request.headers.get('content-type') ?? '';
      if (!type.toLowerCase().startsWith('multipart/form-data')) {
        await request.body?.cancel().catch(() => {});
        fail(
          'unsupported_content_type',
          `This endpoint takes multipart/form-data; the request was sent as ${type.slice(0, 60) || 'no content type'}.`,
        );
      }
      const declared = request.headers.get('content-length');
      if (declared !== null && !/^\d+$/.test(declared))
        fail('invalid_request', 'The Content-Length header is not a whole number of bytes.');
      const max = maxRequestBytes('createVideoJob');
      if (declared !== null && Number(declared) > max) {
        await request.body?.cancel().catch(() => {});
        tooLarge();
      }
      const fields = await parseMultipartStream(
        request.body,
        type,
        { maxBytes: max, maxFileBytes: LIMITS.video.maxBytes, tooLarge },
        platform,
      );
      return { kind: 'multipart', fields, json: undefined };
    }
    const bytes = await readBody(
      request,
      maxRequestBytes(spec.name as 'createModelJob' | 'headshots' | 'imageTool'),
      () => fail('invalid_request', 'The request body is too large: images may be at most 12 MB each.'),
    );
    return parseBody(request, bytes, spec.name === 'createModelJob' ? ['json'] : ['json', 'multipart']);
  }

  function authenticate(request: Request, spec: RouteSpec): ResolvedKey {
    const headerKey = request.headers.get(HEADERS.apiKey)?.trim() || undefined;
    const authorization = request.headers.get('authorization');
    const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
    if (authorization && !bearer) fail('unauthorized', 'The Authorization header must be "Bearer <API key>".');
    if (spec.name === 'imageTool' && headerKey && !bearer) {
      fail(
        'unauthorized',
        'The image tools endpoint takes the key as "Authorization: Bearer <API key>", not X-Api-Key.',
      );
    }
    if (headerKey && bearer && headerKey !== bearer)
      fail('unauthorized', 'X-Api-Key and Authorization carry two different keys; send one key.');
    const key = bearer ?? headerKey;
    if (!key) fail('unauthorized', 'No API key was sent. Send it as X-Api-Key: <key> or Authorization: Bearer <key>.');
    const resolved = accounts.resolveKey(key);
    if (!resolved) fail('unauthorized', 'The API key is not valid. Check that it was copied whole from the dashboard.');
    if (spec.capability !== 'any' && spec.capability !== resolved.capability) {
      const need = spec.capability as Capability;
      fail(
        'unauthorized',
        `This endpoint needs a ${CAPABILITY_LABEL[need]} key (${KEY_PREFIXES[need]}…); the key sent is a ${CAPABILITY_LABEL[resolved.capability]} key.`,
      );
    }
    return resolved;
  }

  return {
    clock,
    idle: () => jobs.idle(),
    async fetch(request: Request): Promise<Response> {
      try {
        return await handle(request);
      } catch (err) {
        if (err instanceof ApiError) return errorResponse(err);
        // A bug, not bad input: say so without internals.
        console.error('[sandbox] internal error', err);
        return errorResponse(
          ApiError.of(
            'provider_error',
            'The sandbox failed unexpectedly; nothing was charged. Please report this with the request that caused it.',
          ),
        );
      }
    },
  };
}
