/**
 * Sessions: `POST /session` runs the site's `authorize` and mints a token; `GET /session` shows the
 * budget; every API call is authenticated by its token. Verified tokens are remembered until they
 * expire (a poll then costs no signature check), keyed by the whole token text.
 */
import { type Capability } from '../../api/index.js';
import type { Ctx } from '../context.js';
import type { AuthorizeResult, ProxyOptions } from '../options.js';
import { json, messageOf, refuse } from '../edge/respond.js';
import type { Keyring } from './secrets.js';
import {
  checkClaims,
  signToken,
  verifyToken,
  type SessionClaims,
  type TokenSettings,
  type VerifiedSession,
} from './tokens.js';

const CACHE_MAX = 10_000;

/** A session's storage of kept results, in its answers (when the proxy keeps results). */
export type StorageUsage = (
  claims: SessionClaims,
  subjectDigest: string,
) => Promise<{ quota_bytes: number; used_bytes: number } | undefined>;

export class Sessions {
  readonly #verified = new Map<string, VerifiedSession>();

  constructor(
    private readonly ctx: Ctx,
    private readonly keyring: Keyring,
    readonly tokenSettings: TokenSettings,
    private readonly authorize: ProxyOptions['authorize'],
    private readonly storage: StorageUsage = async () => undefined,
  ) {}

  async authenticate(request: Request): Promise<VerifiedSession> {
    const header = request.headers.get('authorization');
    const token = header ? /^Bearer ([A-Za-z0-9._-]{10,4096})$/.exec(header.trim())?.[1] : undefined;
    const base = this.ctx.basePath;
    if (!token)
      refuse(
        'unauthorized',
        `Send the session token as "Authorization: Bearer <token>"; get one from POST ${base}/session.`,
      );
    const cached = this.#verified.get(token);
    if (cached && cached.exp * 1000 > Date.now()) return cached;
    if (cached) this.#verified.delete(token);
    const verified = await verifyToken(this.keyring, this.tokenSettings, token);
    if (verified === 'expired')
      refuse('unauthorized', `The session token has expired; get a new one from POST ${base}/session.`);
    if (verified === 'invalid')
      refuse('unauthorized', `The session token is not valid for this site; get a new one from POST ${base}/session.`);
    if (this.#verified.size >= CACHE_MAX) this.#verified.delete(this.#verified.keys().next().value!);
    this.#verified.set(token, verified);
    return verified;
  }

  claimsFrom(result: AuthorizeResult, where: string): SessionClaims {
    const configured = this.ctx.settings.configured;
    const claims = checkClaims({ ...result, capabilities: result.capabilities ?? configured }, where);
    claims.capabilities = claims.capabilities.filter((c: Capability) => configured.includes(c));
    return claims;
  }

  async create(request: Request, headers: Record<string, string>): Promise<Response> {
    let result: AuthorizeResult | null;
    try {
      result = await this.authorize(request);
    } catch (err) {
      this.ctx.log('error', `authorize() threw: ${messageOf(err)}`);
      refuse('unavailable', 'The site could not check who you are right now. Try again in a moment.', 5);
    }
    if (result === null || result === undefined)
      refuse('unauthorized', 'This site did not recognise you: sign in, then try again.');
    let claims: SessionClaims;
    try {
      claims = this.claimsFrom(result, 'authorize() result');
    } catch (err) {
      this.ctx.log('error', messageOf(err));
      refuse('unavailable', "The site's sign-in check answered something unexpected. Try again later.");
    }
    const subject = await this.ctx.budget.subjectDigest(claims.subject);
    const rl = await this.ctx.budget.rateLimit('session', subject);
    const { token, exp } = await signToken(this.keyring, this.tokenSettings, claims);
    const budget = await this.ctx.budget.view(claims, subject);
    const results = await this.storage(claims, subject);
    return json(
      {
        data: {
          token,
          token_type: 'Bearer',
          expires_at: new Date(exp * 1000).toISOString(),
          capabilities: claims.capabilities,
          budget,
          ...(results ? { results } : {}),
        },
      },
      200,
      { ...headers, ...rl },
    );
  }

  async show(request: Request, headers: Record<string, string>): Promise<Response> {
    const session = await this.authenticate(request);
    const subject = await this.ctx.budget.subjectDigest(session.subject);
    const budget = await this.ctx.budget.view(session, subject);
    const results = await this.storage(session, subject);
    return json(
      {
        data: {
          expires_at: new Date(session.exp * 1000).toISOString(),
          capabilities: session.capabilities,
          budget,
          ...(results ? { results } : {}),
        },
      },
      200,
      headers,
    );
  }
}
