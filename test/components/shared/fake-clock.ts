/**
 * A fake clock for the page's timers, installed for one test: Date.now, setTimeout and
 * clearTimeout (what the shared ticker uses). Mocha keeps its own timer references, so its
 * timeouts are unaffected. `tick(ms)` runs the timers due in order and lets Lit render after each.
 */
export interface FakeClock {
  /** Timers scheduled and not yet run or cleared (while installed). */
  readonly pending: number;
  tick(ms: number): Promise<void>;
  restore(): void;
}

const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

export function installClock(): FakeClock {
  const real = { now: Date.now, setTimeout: window.setTimeout, clearTimeout: window.clearTimeout };
  let now = real.now();
  let seq = 1_000_000;
  const timers = new Map<number, { at: number; fn: () => void }>();
  Date.now = () => now;
  window.setTimeout = ((fn: () => void, ms = 0) => {
    timers.set(++seq, { at: now + Math.max(0, ms), fn });
    return seq;
  }) as typeof setTimeout;
  window.clearTimeout = ((id: number) => void timers.delete(id)) as typeof clearTimeout;
  return {
    get pending() {
      return timers.size;
    },
    async tick(ms: number) {
      const end = now + ms;
      for (;;) {
        await settle();
        let next: [number, { at: number; fn: () => void }] | undefined;
        for (const t of timers) if (t[1].at <= end && (!next || t[1].at < next[1].at)) next = t;
        if (!next) break;
        timers.delete(next[0]);
        now = next[1].at;
        next[1].fn();
      }
      now = end;
      await settle();
    },
    restore() {
      Object.assign(Date, { now: real.now });
      window.setTimeout = real.setTimeout;
      window.clearTimeout = real.clearTimeout;
    },
  };
}
