/**
 * The showcase's developer tools (demo/showcase.ts) talk to a sandbox through this adapter: the
 * clock, the faults and the ledger. `npm start`'s page plugs in the Node sandbox's control plane
 * below; a page whose sandbox runs elsewhere (a Service Worker) plugs in its own object.
 */

/** A sandbox fault that the next call (or batch) takes. */
export type Fault =
  | { kind: 'create_error' | 'job_fail' | 'rate_limit' | 'all_variants_fail' }
  | { kind: 'variant_fail'; variants: number[] }
  | { kind: 'slow'; ms: number };

/** One line of the sandbox account's ledger, without the job it belongs to. */
export interface LedgerLine {
  /** Sandbox time (ISO 8601). */
  at: string;
  type: 'charge' | 'refund';
  amount: number;
  balance_after: number;
  /** The route that charged or refunded. */
  endpoint: string;
}

export interface Ledger {
  balance: number;
  entries: LedgerLine[];
}

export interface DevTools {
  /** Which sandbox this is and who shares it, in one sentence for the panel. */
  readonly description: string;
  /** The sandbox's time now. */
  now(): Promise<Date>;
  /** Moves the sandbox clock forward by `ms`; resolves to its new time. */
  advance(ms: number): Promise<Date>;
  /** Arms a fault for the next call. */
  arm(fault: Fault): Promise<void>;
  /** The sandbox account's ledger, oldest entry first. */
  ledger(): Promise<Ledger>;
}

/** Reads a control-plane answer, or throws its message. */
async function answer<T>(r: Response, what: string): Promise<T> {
  const body = (await r.json().catch(() => null)) as (T & { error?: { message?: string } }) | null;
  if (!r.ok || !body) throw new Error(`${what}: ${r.status} ${body?.error?.message ?? 'no answer'}`);
  return body;
}

/**
 * The dev stack's Node sandbox (src/dev/stack.ts): its control plane at `{sandbox}/__sandbox` and
 * the dev routes at `{sandbox}/__dev`, which answer this server's own pages (they carry its dev
 * token cookie). The dev server has one sandbox account and one clock for every visitor.
 */
export function nodeSandboxTools(sandbox = '/sandbox'): DevTools {
  let account: Promise<string> | undefined;
  const accountId = () =>
    (account ??= fetch(`${sandbox}/__dev/account`)
      .then((r) => answer<{ account_id: string }>(r, 'the sandbox account'))
      .then((b) => b.account_id)).catch((err: unknown) => {
      account = undefined;
      throw err;
    });
  const clock = async (ms: number) =>
    new Date(
      (
        await answer<{ now: string }>(
          await fetch(`${sandbox}/__sandbox/clock`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ advance_ms: ms }),
          }),
          'the sandbox clock',
        )
      ).now,
    );
  return {
    description:
      "The Node sandbox of this dev server: one account and one clock shared by everyone who uses it, so moving the clock moves every visitor's jobs.",
    now: () => clock(0),
    advance: (ms) => clock(ms),
    async arm(fault) {
      await answer(
        await fetch(`${sandbox}/__sandbox/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ account_id: await accountId(), ...fault }),
        }),
        `fault ${fault.kind}`,
      );
    },
    async ledger() {
      return answer<Ledger>(await fetch(`${sandbox}/__dev/ledger`), 'the ledger');
    },
  };
}
