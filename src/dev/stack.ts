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
 */
import { randomBytes, randomUUID } from 'node:crypto';
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
}

export interface DevStack {
  /** Serves the sandbox and the proxy paths; everything else goes to `next`. */
  middleware: Middleware;
  sandbox: Sandbox | undefined;
  /** The proxy, once the sandbox account behind it exists. */
  proxy: Promise<Proxy>;
  /** The sandbox account behind the proxy (its ledger: `GET {sandboxPath}/__sandbox/accounts/{id}/ledger`); undefined with a real upstream. */
  account: Promise<string | undefined>;
  /** One line for the console. */
  describe(): string;
}

export const DEMO_COOKIE = 'mediakit_demo';
const DEMO_COOKIE_PATTERN = new RegExp(`(?:^|;\\s*)${DEMO_COOKIE}=([A-Za-z0-9-]{36})(?:;|$)`);

/** The demo's authorize: the anonymous visitor id from the cookie (set by the stack's middleware). */
export function demoAuthorize(budget: number): ProxyOptions['authorize'] {
  return (request) => {
    const id = DEMO_COOKIE_PATTERN.exec(request.headers.get('cookie') ?? '')?.[1];
    return id ? { subject: `demo:${id}`, budget } : null;
  };
}

/** Gives a browser without one an anonymous id cookie (HttpOnly, first-party, a year). */
function ensureDemoCookie(req: IncomingMessage, res: ServerResponse): void {
  if (DEMO_COOKIE_PATTERN.test(req.headers.cookie ?? '')) return;
  const id = randomUUID();
  res.setHeader('set-cookie', `${DEMO_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000`);
  req.headers.cookie = (req.headers.cookie ? req.headers.cookie + '; ' : '') + `${DEMO_COOKIE}=${id}`;
}

/** Sends a same-server file (`src`, a path) spread evenly over `seconds` (1-300), with its length, so progress shows. */
async function trickle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const query = new URL(req.url ?? '/', 'http://dev').searchParams;
  const src = query.get('src') ?? '';
  const seconds = Number(query.get('seconds') ?? 30);
  if (!/^\/(?![/\\])/.test(src) || !(seconds >= 1 && seconds <= 300)) {
    return void res.writeHead(400, { 'content-type': 'text/plain' }).end('trickle needs src, a path on this server such as /assets/Duck.glb, and seconds, 1 to 300.');
  }
  const stop = new AbortController();
  res.on('close', () => stop.abort());
  try {
    // From this server's own address (never the Host header, which the client chooses).
    const { localAddress = '127.0.0.1', localPort } = req.socket;
    const self = `http://${localAddress.includes(':') ? `[${localAddress}]` : localAddress}:${localPort}`;
    const upstream = await fetch(new URL(src, self), { signal: stop.signal });
    const bytes = new Uint8Array(await upstream.arrayBuffer());
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream', 'content-length': String(bytes.length), 'cache-control': 'no-store' });
    const steps = seconds * 4;
    const chunk = Math.ceil(bytes.length / steps);
    for (let at = 0; at < bytes.length && !stop.signal.aborted; at += chunk) {
      res.write(bytes.subarray(at, at + chunk));
      await new Promise((r) => setTimeout(r, 250));
    }
    res.end();
  } catch {
    if (!res.headersSent) res.writeHead(502).end();
    else res.destroy();
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
    createProxy({ upstream, keys, secret, basePath, authorize: options.authorize ?? demoAuthorize(budget), ...(totalBudget !== undefined ? { totalBudget, budgetWindowSeconds: 86_400 } : {}), ...options.proxy }),
  );
  proxy.catch((err: unknown) => console.error('[mediakit] the proxy could not start:', err));
  const sandboxMiddleware = sandbox ? connectMiddleware(sandboxPath, (r) => sandbox.fetch(r)) : undefined;
  let proxyHandler: ReturnType<typeof toNodeHandler> | undefined;

  const middleware: Middleware = (req, res, next) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === basePath || path.startsWith(basePath + '/')) {
      if (!options.authorize) ensureDemoCookie(req, res);
      if (proxyHandler) return proxyHandler(req, res, next);
      proxy.then((p) => (proxyHandler ??= toNodeHandler(p))(req, res, next), next);
      return;
    }
    // Development only: the sandbox account behind this stack, so demos and stories can arm
    // faults and read the ledger through the sandbox's control plane.
    if (sandbox && req.method === 'GET' && path === `${sandboxPath}/__dev/account`) {
      void settings.then((s) => res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ account_id: s.account })));
      return;
    }
    // Development only: a file of this same server sent slowly (`?src=/assets/x.glb&seconds=30`),
    // so a viewer's loading state can be looked at (the viewers' Loading stories).
    if (sandbox && req.method === 'GET' && path === `${sandboxPath}/__dev/trickle`) return void trickle(req, res);
    if (sandboxMiddleware) return sandboxMiddleware(req, res, next);
    next();
  };

  return {
    middleware,
    sandbox,
    proxy,
    account: settings.then((s) => s.account),
    describe: () =>
      sandbox
        ? `mediakit proxy at ${basePath} -> sandbox at ${sandboxPath} (clock x${sandbox.clock.speed}); each browser gets ${budget} credits a day`
        : `mediakit proxy at ${basePath} -> ${realUpstream}${totalBudget !== undefined ? ` (anonymous visitors: ${budget} credits each, ${totalBudget} a day in all)` : ''}`,
  };
}
