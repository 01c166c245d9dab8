/**
 * The playground's Service Worker taking the page (./index.ts): the page's calls to the
 * playground's paths held until something answers them, the opt-in the worker answers pages by,
 * and, on a first visit, one reload where requests the hold cannot catch went out before the
 * worker took the page.
 */
import { answerCodecCalls } from './codec.js';
import { OPT_IN_HEADER, optInUrl, ownedBy, targetOf } from './target.js';

/** The page's Service Workers, where the browser allows them (not in an opaque-origin frame, nor over plain http). */
export function serviceWorkers(): ServiceWorkerContainer | null {
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
export function holdCalls(owned: (url: URL) => boolean) {
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

export type Hold = ReturnType<typeof holdCalls>;

/** Tells the worker controlling this page that the page wants the playground (./target.ts). */
export async function optIn(scope: URL, network: typeof fetch): Promise<void> {
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
export function forgetReload(): void {
  try {
    sessionStorage.removeItem(RELOADED);
  } catch {
    // No storage: nothing was kept.
  }
}

export function reloadIfMissed(owned: (url: URL) => boolean): (takenAt: number) => void {
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
export async function viaWorker(
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
