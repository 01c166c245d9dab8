/**
 * Session tokens: compact JWS (jose), HS256 with the current secret's token key, `kid` naming it.
 *
 * Header `typ` is `mediakit-session+jwt` (RFC 8725 explicit typing), so no other JWT the site
 * signs can pass as a session. Verification pins the algorithm, the type, the issuer and the
 * audience, and requires every claim; any failure is the same "not a valid session" to the caller.
 */
import { SignJWT, jwtVerify, decodeProtectedHeader, errors } from 'jose';
import { CAPABILITIES, type Capability } from '../../api/index.js';
import { canonicalCompact, type Keyring } from './secrets.js';

export const TOKEN_TYPE = 'mediakit-session+jwt';
const ALGORITHM = 'HS256';
/** Clock skew tolerated between proxy instances. */
const CLOCK_TOLERANCE_S = 5;

/** What a session may do; the claims of its token. */
export interface SessionClaims {
  /** The end user, as the site's `authorize` hook named them. Jobs are bound to it. */
  subject: string;
  /** The capabilities this session may call. */
  capabilities: Capability[];
  /** Credits the subject may spend per budget window. */
  budget: number;
  /**
   * A team or site the subject works in (1-200 characters). Jobs are then bound to the scope, so
   * every subject of the same scope can poll, download and keep them; budgets, rate limits and
   * idempotency stay the subject's own.
   */
  scope?: string;
  /** Bytes of kept results this subject may hold; overrides the proxy's `results.quotaBytes`. */
  storageQuota?: number;
}

export interface VerifiedSession extends SessionClaims {
  /** Token id. */
  jti: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export interface TokenSettings {
  issuer: string;
  audience: string;
  ttlSeconds: number;
  /** The proxy keeps results: every token says so in a `keep: true` claim (pages read it unverified). */
  keep?: boolean;
}

/** Checks claims from the site (authorize or mintToken) and says what is wrong in words. */
export function checkClaims(claims: unknown, where: string): SessionClaims {
  const c = claims as Partial<SessionClaims> | null;
  if (!c || typeof c !== 'object') throw new TypeError(`${where}: expected { subject, capabilities, budget }.`);
  if (typeof c.subject !== 'string' || c.subject.length < 1 || c.subject.length > 256) {
    throw new TypeError(`${where}: subject must be a string of 1-256 characters naming the end user.`);
  }
  if (!Array.isArray(c.capabilities) || c.capabilities.some((x) => !CAPABILITIES.includes(x))) {
    throw new TypeError(`${where}: capabilities must be an array of ${CAPABILITIES.map((x) => `"${x}"`).join(', ')}.`);
  }
  if (typeof c.budget !== 'number' || !Number.isInteger(c.budget) || c.budget < 0 || c.budget > 1e9) {
    throw new TypeError(`${where}: budget must be a whole number of credits (0 or more).`);
  }
  const out: SessionClaims = { subject: c.subject, capabilities: [...new Set(c.capabilities)], budget: c.budget };
  if (c.scope !== undefined && c.scope !== null) {
    if (typeof c.scope !== 'string' || !/^[^\x00-\x1f\x7f]{1,200}$/.test(c.scope))
      throw new TypeError(
        `${where}: scope must be a string of 1-200 characters (no control characters) naming a team or site.`,
      );
    out.scope = c.scope;
  }
  if (c.storageQuota !== undefined && c.storageQuota !== null) {
    if (typeof c.storageQuota !== 'number' || !Number.isSafeInteger(c.storageQuota) || c.storageQuota < 0)
      throw new TypeError(`${where}: storageQuota must be a whole number of bytes (0 or more).`);
    out.storageQuota = c.storageQuota;
  }
  return out;
}

export async function signToken(
  keyring: Keyring,
  settings: TokenSettings,
  claims: SessionClaims,
  now = Date.now(),
): Promise<{ token: string; exp: number }> {
  const { kid, key } = await keyring.signingKey();
  const iat = Math.floor(now / 1000);
  const exp = iat + settings.ttlSeconds;
  const payload: Record<string, unknown> = { capabilities: claims.capabilities, budget: claims.budget };
  if (claims.scope !== undefined) payload['scope'] = claims.scope;
  if (claims.storageQuota !== undefined) payload['storageQuota'] = claims.storageQuota;
  if (settings.keep) payload['keep'] = true;
  const token = await new SignJWT(payload)
    .setProtectedHeader({ alg: ALGORITHM, typ: TOKEN_TYPE, kid })
    .setIssuer(settings.issuer)
    .setAudience(settings.audience)
    .setSubject(claims.subject)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(crypto.randomUUID())
    .sign(key);
  return { token, exp };
}

export type VerifyFailure = 'expired' | 'invalid';

export async function verifyToken(
  keyring: Keyring,
  settings: TokenSettings,
  token: string,
  now = Date.now(),
): Promise<VerifiedSession | VerifyFailure> {
  // jose decodes non-canonical base64url too; a changed unused bit must not leave a token valid.
  if (!canonicalCompact(token)) return 'invalid';
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return 'invalid';
  }
  const key = await keyring.verificationKey(kid);
  if (!key) return 'invalid';
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [ALGORITHM],
      typ: TOKEN_TYPE,
      issuer: settings.issuer,
      audience: settings.audience,
      requiredClaims: ['sub', 'exp', 'iat', 'jti', 'capabilities', 'budget'],
      clockTolerance: CLOCK_TOLERANCE_S,
      currentDate: new Date(now),
    });
    const claims = checkClaims(
      {
        subject: payload.sub,
        capabilities: payload['capabilities'],
        budget: payload['budget'],
        scope: payload['scope'],
        storageQuota: payload['storageQuota'],
      },
      'token',
    );
    return { ...claims, jti: String(payload.jti), exp: payload.exp! };
  } catch (err) {
    return err instanceof errors.JWTExpired ? 'expired' : 'invalid';
  }
}
