/**
 * The sandbox's control plane for tests and demos (`/__sandbox/*`): accounts with keys and
 * credits, an account's ledger (read with one of its own keys), faults armed per account, and the
 * sandbox clock moved forward. It answers its own origin only.
 */
import { HEADERS } from '../api/index.js';
import type { Account, AccountBook, FaultKind, ResolvedKey } from './accounts.js';
import { MAX_CLOCK_MS, type SandboxClock } from './clock.js';
import { fail, json } from './http.js';
import { parseBody, readBody } from './inputs.js';
import type { JobRegistry } from './job-routes.js';

/** The largest single jump of `POST /__sandbox/clock`: 10 years. */
const MAX_CLOCK_JUMP_MS = 10 * 365.25 * 24 * 60 * 60 * 1000;

/** The control plane's handler for requests under `/__sandbox/`. */
export function createControlPlane(
  accounts: AccountBook,
  clock: SandboxClock,
  jobs: JobRegistry,
): (request: Request, url: URL) => Promise<Response> {
  async function controlPlane(request: Request, url: URL): Promise<Response> {
    refuseOtherOrigins(request, url);
    const path = url.pathname;
    const ledger = /^\/__sandbox\/accounts\/(acct_[A-Za-z0-9_-]+)\/ledger$/.exec(path);
    if (ledger && request.method === 'GET') {
      // The ledger lists job ids, and a job id names a visitor's results: only the account's own
      // keys read it, and any other caller gets the unknown account's answer.
      const account = accounts.get(ledger[1]!);
      if (!account || ledgerKey(request)?.account !== account) {
        fail(
          'not_found',
          'No sandbox account has that id, or the request did not carry one of its API keys. Send any key of the account as Authorization: Bearer <key> or X-Api-Key: <key>.',
        );
      }
      jobs.settle(account);
      return json({ account_id: account.id, balance: account.balance, entries: account.ledger });
    }
    if (request.method !== 'POST' || !['/__sandbox/accounts', '/__sandbox/faults', '/__sandbox/clock'].includes(path)) {
      fail(
        'not_found',
        'The sandbox control plane has POST /__sandbox/accounts, POST /__sandbox/faults, POST /__sandbox/clock and GET /__sandbox/accounts/{id}/ledger (with a key of that account).',
      );
    }
    const body = (
      await parseBody(
        request,
        await readBody(request, 64 * 1024, () =>
          fail('invalid_request', 'Control plane bodies are small JSON objects.'),
        ),
        ['json'],
      )
    ).json!;
    if (path === '/__sandbox/accounts') {
      const credits = body['credits'];
      if (typeof credits !== 'number' || !Number.isSafeInteger(credits) || credits < 0)
        fail('invalid_request', 'credits must be a whole number of credits, 0 or more.');
      const account = accounts.create(credits);
      return json({ account_id: account.id, keys: account.keys }, 201);
    }
    if (path === '/__sandbox/clock') {
      const ms = body['advance_ms'];
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
        fail('invalid_request', 'advance_ms must be a number of milliseconds, 0 or more.');
      // The clock stays a date every ledger entry can print: a jump such as 1e300 ms makes no valid date.
      if (ms > MAX_CLOCK_JUMP_MS)
        fail(
          'invalid_request',
          `advance_ms may be at most ${MAX_CLOCK_JUMP_MS} (10 years) at once; send several smaller jumps for more.`,
        );
      if (clock.now() + ms > MAX_CLOCK_MS)
        fail(
          'invalid_request',
          `The clock may not pass ${new Date(MAX_CLOCK_MS).toISOString()} (year 9999); it is now ${new Date(clock.now()).toISOString()}. Advance it less, or start a new sandbox.`,
        );
      clock.advance(ms);
      return json({ now: new Date(clock.now()).toISOString() });
    }
    return json(applyFault(body));
  }

  /**
   * The control plane answers its own origin only, and grants no CORS: another page in the same
   * browser (any localhost origin) can neither read a ledger nor arm a fault for someone else's
   * calls. Requests with no Origin and no Sec-Fetch-Site (curl, tests, the dev stack's own calls)
   * are served.
   */
  function refuseOtherOrigins(request: Request, url: URL): void {
    const origin = request.headers.get('origin');
    const site = request.headers.get('sec-fetch-site');
    if (origin !== null && origin !== url.origin) {
      fail(
        'forbidden',
        `The sandbox control plane answers only requests from its own origin (${url.origin}); this one came from ${origin.slice(0, 100)}. Call it from a page of that origin, or from a server or curl without an Origin header.`,
      );
    }
    if (site !== null && site !== 'same-origin' && site !== 'none') {
      fail(
        'forbidden',
        `The sandbox control plane answers only same-origin requests (Sec-Fetch-Site: same-origin or none); this one was ${site.slice(0, 40)}. Call it from a page of ${url.origin}.`,
      );
    }
  }

  /** The account key a ledger request carries (Authorization: Bearer or X-Api-Key), if it is one. */
  function ledgerKey(request: Request): ResolvedKey | undefined {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    const key = bearer ?? request.headers.get(HEADERS.apiKey)?.trim();
    return key ? accounts.resolveKey(key) : undefined;
  }

  function applyFault(body: Record<string, unknown>): Record<string, unknown> {
    const account: Account =
      (typeof body['account_id'] === 'string' && accounts.get(body['account_id'])) ||
      fail('invalid_request', 'account_id must name a sandbox account.');
    const kinds: FaultKind[] = [
      'job_fail',
      'create_error',
      'variant_fail',
      'all_variants_fail',
      'rate_limit',
      'expire',
      'slow',
    ];
    const kind = body['kind'] as FaultKind;
    if (!kinds.includes(kind)) fail('invalid_request', `kind must be one of ${kinds.join(', ')}.`);
    const countRaw = body['count'] ?? 1;
    if (typeof countRaw !== 'number' || !Number.isSafeInteger(countRaw) || countRaw < 1)
      fail('invalid_request', 'count must be a whole number, 1 or more.');
    if (kind === 'expire')
      return { kind, expired: jobs.expireVideoJobs(account, body['count'] === undefined ? Infinity : countRaw) };
    if (kind === 'variant_fail') {
      const variants = body['variants'];
      if (
        !Array.isArray(variants) ||
        variants.length === 0 ||
        !variants.every((v) => Number.isInteger(v) && v >= 0 && v <= 3)
      ) {
        fail('invalid_request', 'variant_fail needs variants: a list of slots 0-3 that should fail.');
      }
      account.faults.variant_fail = { count: countRaw, variants: variants as number[] };
      return { kind, pending: countRaw, variants };
    }
    if (kind === 'slow') {
      const ms = body['ms'];
      if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0 || ms > 120_000)
        fail(
          'invalid_request',
          'slow needs ms: how much later each answer comes or how much longer each job takes, 0 to 120000 milliseconds.',
        );
      account.faults.slow = { count: countRaw, ms };
      return { kind, pending: countRaw, ms };
    }
    account.faults[kind] = countRaw;
    return { kind, pending: countRaw };
  }

  return controlPlane;
}
