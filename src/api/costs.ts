/**
 * The costs table of the spec. Consumers never recompute a charge from this table: the amount
 * actually charged is the X-Credits-Charged header of the answer. The table serves to reserve the
 * most a call can cost before it is sent (proxy budgets) and to tell users a price up front.
 */
export const COSTS = {
  /** Charged at creation, refunded automatically if reconstruction fails. */
  videoJob: 20,
  /** Charged at creation, refunded automatically on failure after creation. */
  modelJob: 2,
  /** A full batch of four succeeded variants. */
  headshotFullBatch: 10,
  /** One successful call; failed operations are never charged. */
  imageTool: 1,
} as const;

/**
 * Credits for a headshot batch in which `succeeded` variants succeeded.
 *
 * The spec fixes only the full batch (4 -> 10) and that only succeeded variants are charged. Our
 * integer rule: 2.5 credits per variant, rounded down, so 0 -> 0, 1 -> 2, 2 -> 5, 3 -> 7, 4 -> 10.
 * Rounding down never charges more than the pro-rata price, and four single-slot retries never
 * cost more than one full batch.
 */
export function headshotCharge(succeeded: number): number {
  const n = Math.max(0, Math.min(4, Math.trunc(succeeded)));
  return Math.floor((n * COSTS.headshotFullBatch) / 4);
}
