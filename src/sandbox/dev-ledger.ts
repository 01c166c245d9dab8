/**
 * The demo account's ledger as the dev tools show it: without job ids (every visitor of a dev
 * server, or every tab of a playground, shares the account, and a job id names a visitor's
 * results). Platform-free: the dev stack (Node) and the playground's worker both use it.
 */
export interface DevLedger {
  account_id: string;
  balance: number;
  entries: Array<Record<string, unknown>>;
}

export function withoutJobIds(body: DevLedger): DevLedger {
  return {
    account_id: body.account_id,
    balance: body.balance,
    entries: body.entries.map(({ job_id: _jobId, ...entry }) => entry),
  };
}
