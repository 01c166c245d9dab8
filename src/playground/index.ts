/**
 * The playground (issue 23): `import '@mediakit/elements/playground.js'` in a bundled app, or
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
import { answerCodecCalls } from './codec.js';
import { OPT_IN_HEADER, optInUrl, ownedBy, playgroundPaths, targetOf } from './target.js';

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

const TAGS = ['video-to-3d-uploader', 'headshot-studio', 'model-generator', 'bg-tool', 'credit-badge'];

/** "Playground: nothing is charged", in the elements' languages. */
const MARK: Record<string, string> = {
  en: 'Playground: nothing is charged',
  de: 'Spielwiese: es wird nichts berechnet',
  es: 'Zona de pruebas: no se cobra nada',
  fr: 'Bac à sable : rien n’est facturé',
  it: 'Area di prova: non viene addebitato nulla',
  nl: 'Speeltuin: er wordt niets in rekening gebracht',
  pl: 'Piaskownica: nic nie jest pobierane',
  'pt-BR': 'Ambiente de testes: nada é cobrado',
  ja: 'プレイグラウンド：料金は発生しません',
  ko: '플레이그라운드: 요금이 청구되지 않습니다',
  'zh-Hans': '演练场：不收取任何费用',
  ar: 'بيئة تجريبية: لا يتم خصم أي رصيد',
};

/** The mark above every element: the page's own stylesheet, so the elements carry nothing for it. */
function markStyles(): string {
  const hosts = TAGS.filter((t) => t !== 'credit-badge').join(', ');
  // The badge is a small inline pill: it gets the first word ("Playground") beside it.
  const short = (text: string) => text.split(/\s*[:：]/)[0]!;
  const pill = `padding: 2px 10px;
      border-radius: 999px;
      font: 600 12px/1.6 system-ui, sans-serif;
      color: #6b4400;
      background: #fff1cc;
      border: 1px solid #f0c36a;`;
  return [
    `:is(${hosts})::before {
      content: ${JSON.stringify(MARK['en'])};
      display: block;
      inline-size: fit-content;
      margin-block-end: 6px;
      ${pill}
    }`,
    `credit-badge::before {
      content: ${JSON.stringify(short(MARK['en']!))};
      display: inline-block;
      vertical-align: middle;
      margin-inline-end: 6px;
      ${pill}
    }`,
    `@media (prefers-color-scheme: dark) {
      :is(${hosts}, credit-badge)::before { color: #ffe3a3; background: #3d2c06; border-color: #8a6414; }
    }`,
    ...Object.entries(MARK)
      .filter(([code]) => code !== 'en')
      .flatMap(([code, text]) => [
        `:is(${hosts}):lang(${code})::before { content: ${JSON.stringify(text)}; }`,
        `credit-badge:lang(${code})::before { content: ${JSON.stringify(short(text))}; }`,
      ]),
  ].join('\n');
}

function addMark(): void {
  if (document.getElementById('mediakit-playground-mark')) return;
  const style = document.createElement('style');
  style.id = 'mediakit-playground-mark';
  style.textContent = markStyles();
  document.head.append(style);
}

/** Points every element without its own `endpoint` at the worker's (now and as elements are added). */
function followEndpoint(endpoint: string): void {
  const point = (root: ParentNode) => {
    for (const el of root.querySelectorAll(TAGS.join(','))) {
      if (!el.hasAttribute('endpoint')) el.setAttribute('endpoint', endpoint);
    }
  };
  point(document);
  new MutationObserver((records) => {
    for (const r of records)
      for (const node of r.addedNodes) {
        if (!(node instanceof Element)) continue;
        if (TAGS.includes(node.localName) && !node.hasAttribute('endpoint')) node.setAttribute('endpoint', endpoint);
        point(node);
      }
  }).observe(document.documentElement, { childList: true, subtree: true });
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

/** The page's Service Workers, where the browser allows them (not in an opaque-origin frame, nor over plain http). */
function serviceWorkers(): ServiceWorkerContainer | null {
  try {
    return window.isSecureContext && 'serviceWorker' in navigator ? navigator.serviceWorker : null;
  } catch {
    // An opaque origin (a sandboxed iframe without allow-same-origin) throws a SecurityError here.
    return null;
  }
}

/** How long the page waits for the worker to take it before the playground runs in the page instead. */
const TAKE_MS = 20_000;

/**
 * Holds the page's calls to the playground's paths until something answers them: `open(f)` hands
 * the held calls and every later one to `f` (the network once the worker controls the page and
 * has taken this page's opt-in; the page's own stack in the page), `close()` holds them again.
 * The elements' first calls (a session, the job list) are made as they connect, before the
 * worker has taken the page on a first visit: held, they never reach the site's server.
 */
function holdCalls(owned: (url: URL) => boolean) {
  const network = window.fetch.bind(window);
  let open: ((answer: typeof fetch) => void) | undefined;
  let answer!: Promise<typeof fetch>;
  const close = () => {
    // Calls already held keep waiting on the same promise.
    if (!open) answer = new Promise((resolve) => (open = resolve));
  };
  close();
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = targetOf(input);
    return url && owned(url) ? answer.then((f) => f(input, init)) : network(input, init);
  };
  return {
    network,
    open(f: typeof fetch) {
      open?.(f);
      open = undefined;
    },
    close,
  };
}

type Hold = ReturnType<typeof holdCalls>;

/** Tells the worker controlling this page that the page wants the playground (./target.ts). */
async function optIn(scope: URL, network: typeof fetch): Promise<void> {
  const r = await network(optInUrl(scope), { method: 'POST', headers: { [OPT_IN_HEADER]: 'opt-in' } });
  if (r.status !== 204 || r.headers.get(OPT_IN_HEADER) !== 'opted-in')
    throw new Error(`the worker did not take this page's opt-in (${r.status})`);
}

/**
 * On a load the worker did not control from its start, requests the hold cannot catch (an `<img>`
 * or `<video>` of a kept result, as a saved value shows) went to the network before the worker
 * took the page: then the page is reloaded, once, for the worker to answer them.
 */
const RELOADED = 'mediakit-playground-reloaded';

/** A load the worker controlled from its start: a later miss may reload again. */
function forgetReload(): void {
  try {
    sessionStorage.removeItem(RELOADED);
  } catch {
    // No storage: nothing was kept.
  }
}

function reloadIfMissed(owned: (url: URL) => boolean): (takenAt: number) => void {
  let takenAt: number | undefined;
  const missed: PerformanceEntry[] = [];
  const check = () => {
    if (takenAt === undefined || !missed.some((e) => e.startTime < takenAt!)) return;
    try {
      if (sessionStorage.getItem(RELOADED) === location.href) return; // reloaded once already
      sessionStorage.setItem(RELOADED, location.href);
    } catch {
      return; // no storage: no way to reload only once
    }
    location.reload();
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceResourceTiming[]) {
      let url: URL;
      try {
        url = new URL(entry.name);
      } catch {
        continue;
      }
      if (entry.initiatorType !== 'fetch' && owned(url)) missed.push(entry);
    }
    check();
  }).observe({ type: 'resource', buffered: true });
  return (at) => {
    takenAt = at;
    check();
  };
}

/**
 * The worker serves this page: registered, it takes the page (on a first visit, or after a hard
 * reload that passed it, or from another worker that held it), and the page opts in, again each
 * time this worker takes it anew (an updated one, one registered again). `early` is the opt-in
 * sent as the page started, when the worker controlled it already. Rejects when the worker cannot
 * be registered or does not take the page within TAKE_MS.
 */
async function viaWorker(
  container: ServiceWorkerContainer,
  worker: URL,
  scope: URL,
  hold: Hold,
  early: Promise<void> | undefined,
): Promise<void> {
  let gaveUp = false;
  const ours = () => container.controller?.scriptURL === worker.href;
  const opened = (optedIn: Promise<void>) =>
    optedIn.then(() => {
      if (!gaveUp) hold.open(hold.network);
    });
  /** Holds the calls until the worker now controlling the page has taken its opt-in. */
  const optInNow = () => {
    hold.close();
    return opened(optIn(scope, hold.network));
  };
  const taken = new Promise<void>((resolve, reject) => {
    container.addEventListener('controllerchange', () => {
      if (!gaveUp && ours()) optInNow().then(resolve, reject);
    });
  });
  taken.catch(() => undefined); // awaited below only when the worker has yet to take the page
  const tookPage = early ? undefined : reloadIfMissed(ownedBy(scope));
  try {
    const registration = await container.register(worker.href, { scope: scope.pathname });
    // A worker of a narrower scope (the site's own) holds this page: ours can never take it.
    const matching = await container.getRegistration(location.href);
    if (matching && matching.scope !== registration.scope)
      throw new Error(`the Service Worker of ${matching.scope} serves it`);
    // The worker has no WebCodecs: this page encodes and decodes video for it.
    answerCodecCalls(container);
    if (early) return await opened(early);
    if (ours()) {
      await optInNow();
    } else {
      // A new worker takes the page as it activates; one already active (the page was
      // hard-reloaded past it, or another worker holds it) is asked to take it again.
      registration.active?.postMessage('claim');
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        taken,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`it did not take the page within ${TAKE_MS / 1000} s`)), TAKE_MS);
        }),
      ]).finally(() => clearTimeout(timer));
    }
    tookPage?.(performance.now());
  } catch (err) {
    gaveUp = true;
    throw err;
  }
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
