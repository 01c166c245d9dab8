/**
 * Fetching a remote image (`image_url`, 3D `images`) the way a careful provider would: public
 * hosts only, judged after DNS resolution on every hop (the address checked is the address
 * connected to, so a name cannot change its answer in between), at most a few redirects, a time
 * limit for the whole fetch and a byte limit. Every failure gives the same message, so the
 * sandbox is no port scanner: a refused host, a closed port and a 404 look alike.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ApiError, concatBytes, isBlockedAddress, isIpLiteral, remoteUrlProblem } from '../api/index.js';
import { imageUrlFailures, parseImageUrl } from './remote-url.js';

export interface RemoteFetchOptions {
  /** Time for the whole fetch, redirects included (ms). */
  timeoutMs: number;
  maxBytes: number;
  /** Redirects followed. Default 3. */
  maxRedirects?: number;
  /** Let URLs reach loopback addresses (127/8, ::1, localhost): tests serving images locally. Default false. */
  allowLoopback?: boolean;
  /** A fetch to use instead of the built-in client (redirects are then followed by hand, URLs checked by text only). */
  fetch?: typeof fetch;
}

const isLoopback = (address: string) =>
  /^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address) || /^::ffff:7f/i.test(address);

function allowedAddress(address: string, o: RemoteFetchOptions): boolean {
  return !isBlockedAddress(address) || (o.allowLoopback === true && isLoopback(address));
}

class Refused extends Error {}

/** The URL's own text may be fetched (before DNS). */
function allowedUrl(url: URL, o: RemoteFetchOptions): boolean {
  const problem = remoteUrlProblem(url.href);
  if (!problem) return true;
  if (!o.allowLoopback || url.username || url.password || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return host === 'localhost' || (isIpLiteral(host) && isLoopback(host));
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A lookup that refuses names resolving to any address outside the rule: the socket connects only to checked addresses. */
function checkedLookup(o: RemoteFetchOptions) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (addresses.length === 0 || addresses.some((a) => !allowedAddress(a.address, o)))
        return callback(Object.assign(new Refused('refused address'), { code: 'EREFUSED' }), []);
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

function get(url: URL, o: RemoteFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'GET',
      lookup: checkedLookup(o) as never,
      signal,
      headers: { accept: 'image/*' },
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
}

async function readAll(res: AsyncIterable<Uint8Array>, max: number, tooLarge: () => never): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res) {
    total += chunk.byteLength;
    if (total > max) tooLarge();
    chunks.push(chunk);
  }
  return concatBytes(chunks);
}

/** The image bytes at `raw`, or a 400 naming `field`. */
export async function fetchRemoteImage(raw: string, field: string, o: RemoteFetchOptions): Promise<Uint8Array> {
  const { unreachable, tooLarge } = imageUrlFailures(field, o.maxBytes);
  let url = parseImageUrl(raw, field);
  const signal = AbortSignal.timeout(o.timeoutMs);
  const maxRedirects = o.maxRedirects ?? 3;
  try {
    for (let hop = 0; ; hop++) {
      if (!allowedUrl(url, o)) unreachable();
      if (o.fetch) {
        const response = await o.fetch(url, { signal, redirect: 'manual' });
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel().catch(() => undefined);
          if (hop >= maxRedirects) unreachable();
          url = new URL(location, url);
          continue;
        }
        if (!response.ok || !response.body) unreachable();
        const length = response.headers.get('content-length');
        if (length !== null && Number(length) > o.maxBytes) tooLarge();
        return await readAll(response.body as unknown as AsyncIterable<Uint8Array>, o.maxBytes, tooLarge);
      }
      const res = await get(url, o, signal);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        if (hop >= maxRedirects) unreachable();
        url = new URL(res.headers.location, url);
        continue;
      }
      if (status < 200 || status > 299) {
        res.resume();
        unreachable();
      }
      const length = res.headers['content-length'];
      if (length !== undefined && Number(length) > o.maxBytes) {
        res.destroy();
        tooLarge();
      }
      return await readAll(res, o.maxBytes, tooLarge);
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    return unreachable();
  }
}
