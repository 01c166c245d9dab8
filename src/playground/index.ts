/**
 * The playground: `import '@mediakit/elements/playground.js'` in a bundled app, or
 * `<script type="module" src="./playground.js">` in a page saved in the CDN build's folder, and
 * every element on the page works from any static file server, with nothing charged. It registers
 * `playground-sw.js`, a Service Worker that runs the session-token proxy and the sandbox in the
 * browser at the elements' endpoint (./worker.ts).
 *
 * Opt-in only: nothing in the elements imports it, and `npm run size` checks that their bundles
 * never reach it.
 *
 * Where the worker is: `startPlayground({ worker })`, else `<meta name="mediakit-playground-worker"
 * content="…">`, else `playground-sw.js` beside this module. A Service Worker serves only the
 * pages in its own folder or below, so a bundled app copies the file into its public folder and
 * names it (as MSW's mockServiceWorker.js is copied). The elements' endpoint is `<worker's
 * folder>mediakit`: `/mediakit`, their default, for a worker at the site's root; otherwise the
 * playground sets `endpoint` on every element of the page that does not name its own.
 *
 * Where the worker cannot serve the page, the page runs the proxy and the sandbox itself
 * (./in-page.ts, loaded only then) and answers its own calls to them: where the browser allows no
 * Service Worker (an opaque-origin iframe, `<iframe sandbox="allow-scripts">`; a page over plain
 * http that is not localhost), and, with one console.info on how to use the worker, where the
 * worker's folder does not hold the page (a page at the root loading
 * `node_modules/@mediakit/elements/cdn/playground.js`, playground.js from a CDN on another origin),
 * or the worker could not be registered or did not take the page. Then the paths are under the
 * worker's folder if the page is in it, else under the page's own folder.
 *
 * The worker answers only pages that opted in during their load (./worker.ts): this module sends
 * it the opt-in request (./target.ts) each load, and again whenever a new worker takes the page.
 *
 * The elements ask for a session and their job list as they connect, before the worker has taken
 * the page on a first visit: their `fetch` calls to the playground's paths are held until the
 * worker has taken the page and this page's opt-in, or until the page runs the playground, so no
 * first call reaches the site's server and no reload is needed.
 *
 * From code (stories, tests): `const pg = await playground` then `pg.advance(ms)` (the sandbox's
 * clock), `pg.fault(kind, { count, variants, ms })` (the next calls fail as asked) and
 * `pg.ledger()` (what was charged and refunded). Also on `globalThis.mediakitPlayground`.
 */
import { addMark, followEndpoint } from './page-mark.js';
import { forgetReload, holdCalls, optIn, serviceWorkers, viaWorker, type Hold } from './take-page.js';
import { ownedBy, playgroundPaths } from './target.js';

/** The sandbox's fault kinds (the spec's failure scenarios). */
export type PlaygroundFault =
  'job_fail' | 'create_error' | 'variant_fail' | 'all_variants_fail' | 'rate_limit' | 'expire' | 'slow';

export interface PlaygroundLedger {
  account_id: string;
  balance: number;
  entries: Array<Record<string, unknown>>;
}

export interface Playground {
  /** The elements' endpoint the worker answers. */
  readonly endpoint: string;
  /** Where the sandbox's control plane is (`<scope>sandbox`). */
  readonly sandboxPath: string;
  /**
   * Where the proxy and the sandbox run: in the Service Worker, or in this page where the browser
   * allows no Service Worker (an opaque-origin iframe, a page over plain http).
   */
  readonly runs: 'worker' | 'page';
  /** Moves the sandbox's clock forward (jobs finish, links expire). */
  advance(ms: number): Promise<void>;
  /** Arms a fault for the next calls (`count` of them, default 1). */
  fault(kind: PlaygroundFault, extra?: { count?: number; variants?: number[]; ms?: number }): Promise<void>;
  /** The pretend account's balance and ledger (job ids left out). */
  ledger(): Promise<PlaygroundLedger>;
  /**
   * Starts a new pretend visitor: a full budget, and none of the last visitor's jobs or kept
   * results. Sessions the page already holds stay the old visitor's: call `clearStoredData()` too.
   */
  newVisitor(): Promise<void>;
}

export interface PlaygroundOptions {
  /** The worker script's URL. Default: `playground-sw.js` beside this module. */
  worker?: string | URL;
}

async function call(url: string, init?: RequestInit): Promise<Response> {
  const r = await fetch(url, init);
  if (!r.ok) {
    const body = (await r.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(`mediakit playground: ${body?.error?.message ?? `${url} answered ${r.status}`}`);
  }
  return r;
}

/** Starts the playground (once per page; later calls get the same one). */
export function startPlayground(options: PlaygroundOptions = {}): Promise<Playground> {
  const existing = (globalThis as { mediakitPlayground?: Promise<Playground> }).mediakitPlayground;
  if (existing) return existing;
  let started: Promise<Playground>;
  try {
    started = start(options);
  } catch (err) {
    started = Promise.reject(err as Error);
  }
  (globalThis as { mediakitPlayground?: Promise<Playground> }).mediakitPlayground = started;
  return started;
}

/**
 * The page answers the playground's paths itself (./in-page.ts, loaded now): where the browser
 * allows no Service Worker, or the worker cannot serve this page. The held calls go to it.
 */
async function runInThisPage(scope: URL, hold: Hold): Promise<void> {
  const { runInPage } = await import('./in-page.js');
  hold.open(runInPage(scope.href, hold.network).fetch);
}

const WORKER_ADVICE =
  "To run it in the worker instead (results kept across visits), copy playground-sw.js (in the package's cdn/ folder and dist/playground/) into this page's folder or the site's root (a bundled app's public/ folder), and name it: startPlayground({ worker: '/playground-sw.js' }) or <meta name=\"mediakit-playground-worker\" content=\"/playground-sw.js\">.";

function start(options: PlaygroundOptions): Promise<Playground> {
  addMark();
  const named = document.querySelector<HTMLMetaElement>('meta[name="mediakit-playground-worker"]')?.content;
  const worker = new URL(
    options.worker ?? named ?? new URL(/* @vite-ignore */ './playground-sw.js', import.meta.url),
    document.baseURI, // a srcdoc iframe's location is about:srcdoc; its base is its parent's
  );
  const folder = new URL('./', worker);
  const page = new URL('./', document.baseURI);
  const container = serviceWorkers();
  // A Service Worker serves only the pages of its own origin in its own folder or below (MSW's
  // mockServiceWorker.js has the same rule).
  const servable =
    container !== null &&
    /^https?:$/.test(location.protocol) &&
    worker.origin === location.origin &&
    location.pathname.startsWith(folder.pathname);
  // The paths are under the worker's folder when this page is in it, else under the page's own
  // folder (playground.js loaded from a CDN, or from a folder above the page's).
  const scope = worker.origin === page.origin && page.pathname.startsWith(folder.pathname) ? folder : page;
  const { endpoint } = playgroundPaths(scope);
  const hold = holdCalls(ownedBy(scope));
  if (endpoint !== '/mediakit') followEndpoint(endpoint);
  if (!servable) {
    // Where the browser allows no Service Worker (an opaque-origin iframe, plain http), nothing
    // else could run it; elsewhere the page is told how to use the worker.
    if (container)
      console.info(
        `mediakit playground: runs in this page, because the worker ${worker.href} cannot serve it (${location.href}): a Service Worker serves only pages of its own origin in its own folder or below. Nothing is kept past the page. ${WORKER_ADVICE}`,
      );
    return runInThisPage(scope, hold).then(() => controls(scope, 'page'));
  }
  // Already the worker's: the opt-in goes out now, ahead of every request the page makes after.
  const early = container.controller?.scriptURL === worker.href ? optIn(scope, hold.network) : undefined;
  early?.catch(() => undefined); // viaWorker reports it
  if (early) forgetReload();
  return viaWorker(container, worker, scope, hold, early).then(
    () => controls(scope, 'worker'),
    async (err: unknown) => {
      console.info(
        `mediakit playground: runs in this page, because the worker ${worker.href} does not serve it: ${(err instanceof Error ? err.message : String(err)).replace(/\.+$/, '')}. Nothing is kept past the page. ${WORKER_ADVICE}`,
      );
      await runInThisPage(scope, hold);
      return controls(scope, 'page');
    },
  );
}

/** The playground's controls from code: its clock, faults and ledger, through its control paths. */
function controls(scope: URL, runs: Playground['runs']): Playground {
  const { endpoint, sandboxPath } = playgroundPaths(scope);
  let account: Promise<string> | undefined;
  const accountId = () =>
    (account ??= call(`${sandboxPath}/__dev/account`)
      .then((r) => r.json())
      .then((b: { account_id: string }) => b.account_id));
  const post = (path: string, body: unknown) =>
    call(sandboxPath + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  return {
    endpoint,
    sandboxPath,
    runs,
    async advance(ms) {
      await post('/__sandbox/clock', { advance_ms: ms });
    },
    async fault(kind, extra = {}) {
      await post('/__sandbox/faults', { account_id: await accountId(), kind, ...extra });
    },
    async ledger() {
      return (await call(`${sandboxPath}/__dev/ledger`)).json() as Promise<PlaygroundLedger>;
    },
    async newVisitor() {
      await post('/__dev/visitor', {});
    },
  };
}

/** The page's playground, started as this module loads. */
export const playground: Promise<Playground> = startPlayground();
