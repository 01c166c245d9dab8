/**
 * The development stack: the sandbox and the session-token proxy in one Node process, as
 * connect-style middleware. `npm start` (Vite), Storybook and the browser tests all mount it, so
 * the elements always talk real HTTP to a real proxy in front of a faithful upstream.
 *
 * The demo's `authorize` gives every browser an anonymous subject kept in a first-party cookie,
 * every capability and a generous budget. A site replaces it with its own login check (README,
 * "The authorize hook"). Setting MEDIAKIT_UPSTREAM and the MEDIAKIT_KEY_* variables points the
 * same stack at a real account instead of the sandbox; then the anonymous demo authorize spends
 * real credits, so the stack refuses to start with it unless MEDIAKIT_ALLOW_ANONYMOUS=1, and caps
 * what all anonymous visitors together may spend per day (MEDIAKIT_ANONYMOUS_DAILY_CREDITS,
 * default 200).
 *
 * The sandbox's control plane (`{sandboxPath}/__sandbox/*`) and the dev routes (`{sandboxPath}/__dev/*`)
 * answer only the dev server's own pages: a loopback Host, no foreign Origin or Sec-Fetch-Site, and
 * the per-process dev token, which those pages get as an HttpOnly cookie and Node scripts send as
 * the `x-mediakit-dev-token` header (`DevStack.devToken`). Their answers carry no CORS grant.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Capability } from '../api/index.js';
import { createProxy, toNodeHandler, type Proxy, type ProxyOptions } from '../proxy/index.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../sandbox/index.js';
import { connectMiddleware } from '../server/node.js';

export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

export interface DevStackOptions {
  /** Where the proxy mounts. Default `/mediakit`. */
  basePath?: string;
  /** Where the sandbox mounts (its control plane too). Default `/sandbox`. */
  sandboxPath?: string;
  sandbox?: SandboxOptions;
  /** Credits of the sandbox account behind the proxy. Default 100 000. */
  credits?: number;
  /** Credits each demo visitor may spend per day. Default 500. */
  budget?: number;
  /** Replaces the demo's cookie-based authorize. */
  authorize?: ProxyOptions['authorize'];
  /** Other proxy options (rate limits, token lifetime, …). */
  proxy?: Partial<ProxyOptions>;
  env?: Record<string, string | undefined>;
  /**
   * The files of this same server that `{sandboxPath}/__dev/trickle` relays (pathnames). Default:
   * the two the viewers' Loading stories use, `/assets/DamagedHelmet.glb` and `/assets/guitar.compressed.ply`.
   */
  trickleFiles?: readonly string[];
  /** The largest file the trickle route relays, in bytes. Default 64 MiB. */
  trickleMaxBytes?: number;
  /** How long the trickle route waits for the whole file from this server, in ms. Default 30 000. */
  trickleTimeoutMs?: number;
}

export interface DevStack {
  /** Serves the sandbox and the proxy paths; everything else goes to `next`. */
  middleware: Middleware;
  sandbox: Sandbox | undefined;
  /** The proxy, once the sandbox account behind it exists. */
  proxy: Promise<Proxy>;
  /** The sandbox account behind the proxy (for faults; its ledger, without job ids: `GET {sandboxPath}/__dev/ledger`); undefined with a real upstream. */
  account: Promise<string | undefined>;
  /**
   * The per-process token the control plane (`{sandboxPath}/__sandbox/*`, `{sandboxPath}/__dev/*`)
   * asks for. Node scripts and tests send it as the `x-mediakit-dev-token` header; the dev
   * server's own pages get it as a cookie (see `grantDevCookie`).
   */
  devToken: string;
  /**
   * Gives the dev token cookie to a browser loading one of this server's own pages (a typed or
   * same-origin navigation to a loopback Host). The stack's middleware does this for the requests
   * it passes on; a server that answers its pages before the middleware (a test runner) calls it
   * itself. True when the cookie was set.
   */
  grantDevCookie(req: IncomingMessage, res: ServerResponse): boolean;
  /** One line for the console. */
  describe(): string;
}

export const DEMO_COOKIE = 'mediakit_demo';
const DEMO_COOKIE_PATTERN = new RegExp(`(?:^|;\\s*)${DEMO_COOKIE}=([A-Za-z0-9-]{36})(?:;|$)`);

/** Keys the demo subjects when no secret is given (a process that restarts forgets its visitors' jobs anyway). */
const PROCESS_SECRET = randomBytes(32).toString('hex');

/**
 * The demo's authorize: the anonymous visitor id from the cookie (set by the stack's middleware).
 * The subject is an HMAC of the id, never the id: the token's payload is readable by page scripts,
 * and the id is an HttpOnly cookie's value that lets anyone holding it act as that visitor.
 */
export function demoAuthorize(budget: number, secret: string = PROCESS_SECRET): ProxyOptions['authorize'] {
  return (request) => {
    const id = DEMO_COOKIE_PATTERN.exec(request.headers.get('cookie') ?? '')?.[1];
    // 22 base64url characters: 132 bits, plenty to keep visitors apart.
    return id ? { subject: `demo:${createHmac('sha256', secret).update(`mediakit demo subject\0${id}`).digest('base64url').slice(0, 22)}`, budget } : null;
  };
}

/** Adds a Set-Cookie to a response without dropping one set before (the demo cookie and the dev token cookie). */
function appendSetCookie(res: ServerResponse, cookie: string): void {
  const prev = res.getHeader('set-cookie');
  res.setHeader('set-cookie', prev === undefined ? [cookie] : [...(Array.isArray(prev) ? prev : [String(prev)]), cookie]);
}

/** Gives a browser without one an anonymous id cookie (HttpOnly, first-party, a year). */
function ensureDemoCookie(req: IncomingMessage, res: ServerResponse): void {
  if (DEMO_COOKIE_PATTERN.test(req.headers.cookie ?? '')) return;
  const id = randomUUID();
  appendSetCookie(res, `${DEMO_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000`);
  req.headers.cookie = (req.headers.cookie ? req.headers.cookie + '; ' : '') + `${DEMO_COOKIE}=${id}`;
}

// ---- The control plane's gate ----------------------------------------------------------------
// The sandbox's control plane (accounts, faults, clock, ledgers) and the dev routes are for the
// dev server's own pages. Vite answers CORS for every localhost origin, and cookies are shared by
// every port of a host, so another local app's page (or a page on a name rebound to 127.0.0.1)
// could otherwise read the dev account and arm faults against the next visitor's calls.

/** One per process: every stack in it (`npm start`'s two, the test server's ten) shares it, so one cookie serves them all. */
const DEV_TOKEN = randomBytes(32).toString('hex');
const DEV_TOKEN_HEADER = 'x-mediakit-dev-token';
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Per port, so `npm start` and Storybook on one host (which share cookies) keep their own. */
const devCookieName = (req: IncomingMessage) => `mediakit_dev_${req.socket.localPort ?? 0}`;

function sameToken(candidate: string | undefined): boolean {
  if (!candidate || candidate.length !== DEV_TOKEN.length) return false;
  return timingSafeEqual(Buffer.from(candidate), Buffer.from(DEV_TOKEN));
}

function devCookie(req: IncomingMessage): string | undefined {
  const name = devCookieName(req);
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The Host header's name when it is this machine's own (a loopback name or the socket's address), else undefined. */
function loopbackHost(req: IncomingMessage): string | undefined {
  const host = req.headers.host ?? '';
  if (!/^[A-Za-z0-9.:[\]-]{1,300}$/.test(host)) return undefined;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
  const local = req.socket.localAddress ?? '';
  const own = local.includes(':') ? `[${local}]` : local;
  return LOOPBACK_NAMES.has(hostname) || hostname === own ? hostname : undefined;
}

const ownOrigin = (req: IncomingMessage) => `${(req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${(req.headers.host ?? '').toLowerCase()}`;

/** Why a control-plane request is refused, in words that say what to do; undefined when it may pass. */
function gateRefusal(req: IncomingMessage): string | undefined {
  const what = 'The dev stack\'s control plane (__sandbox and __dev routes) answers only the dev server\'s own pages';
  if (!loopbackHost(req)) return `${what}, at a loopback name: the Host "${String(req.headers.host ?? '').slice(0, 80)}" is not localhost, 127.0.0.1, [::1] or this server's address. Open the dev server as http://localhost:${req.socket.localPort}/.`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== ownOrigin(req)) return `${what}: the request's Origin ${origin.slice(0, 80)} is not this server (${ownOrigin(req)}). Call it from a page this dev server serves.`;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `${what}: the browser says the request came from another site or origin (Sec-Fetch-Site: ${String(site).slice(0, 20)}). Call it from a page this dev server serves.`;
  const header = req.headers[DEV_TOKEN_HEADER];
  if (typeof header === 'string') return sameToken(header) ? undefined : `${what}: the ${DEV_TOKEN_HEADER} header does not hold this process's dev token. Send DevStack.devToken (createDevStack's result) from Node scripts.`;
  if (sameToken(devCookie(req))) return undefined;
  return `${what}: it needs the dev token. A page of this server gets it in the ${devCookieName(req)} cookie when it loads (reload the page); a Node script sends the ${DEV_TOKEN_HEADER} header with DevStack.devToken.`;
}

function grantDevCookie(req: IncomingMessage, res: ServerResponse): boolean {
  if (!loopbackHost(req) || sameToken(devCookie(req))) return false;
  if (req.headers.origin !== undefined && req.headers.origin.toLowerCase() !== ownOrigin(req)) return false;
  const site = req.headers['sec-fetch-site'];
  const dest = String(req.headers['sec-fetch-dest'] ?? '');
  // Only a browser's own word that this is the server's page: a typed URL, a same-origin frame or
  // page, or a same-origin module script (Storybook's dev server answers iframe.html before Vite's
  // middlewares, so a story's first request through the stack is one of its scripts). A browser
  // never lets a page set Sec-Fetch-*; another origin's requests say same-site or cross-site.
  const navigation = dest === 'document' || dest === 'iframe' || dest === 'frame';
  if (!((site === 'none' && navigation) || (site === 'same-origin' && (navigation || dest === 'script')))) return false;
  appendSetCookie(res, `${devCookieName(req)}=${DEV_TOKEN}; Path=/; HttpOnly; SameSite=Strict`);
  // As if the browser had sent it: a second stack on the same server (npm start mounts two) does not set it again.
  req.headers.cookie = (req.headers.cookie ? req.headers.cookie + '; ' : '') + `${devCookieName(req)}=${DEV_TOKEN}`;
  return true;
}

/** What a control-plane answer must never carry: a CORS grant (Vite's cors middleware runs before plugin middlewares). */
function dropCorsHeaders(res: ServerResponse): void {
  for (const name of res.getHeaderNames()) if (name.startsWith('access-control-')) res.removeHeader(name);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

// ---- The trickle route ---------------------------------------------------------------------------

const TRICKLE_FILES = ['/assets/DamagedHelmet.glb', '/assets/guitar.compressed.ply'];
const TRICKLE_MAX_BYTES = 64 * 1024 * 1024;
const TRICKLE_TIMEOUT_MS = 30_000;

interface TrickleOptions {
  files: readonly string[];
  maxBytes: number;
  timeoutMs: number;
}

class TrickleRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' }).end(text);
}

/**
 * Sends one of the listed files of this same server (`src`, a path) spread evenly over `seconds`
 * (1-300), with its length, so progress shows. It relays only files on its list, from this
 * server's own address, as inert bytes: a relay that took any path once served another local
 * service's page as this origin (`src=/%09/127.0.0.1:4599/x`: the URL parser drops the tab).
 */
async function trickle(req: IncomingMessage, res: ServerResponse, options: TrickleOptions): Promise<void> {
  const query = new URL(req.url ?? '/', 'http://dev').searchParams;
  const src = query.get('src') ?? '';
  const seconds = Number(query.get('seconds') ?? 30);
  // From this server's own address (never the Host header, which the client chooses).
  const { localAddress = '127.0.0.1', localPort } = req.socket;
  const self = `http://${localAddress.includes(':') ? `[${localAddress}]` : localAddress}:${localPort}`;
  // Parse first and judge what the parser made of it; control characters are refused outright,
  // since the parser silently drops tabs and newlines.
  let target: URL | undefined;
  try {
    target = /[\x00-\x1f\x7f]/.test(src) || !src.startsWith('/') ? undefined : new URL(src, self);
  } catch {
    target = undefined;
  }
  if (!target || target.origin !== self || !options.files.includes(target.pathname) || !(seconds >= 1 && seconds <= 300)) {
    return sendText(res, 400, `trickle needs src, a path on this server from its list (${options.files.join(', ') || 'none: set trickleFiles'}), and seconds, 1 to 300.`);
  }
  const stop = new AbortController();
  const onClose = () => stop.abort(new TrickleRefusal(499, 'the client went away'));
  res.on('close', onClose);
  const timer = setTimeout(() => stop.abort(new TrickleRefusal(504, `${target.pathname} did not arrive within ${options.timeoutMs} ms from this server.`)), options.timeoutMs);
  let bytes: Uint8Array;
  try {
    const upstream = await fetch(new URL(target.pathname, self), { signal: stop.signal, redirect: 'error' });
    if (!upstream.ok) {
      await upstream.body?.cancel();
      throw new TrickleRefusal(upstream.status === 404 ? 404 : 502, `${target.pathname} answered ${upstream.status} on this server.`);
    }
    const tooBig = new TrickleRefusal(502, `${target.pathname} is larger than ${options.maxBytes} bytes, the most trickle relays (trickleMaxBytes).`);
    if (Number(upstream.headers.get('content-length') ?? 0) > options.maxBytes) {
      stop.abort(tooBig);
      throw tooBig;
    }
    // Read up to the cap and no further: a bigger body is never held whole.
    const parts: Uint8Array[] = [];
    let size = 0;
    const reader = upstream.body!.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      const chunk = part.value;
      size += chunk.byteLength;
      if (size > options.maxBytes) {
        stop.abort(tooBig);
        throw tooBig;
      }
      parts.push(chunk);
    }
    bytes = new Uint8Array(Buffer.concat(parts));
  } catch (err) {
    clearTimeout(timer);
    const refusal = err instanceof TrickleRefusal ? err : stop.signal.reason instanceof TrickleRefusal ? stop.signal.reason : new TrickleRefusal(502, `${target.pathname} could not be read from this server.`);
    if (!res.headersSent && !res.destroyed) sendText(res, refusal.status, refusal.message);
    return;
  }
  clearTimeout(timer);
  // The whole reply, a slow reader included, ends within the time asked plus the same margin.
  const deadline = setTimeout(() => res.destroy(), seconds * 1000 + options.timeoutMs);
  try {
    // Inert bytes whatever the file is: never a page that runs as this origin.
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'content-security-policy': 'sandbox',
      'content-length': String(bytes.length),
      'cache-control': 'no-store',
    });
    const steps = seconds * 4;
    const chunk = Math.max(1, Math.ceil(bytes.length / steps));
    for (let at = 0; at < bytes.length && !stop.signal.aborted; at += chunk) {
      res.write(bytes.subarray(at, at + chunk));
      await new Promise((r) => setTimeout(r, 250));
    }
    res.end();
  } finally {
    clearTimeout(deadline);
    res.off('close', onClose);
  }
}

const KEY_ENV: Record<Capability, string> = { video: 'MEDIAKIT_KEY_VIDEO', headshot: 'MEDIAKIT_KEY_HEADSHOT', generate: 'MEDIAKIT_KEY_GENERATE', imageTools: 'MEDIAKIT_KEY_IMAGE_TOOLS' };

export function createDevStack(options: DevStackOptions = {}): DevStack {
  const env = options.env ?? process.env;
  const basePath = options.basePath ?? '/mediakit';
  const sandboxPath = options.sandboxPath ?? '/sandbox';
  const realUpstream = env['MEDIAKIT_UPSTREAM'];
  const sandbox = realUpstream ? undefined : createSandbox({ speed: Number(env['MEDIAKIT_SANDBOX_SPEED'] ?? 12), ...options.sandbox });
  const secret = env['MEDIAKIT_SECRET'] ?? randomBytes(32).toString('hex');
  const budget = options.budget ?? 500;
  // A real upstream with the anonymous demo authorize: every cookie-less request is a new subject
  // with a fresh budget, so only an explicit opt-in and a site-wide daily cap allow it.
  let totalBudget: number | undefined;
  if (realUpstream && !options.authorize) {
    if (env['MEDIAKIT_ALLOW_ANONYMOUS'] !== '1') {
      throw new Error(
        'mediakit dev stack: MEDIAKIT_UPSTREAM points at a real account, and the demo authorize lets any browser in anonymously, spending real credits. ' +
          'Pass your own `authorize` (README, "The authorize hook"), or set MEDIAKIT_ALLOW_ANONYMOUS=1 to accept anonymous visitors with a shared daily cap (MEDIAKIT_ANONYMOUS_DAILY_CREDITS, default 200).',
      );
    }
    const cap = env['MEDIAKIT_ANONYMOUS_DAILY_CREDITS'] ?? '200';
    if (!/^\d{1,9}$/.test(cap)) throw new Error(`mediakit dev stack: MEDIAKIT_ANONYMOUS_DAILY_CREDITS must be a whole number of credits; it was "${cap.slice(0, 40)}".`);
    totalBudget = Number(cap);
  }

  async function upstreamSettings(): Promise<Pick<ProxyOptions, 'upstream' | 'keys'> & { account?: string }> {
    if (!sandbox) {
      const keys = Object.fromEntries(Object.entries(KEY_ENV).map(([cap, name]) => [cap, env[name]]).filter(([, v]) => v));
      return { upstream: realUpstream!, keys };
    }
    const response = await sandbox.fetch(new Request('http://sandbox/__sandbox/accounts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ credits: options.credits ?? 100_000 }) }));
    const { keys, account_id } = (await response.json()) as { keys: Record<Capability, string>; account_id: string };
    return { upstream: (request) => sandbox.fetch(request), keys, account: account_id };
  }

  const settings = upstreamSettings();
  const proxy = settings.then(({ upstream, keys }) =>
    createProxy({ upstream, keys, secret, basePath, authorize: options.authorize ?? demoAuthorize(budget, secret), ...(totalBudget !== undefined ? { totalBudget, budgetWindowSeconds: 86_400 } : {}), ...options.proxy }),
  );
  proxy.catch((err: unknown) => console.error('[mediakit] the proxy could not start:', err));
  const sandboxMiddleware = sandbox ? connectMiddleware(sandboxPath, (r) => sandbox.fetch(r)) : undefined;
  let proxyHandler: ReturnType<typeof toNodeHandler> | undefined;

  const trickleOptions: TrickleOptions = {
    files: options.trickleFiles ?? TRICKLE_FILES,
    maxBytes: options.trickleMaxBytes ?? TRICKLE_MAX_BYTES,
    timeoutMs: options.trickleTimeoutMs ?? TRICKLE_TIMEOUT_MS,
  };
  const controlPrefixes = [`${sandboxPath}/__sandbox`, `${sandboxPath}/__dev`];

  /** The dev account's ledger, read with one of its keys, without job ids (every visitor of the dev server shares the account). */
  async function devLedger(res: ServerResponse): Promise<void> {
    const s = await settings;
    const key = Object.values(s.keys).find(Boolean);
    if (!sandbox || !s.account || !key) return sendJson(res, 404, { error: { code: 'not_found', message: 'The dev ledger exists only with the in-process sandbox (MEDIAKIT_UPSTREAM is set).' } });
    const r = await sandbox.fetch(new Request(`http://sandbox/__sandbox/accounts/${s.account}/ledger`, { headers: { authorization: `Bearer ${key}` } }));
    const body = (await r.json()) as { account_id: string; balance: number; entries: Array<Record<string, unknown>> };
    if (!r.ok) return sendJson(res, 502, { error: { code: 'upstream_error', message: `The sandbox refused the dev account's ledger (${r.status}).` } });
    sendJson(res, 200, { account_id: body.account_id, balance: body.balance, entries: body.entries.map(({ job_id: _jobId, ...entry }) => entry) });
  }

  const middleware: Middleware = (req, res, next) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === basePath || path.startsWith(basePath + '/')) {
      if (!options.authorize) ensureDemoCookie(req, res);
      if (proxyHandler) return proxyHandler(req, res, next);
      proxy.then((p) => (proxyHandler ??= toNodeHandler(p))(req, res, next), next);
      return;
    }
    // Judged on the path as the sandbox's URL parser will see it (`/sandbox/./__sandbox`,
    // `%2e%2e` segments and percent-escapes included), so no spelling slips past the gate.
    let normalized: string;
    try {
      normalized = new URL(req.url ?? '/', 'http://dev').pathname;
      normalized = decodeURIComponent(normalized).replace(/\/+/g, '/');
    } catch {
      normalized = path;
    }
    if (controlPrefixes.some((p) => normalized.startsWith(p))) {
      dropCorsHeaders(res);
      const refusal = gateRefusal(req);
      if (refusal) return sendJson(res, 403, { error: { code: 'forbidden', message: refusal } });
      // Development only: the sandbox account behind this stack, so demos and stories can arm
      // faults through the sandbox's control plane.
      if (sandbox && req.method === 'GET' && path === `${sandboxPath}/__dev/account`) {
        void settings.then((s) => sendJson(res, 200, { account_id: s.account }));
        return;
      }
      if (sandbox && req.method === 'GET' && path === `${sandboxPath}/__dev/ledger`) {
        devLedger(res).catch(() => !res.headersSent && sendJson(res, 502, { error: { code: 'upstream_error', message: 'The sandbox did not answer the dev account\'s ledger.' } }));
        return;
      }
      // Development only: a listed file of this same server sent slowly (`?src=/assets/x.glb&seconds=30`),
      // so a viewer's loading state can be looked at (the viewers' Loading stories).
      if (sandbox && req.method === 'GET' && path === `${sandboxPath}/__dev/trickle`) return void trickle(req, res, trickleOptions);
    } else if (!path.startsWith(sandboxPath + '/') && path !== sandboxPath) {
      // The dev server's own pages (and Storybook's stories) get the dev token as they load.
      grantDevCookie(req, res);
    }
    if (sandboxMiddleware) return sandboxMiddleware(req, res, next);
    next();
  };

  return {
    middleware,
    sandbox,
    proxy,
    account: settings.then((s) => s.account),
    devToken: DEV_TOKEN,
    grantDevCookie,
    describe: () =>
      sandbox
        ? `mediakit proxy at ${basePath} -> sandbox at ${sandboxPath} (clock x${sandbox.clock.speed}); each browser gets ${budget} credits a day`
        : `mediakit proxy at ${basePath} -> ${realUpstream}${totalBudget !== undefined ? ` (anonymous visitors: ${budget} credits each, ${totalBudget} a day in all)` : ''}`,
  };
}
