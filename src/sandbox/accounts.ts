import { CAPABILITIES, KEY_PREFIXES, toBase64Url, type Capability } from '../api/index.js';
import { fail } from './http.js';

export interface LedgerEntry {
  /** Sandbox time (ISO 8601). */
  at: string;
  type: 'charge' | 'refund';
  amount: number;
  balance_after: number;
  /** What the entry is for: the route name. */
  endpoint: string;
  /** Job id for job charges and refunds; absent for synchronous calls. */
  job_id?: string;
}

export type FaultKind =
  'job_fail' | 'create_error' | 'variant_fail' | 'all_variants_fail' | 'rate_limit' | 'expire' | 'slow';

export interface Account {
  id: string;
  balance: number;
  /** Credits held by calls in flight that charge after the work (headshots, image tools). */
  held: number;
  keys: Record<Capability, string>;
  ledger: LedgerEntry[];
  faults: {
    job_fail: number;
    create_error: number;
    all_variants_fail: number;
    rate_limit: number;
    variant_fail: { count: number; variants: number[] };
    /** Headshot and image-tool answers held back by `ms` (real time): a working state to look at. */
    slow: { count: number; ms: number };
  };
}

export interface ResolvedKey {
  account: Account;
  capability: Capability;
  key: string;
}

/** `bytes` random bytes as base64url (Web Crypto: Node and browsers alike). */
export function randomId(bytes: number): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export class AccountBook {
  readonly #accounts = new Map<string, Account>();
  readonly #keys = new Map<string, ResolvedKey>();

  create(credits: number): Account {
    const id = 'acct_' + randomId(12);
    const keys = {} as Record<Capability, string>;
    for (const cap of CAPABILITIES) keys[cap] = KEY_PREFIXES[cap] + randomId(24);
    const account: Account = {
      id,
      balance: credits,
      held: 0,
      keys,
      ledger: [],
      faults: {
        job_fail: 0,
        create_error: 0,
        all_variants_fail: 0,
        rate_limit: 0,
        variant_fail: { count: 0, variants: [] },
        slow: { count: 0, ms: 0 },
      },
    };
    this.#accounts.set(id, account);
    for (const cap of CAPABILITIES) this.#keys.set(keys[cap], { account, capability: cap, key: keys[cap] });
    return account;
  }

  get(id: string): Account | undefined {
    return this.#accounts.get(id);
  }

  resolveKey(key: string): ResolvedKey | undefined {
    return this.#keys.get(key);
  }

  /** Credits a call may still spend: the balance less what calls in flight hold. */
  available(account: Account): number {
    return account.balance - account.held;
  }

  /** Refuses with 402, before any work, when fewer than `price` credits are available. */
  requireAvailable(account: Account, price: number): void {
    const available = this.available(account);
    if (available < price) {
      fail(
        'insufficient_credits',
        `This call costs up to ${price} credits and the balance is ${available}. Top up the account, then try again; nothing was charged.`,
      );
    }
  }

  charge(account: Account, amount: number, at: number, endpoint: string, jobId?: string): void {
    if (amount <= 0) return;
    record(account, ledgerEntry('charge', amount, account.balance - amount, at, endpoint, jobId));
  }

  refund(account: Account, amount: number, at: number, endpoint: string, jobId?: string): void {
    if (amount <= 0) return;
    record(account, ledgerEntry('refund', amount, account.balance + amount, at, endpoint, jobId));
  }

  /** Takes one pending fault of `kind`; true when one was pending. */
  takeFault(account: Account, kind: 'job_fail' | 'create_error' | 'all_variants_fail' | 'rate_limit'): boolean {
    if (account.faults[kind] <= 0) return false;
    account.faults[kind]--;
    return true;
  }

  /** Milliseconds of real time the next answer is held back or the next job takes longer (a pending `slow` fault), or 0. */
  takeSlowFault(account: Account): number {
    const f = account.faults.slow;
    if (f.count <= 0) return 0;
    f.count--;
    return f.ms;
  }

  takeVariantFault(account: Account): number[] {
    const f = account.faults.variant_fail;
    if (f.count <= 0) return [];
    f.count--;
    return f.variants;
  }
}

/**
 * The entry is built first: its time is printed here, and an invalid time throws RangeError before
 * anything changed, so an answer that says "nothing was charged" is true.
 */
function ledgerEntry(
  type: LedgerEntry['type'],
  amount: number,
  balanceAfter: number,
  at: number,
  endpoint: string,
  jobId: string | undefined,
): LedgerEntry {
  return {
    at: new Date(at).toISOString(),
    type,
    amount,
    balance_after: balanceAfter,
    endpoint,
    ...(jobId ? { job_id: jobId } : {}),
  };
}

/** The balance and the ledger change together, from an entry that already exists: nothing here can throw halfway. */
function record(account: Account, entry: LedgerEntry): void {
  account.ledger.push(entry);
  account.balance = entry.balance_after;
}
