/**
 * Signed, expiring download links (spec: download URLs are authorized by the signed, unguessable
 * job id; archive links expire after about 60 minutes and each poll mints fresh ones).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export class LinkSigner {
  readonly #secret: Buffer;

  constructor(secret?: string) {
    this.#secret = secret ? Buffer.from(secret) : randomBytes(32);
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
    const expected = Buffer.from(this.#sign(jobId, scope, Number(expires)));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return Number(expires) < now ? 'expired' : 'ok';
  }

  #sign(jobId: string, scope: string, expires: number): string {
    return createHmac('sha256', this.#secret).update(`${scope}\n${jobId}\n${expires}`).digest('base64url').slice(0, 32);
  }
}

/** `job_` and 24 random bytes: unguessable, so a job id alone can authorize its downloads. */
export function newJobId(): string {
  return 'job_' + randomBytes(24).toString('base64url');
}
