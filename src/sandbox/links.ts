/**
 * Signed, expiring download links (spec: download URLs are authorized by the signed, unguessable
 * job id; archive links expire after about 60 minutes and each poll mints fresh ones).
 */
import { toBase64Url } from '../api/index.js';
import { randomId } from './accounts.js';
import type { Hasher } from './platform.js';

const encoder = new TextEncoder();

/** HMAC-SHA-256 (RFC 2104) over the platform's SHA-256, synchronous like the signing it serves. */
export function hmacSha256(sha256: () => Hasher, key: Uint8Array, message: Uint8Array): Uint8Array {
  const block = new Uint8Array(64);
  block.set(key.byteLength > 64 ? sha256().update(key).digest() : key);
  const inner = block.map((b) => b ^ 0x36);
  const outer = block.map((b) => b ^ 0x5c);
  return sha256().update(outer).update(sha256().update(inner).update(message).digest()).digest();
}

/** Compares two strings in time that depends only on their length. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export class LinkSigner {
  readonly #secret: Uint8Array;

  constructor(
    private readonly sha256: () => Hasher,
    secret?: string,
  ) {
    this.#secret = secret ? encoder.encode(secret) : crypto.getRandomValues(new Uint8Array(32));
  }

  /** `expires=…&sig=…` for a job's downloads, valid until `expires` (sandbox ms). */
  query(jobId: string, scope: string, expires: number): string {
    return `expires=${expires}&sig=${this.#sign(jobId, scope, expires)}`;
  }

  verify(
    jobId: string,
    scope: string,
    expires: string | null,
    sig: string | null,
    now: number,
  ): 'ok' | 'invalid' | 'expired' {
    if (!expires || !sig || !/^\d{1,16}$/.test(expires)) return 'invalid';
    if (!sameText(sig, this.#sign(jobId, scope, Number(expires)))) return 'invalid';
    return Number(expires) < now ? 'expired' : 'ok';
  }

  #sign(jobId: string, scope: string, expires: number): string {
    const mac = hmacSha256(this.sha256, this.#secret, encoder.encode(`${scope}\n${jobId}\n${expires}`));
    return toBase64Url(mac).slice(0, 32);
  }
}

/** `job_` and 24 random bytes: unguessable, so a job id alone can authorize its downloads. */
export function newJobId(): string {
  return 'job_' + randomId(24);
}
