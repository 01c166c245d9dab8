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
 * Where the browser allows no Service Worker (an opaque-origin iframe, `<iframe
 * sandbox="allow-scripts">`; a page over plain http that is not localhost), the page runs the proxy
 * and the sandbox itself (./in-page.ts, loaded only then) and answers its own calls to them.
 *
 * On a browser's first visit the page is not yet controlled by the worker, so the elements' first
 * calls would miss it: the playground waits for the worker to take the page and reloads it once.
 *
 * From code (stories, tests): `const pg = await playground` then `pg.advance(ms)` (the sandbox's
 * clock), `pg.fault(kind, { count, variants, ms })` (the next calls fail as asked) and
 * `pg.ledger()` (what was charged and refunded). Also on `globalThis.mediakitPlayground`.
 */
import { answerCodecCalls } from './codec.js';
import { ownedBy, playgroundPaths, targetOf } from './target.js';

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
  const started = start(options);
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

/**
 * No Service Worker: the page answers the playground's paths itself (./in-page.ts, loaded now).
 * Calls made before it has loaded (the elements ask for a session as they connect) wait for it.
 */
function inPage(scope: URL): Promise<void> {
  const network = window.fetch.bind(window);
  const owned = ownedBy(scope);
  const ready = import('./in-page.js').then(({ runInPage }) => runInPage(scope.href, network));
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = targetOf(input);
    return url && owned(url) ? ready.then(() => window.fetch(input, init)) : network(input, init);
  };
  return ready.then(() => undefined);
}

async function start(options: PlaygroundOptions): Promise<Playground> {
  addMark();
  const named = document.querySelector<HTMLMetaElement>('meta[name="mediakit-playground-worker"]')?.content;
  const worker = new URL(
    options.worker ?? named ?? new URL(/* @vite-ignore */ './playground-sw.js', import.meta.url),
    document.baseURI, // a srcdoc iframe's location is about:srcdoc; its base is its parent's
  );
  const container = serviceWorkers();
  if (!container) {
    // In the page, the paths are on the page's own origin: under the worker's folder when that is
    // there too, else under the page's folder (playground.js loaded from a CDN).
    const page = new URL('./', document.baseURI);
    const scope = worker.origin === page.origin ? new URL('./', worker) : page;
    const { endpoint } = playgroundPaths(scope);
    if (endpoint !== '/mediakit') followEndpoint(endpoint);
    await inPage(scope);
    return controls(scope, 'page');
  }
  const scope = new URL('./', worker);
  const { endpoint } = playgroundPaths(scope);
  // A Service Worker serves only pages in its own folder or below (MSW's mockServiceWorker.js has the same rule).
  if (worker.origin !== location.origin || !location.pathname.startsWith(scope.pathname))
    throw new Error(
      `mediakit playground: the worker ${worker.href} cannot serve this page (${location.href}): a Service Worker serves only pages of its own origin in its own folder or below. Copy playground-sw.js (in the package's cdn/ folder and dist/playground/) into this page's folder or the site's root (a bundled app's public/ folder), and name it: startPlayground({ worker: '/playground-sw.js' }) or <meta name="mediakit-playground-worker" content="/playground-sw.js">.`,
    );
  const registration = await container.register(worker.href, { scope: scope.pathname });
  // The worker has no WebCodecs: this page encodes and decodes video for it.
  answerCodecCalls(container);
  if (!container.controller) {
    // The elements' first calls went to the network: reload once the worker has taken the page.
    await new Promise<void>((resolve) => {
      container.addEventListener('controllerchange', () => resolve(), { once: true });
      // A new worker takes the page as it activates; one already active (the page was hard-reloaded
      // past it) is asked to take it again.
      registration.active?.postMessage('claim');
    });
    location.reload();
    return new Promise<never>(() => undefined);
  }
  if (endpoint !== '/mediakit') followEndpoint(endpoint);
  return controls(scope, 'worker');
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
  };
}

/** The page's playground, started as this module loads. */
export const playground: Promise<Playground> = startPlayground();
