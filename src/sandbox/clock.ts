/**
 * The sandbox's clock: runs `speed` times faster than real time and can be advanced by hand
 * (`POST /__sandbox/clock`), so an hour-long reconstruction finishes in seconds in a demo and in
 * no time in a test.
 */
export interface SandboxClock {
  /** Sandbox time in ms since the epoch. */
  now(): number;
  advance(ms: number): void;
  readonly speed: number;
}

export function createClock(speed: number, realNow: () => number = Date.now): SandboxClock {
  if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`clock speed must be a positive number, got ${speed}`);
  const start = realNow();
  let offset = 0;
  return {
    speed,
    now: () => start + (realNow() - start) * speed + offset,
    advance(ms: number) {
      offset += ms;
    },
  };
}
