/**
 * The demo's visitors: every browser gets an anonymous id in a first-party HttpOnly cookie, and
 * the demo's `authorize` makes a subject of it. A site replaces both with its own login check.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProxyOptions } from '../proxy/index.js';
import { appendSetCookie } from './control-gate.js';

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
    return id
      ? {
          subject: `demo:${createHmac('sha256', secret).update(`mediakit demo subject\0${id}`).digest('base64url').slice(0, 22)}`,
          budget,
        }
      : null;
  };
}

/** Gives a browser without one an anonymous id cookie (HttpOnly, first-party, a year). */
export function ensureDemoCookie(req: IncomingMessage, res: ServerResponse): void {
  if (DEMO_COOKIE_PATTERN.test(req.headers.cookie ?? '')) return;
  const id = randomUUID();
  appendSetCookie(res, `${DEMO_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000`);
  req.headers.cookie = (req.headers.cookie ? req.headers.cookie + '; ' : '') + `${DEMO_COOKIE}=${id}`;
}
