/**
 * The sandbox's clock: runs `speed` times faster than real time and can be advanced by hand
 * (`POST /__sandbox/clock`), so an hour-long reconstruction finishes in seconds in a demo and in
 * no time in a test.
 */
export interface SandboxClock {
  /** Sandbox time in ms since the epoch. */
  now(): number;
  /** Moves the clock forward; throws RangeError rather than leave it past MAX_CLOCK_MS (not a date every ledger entry can print). */
  advance(ms: number): void;
  readonly speed: number;
}

/** The last instant the clock may show: 9999-12-31T23:59:59.999Z, the end of four-digit ISO years. */
export const MAX_CLOCK_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export function createClock(speed: number, realNow: () => number = Date.now): SandboxClock {
  if (!(speed > 0) || !Number.isFinite(speed))
    throw new RangeError(`clock speed must be a positive number, got ${speed}`);
  const start = realNow();
  let offset = 0;
  const now = () => start + (realNow() - start) * speed + offset;
  return {
    speed,
    now,
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0)
        throw new RangeError(`the clock moves forward by a finite number of milliseconds, 0 or more; got ${ms}`);
      if (now() + ms > MAX_CLOCK_MS)
        throw new RangeError(
          `the clock may not pass ${new Date(MAX_CLOCK_MS).toISOString()}; advancing it by ${ms} ms would`,
        );
      offset += ms;
    },
  };
}
