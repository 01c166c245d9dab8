/**
 * The `remoteImages` policy: which image URLs a browser may make upstream fetch. The static rule
 * lives in src/api (network.ts, shared with the sandbox); here the proxy also resolves names where
 * the runtime can (Node's dns), so a public-looking name that resolves to a private address is
 * refused too. Upstream must still check after its own resolution (DNS can change in between);
 * the sandbox does.
 */
import { isBlockedAddress, isIpLiteral, remoteUrlProblem } from '../../api/index.js';
import type { RemoteImagesPolicy } from '../options.js';
import { refuse } from './respond.js';

type Lookup = (host: string) => Promise<string[]>;

let lookupPromise: Promise<Lookup | undefined> | undefined;

/** Node's resolver, when there is one (not in browsers or Workers). */
function resolver(): Promise<Lookup | undefined> {
  lookupPromise ??= (async () => {
    try {
      const dns = (await import('node:dns')) as typeof import('node:dns');
      return (host: string) =>
        new Promise<string[]>((resolve, reject) =>
          dns.lookup(host, { all: true, verbatim: true }, (err, addresses) =>
            err ? reject(err) : resolve(addresses.map((a) => a.address)),
          ),
        );
    } catch {
      return undefined;
    }
  })();
  return lookupPromise;
}

const RESOLVE_TIMEOUT_MS = 2000;

async function resolvesPrivate(host: string): Promise<boolean> {
  const lookup = await resolver();
  if (!lookup) return false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const addresses = await Promise.race([
      lookup(host),
      new Promise<string[]>((resolve) => (timer = setTimeout(() => resolve([]), RESOLVE_TIMEOUT_MS))),
    ]);
    return addresses.some(isBlockedAddress);
  } catch {
    // Does not resolve here: upstream cannot fetch it either, and checks again itself.
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Refuses (400, naming the field) a remote image URL the policy does not allow. */
export async function checkRemoteImage(field: string, value: string, policy: RemoteImagesPolicy): Promise<void> {
  if (policy === 'deny')
    refuse(
      'invalid_request',
      `${field}: this site does not accept image URLs. Send the image itself (a file, base64 or a data: URL).`,
    );
  if (typeof policy === 'function') {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    let allowed = false;
    if (url) {
      try {
        allowed = (await policy(url)) === true;
      } catch {
        allowed = false;
      }
    }
    if (!allowed)
      refuse(
        'invalid_request',
        `${field}: this site does not accept this image URL. Send the image itself, or a URL the site allows.`,
      );
    return;
  }
  const problem = remoteUrlProblem(value);
  if (problem) refuse('invalid_request', `${field} ${problem}; use a public http(s) URL or send the image itself.`);
  const host = new URL(value).hostname.replace(/\.$/, '');
  if (!isIpLiteral(host) && (await resolvesPrivate(host))) {
    refuse(
      'invalid_request',
      `${field} points at a private or local network address; use a public http(s) URL or send the image itself.`,
    );
  }
}
