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
 * Kept results (`POST {basePath}/results`) go to a `fileResultStore`: in `resultsDir` when given
 * (`npm start` keeps them in this project's folder of the user's cache, `devCacheDir()`, with the
 * dev secret beside them in `<resultsDir>/.secret`, so kept results and their owners outlive a
 * restart), else in a folder under the system's temporary directory that is removed when the
 * process exits (tests). Either way outside the files a dev server serves; `mediakitDev()` also
 * puts the folder in Vite's `server.fs.deny`.
 *
 * The sandbox's control plane (`{sandboxPath}/__sandbox/*`) and the dev routes (`{sandboxPath}/__dev/*`)
 * answer only the dev server's own pages: a loopback Host, no foreign Origin or Sec-Fetch-Site, and
 * the per-process dev token, which those pages get as an HttpOnly cookie and Node scripts send as
 * the `x-mediakit-dev-token` header (`DevStack.devToken`). Their answers carry no CORS grant.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Capability } from '../api/index.js';
import { createProxy, fileResultStore, toNodeHandler, type Proxy, type ProxyOptions } from '../proxy/index.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../sandbox/index.js';
import { connectMiddleware } from '../server/node.js';
import { DEV_TOKEN, dropCorsHeaders, gateRefusal, grantDevCookie, sendJson } from './control-gate.js';
import { withoutJobIds, type DevLedger } from '../sandbox/dev-ledger.js';
import { demoAuthorize, ensureDemoCookie } from './demo-visitor.js';
import { devSecret, resultsFolder } from './results-folder.js';
import { trickle, TRICKLE_FILES, TRICKLE_MAX_BYTES, TRICKLE_TIMEOUT_MS, type TrickleOptions } from './trickle.js';

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
  /**
   * Where kept results are written (a `fileResultStore`), and beside them the dev secret unless
   * MEDIAKIT_SECRET is set, so they outlive a restart. Keep it outside every folder the dev server
   * serves (`devCacheDir(projectRoot)` names one). Default: a temporary folder removed when the
   * process exits. `false`: the proxy keeps no results.
   */
  resultsDir?: string | false;
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
  /** The folder kept results are written to; undefined when the stack keeps none. */
  resultsDir: string | undefined;
  /** One line for the console. */
  describe(): string;
}

const KEY_ENV: Record<Capability, string> = {
  video: 'MEDIAKIT_KEY_VIDEO',
  headshot: 'MEDIAKIT_KEY_HEADSHOT',
  generate: 'MEDIAKIT_KEY_GENERATE',
  imageTools: 'MEDIAKIT_KEY_IMAGE_TOOLS',
};

export function createDevStack(options: DevStackOptions = {}): DevStack {
  const env = options.env ?? process.env;
  const basePath = options.basePath ?? '/mediakit';
  const sandboxPath = options.sandboxPath ?? '/sandbox';
  const realUpstream = env['MEDIAKIT_UPSTREAM'];
  const sandbox = realUpstream
    ? undefined
    : createSandbox({ speed: Number(env['MEDIAKIT_SANDBOX_SPEED'] ?? 12), ...options.sandbox });
  const resultsDir = resultsFolder(options.resultsDir);
  const secret =
    env['MEDIAKIT_SECRET'] ??
    (options.resultsDir ? devSecret(resultsDir!) : undefined) ??
    randomBytes(32).toString('hex');
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
    if (!/^\d{1,9}$/.test(cap))
      throw new Error(
        `mediakit dev stack: MEDIAKIT_ANONYMOUS_DAILY_CREDITS must be a whole number of credits; it was "${cap.slice(0, 40)}".`,
      );
    totalBudget = Number(cap);
  }

  async function upstreamSettings(): Promise<Pick<ProxyOptions, 'upstream' | 'keys'> & { account?: string }> {
    if (!sandbox) {
      const keys = Object.fromEntries(
        Object.entries(KEY_ENV)
          .map(([cap, name]) => [cap, env[name]])
          .filter(([, v]) => v),
      );
      return { upstream: realUpstream!, keys };
    }
    const response = await sandbox.fetch(
      new Request('http://sandbox/__sandbox/accounts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ credits: options.credits ?? 100_000 }),
      }),
    );
    const { keys, account_id } = (await response.json()) as { keys: Record<Capability, string>; account_id: string };
    return { upstream: (request) => sandbox.fetch(request), keys, account: account_id };
  }

  const settings = upstreamSettings();
  const proxy = settings.then(({ upstream, keys }) =>
    createProxy({
      upstream,
      keys,
      secret,
      basePath,
      authorize: options.authorize ?? demoAuthorize(budget, secret),
      ...(resultsDir ? { results: { store: fileResultStore({ dir: resultsDir }) } } : {}),
      ...(totalBudget !== undefined ? { totalBudget, budgetWindowSeconds: 86_400 } : {}),
      ...options.proxy,
    }),
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
    if (!sandbox || !s.account || !key)
      return sendJson(res, 404, {
        error: {
          code: 'not_found',
          message: 'The dev ledger exists only with the in-process sandbox (MEDIAKIT_UPSTREAM is set).',
        },
      });
    const r = await sandbox.fetch(
      new Request(`http://sandbox/__sandbox/accounts/${s.account}/ledger`, {
        headers: { authorization: `Bearer ${key}` },
      }),
    );
    const body = (await r.json()) as DevLedger;
    if (!r.ok)
      return sendJson(res, 502, {
        error: { code: 'upstream_error', message: `The sandbox refused the dev account's ledger (${r.status}).` },
      });
    sendJson(res, 200, withoutJobIds(body));
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
        devLedger(res).catch(
          () =>
            !res.headersSent &&
            sendJson(res, 502, {
              error: { code: 'upstream_error', message: "The sandbox did not answer the dev account's ledger." },
            }),
        );
        return;
      }
      // Development only: a listed file of this same server sent slowly (`?src=/assets/x.glb&seconds=30`),
      // so a viewer's loading state can be looked at (the viewers' Loading stories).
      if (sandbox && req.method === 'GET' && path === `${sandboxPath}/__dev/trickle`)
        return void trickle(req, res, trickleOptions);
    } else if (!path.startsWith(sandboxPath + '/') && path !== sandboxPath) {
      // The dev server's own pages (and Storybook's stories) get the dev token as they load.
      grantDevCookie(req, res);
    }
    if (sandboxMiddleware) return sandboxMiddleware(req, res, next);
    next();
  };

  const kept = options.resultsDir ? `; kept results in ${resultsDir}` : '';
  return {
    middleware,
    sandbox,
    proxy,
    account: settings.then((s) => s.account),
    devToken: DEV_TOKEN,
    grantDevCookie,
    resultsDir,
    describe: () =>
      sandbox
        ? `mediakit proxy at ${basePath} -> sandbox at ${sandboxPath} (clock x${sandbox.clock.speed}); each browser gets ${budget} credits a day${kept}`
        : `mediakit proxy at ${basePath} -> ${realUpstream}${totalBudget !== undefined ? ` (anonymous visitors: ${budget} credits each, ${totalBudget} a day in all)` : ''}${kept}`,
  };
}
