/**
 * The dev stack's control-plane gate (applied in stack.ts). The sandbox's control plane (accounts,
 * faults, clock, ledgers) and the dev routes are for the dev server's own pages. Vite answers
 * CORS for every localhost origin, and cookies are shared by every port of a host, so another
 * local app's page (or a page on a name rebound to 127.0.0.1) could otherwise read the dev account
 * and arm faults against the next visitor's calls.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loopbackHost } from '../server/loopback.js';

/** One per process: every stack in it (`npm start`'s two, the test server's ten) shares it, so one cookie serves them all. */
export const DEV_TOKEN = randomBytes(32).toString('hex');
const DEV_TOKEN_HEADER = 'x-mediakit-dev-token';

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

const ownOrigin = (req: IncomingMessage) =>
  `${(req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${(req.headers.host ?? '').toLowerCase()}`;

/** Why a control-plane request is refused, in words that say what to do; undefined when it may pass. */
export function gateRefusal(req: IncomingMessage): string | undefined {
  const what = "The dev stack's control plane (__sandbox and __dev routes) answers only the dev server's own pages";
  if (!loopbackHost(req))
    return `${what}, at a loopback name: the Host "${String(req.headers.host ?? '').slice(0, 80)}" is not localhost, 127.0.0.1, [::1] or this server's address. Open the dev server as http://localhost:${req.socket.localPort}/.`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== ownOrigin(req))
    return `${what}: the request's Origin ${origin.slice(0, 80)} is not this server (${ownOrigin(req)}). Call it from a page this dev server serves.`;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    return `${what}: the browser says the request came from another site or origin (Sec-Fetch-Site: ${String(site).slice(0, 20)}). Call it from a page this dev server serves.`;
  const header = req.headers[DEV_TOKEN_HEADER];
  if (typeof header === 'string')
    return sameToken(header)
      ? undefined
      : `${what}: the ${DEV_TOKEN_HEADER} header does not hold this process's dev token. Send DevStack.devToken (createDevStack's result) from Node scripts.`;
  if (sameToken(devCookie(req))) return undefined;
  return `${what}: it needs the dev token. A page of this server gets it in the ${devCookieName(req)} cookie when it loads (reload the page); a Node script sends the ${DEV_TOKEN_HEADER} header with DevStack.devToken.`;
}

export function grantDevCookie(req: IncomingMessage, res: ServerResponse): boolean {
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
export function dropCorsHeaders(res: ServerResponse): void {
  for (const name of res.getHeaderNames()) if (name.startsWith('access-control-')) res.removeHeader(name);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

/** Adds a Set-Cookie to a response without dropping one set before (the demo cookie and the dev token cookie). */
export function appendSetCookie(res: ServerResponse, cookie: string): void {
  const prev = res.getHeader('set-cookie');
  res.setHeader(
    'set-cookie',
    prev === undefined ? [cookie] : [...(Array.isArray(prev) ? prev : [String(prev)]), cookie],
  );
}
