/**
 * The page's one ticker: every element line that changes with the clock (a 429 countdown, an
 * "elapsed" line) re-renders from ONE timer for the whole page, a module-level map of members and a
 * single timeout sized to the nearest moment one of them changes, after GitHub's
 * relative-time-element (`src/relative-time-element.ts`), instead of an interval per element that
 * wakes every element every second. A member's host is asked to update at its instant; the member
 * then reports its next instant (`tickAt`, from its host's update).
 */

/** A member of the ticker: what it re-renders. */
export interface Ticking {
  readonly host: { requestUpdate(): void };
}

/** When each member next needs its host rendered (ms since epoch; Infinity: never). */
const due = new Map<Ticking, number>();
let timer: ReturnType<typeof setTimeout> | undefined;
let timerAt = Infinity;

/** `member`'s host is rendered at `at` (ms since epoch; Infinity: not until told again). */
export function tickAt(member: Ticking, at: number): void {
  due.set(member, at);
  schedule();
}

/** `member` leaves the ticker (its host left the page). */
export function stopTicking(member: Ticking): void {
  due.delete(member);
  schedule();
}

function schedule(): void {
  let nearest = Infinity;
  for (const at of due.values()) nearest = Math.min(nearest, at);
  if (nearest === timerAt) return;
  clearTimeout(timer);
  timer = undefined;
  timerAt = nearest;
  if (nearest < Infinity) timer = setTimeout(tick, Math.max(0, nearest - Date.now()));
}

function tick(): void {
  timer = undefined;
  timerAt = Infinity;
  // A few ms of slack: a timer may fire a little before the instant it was asked for.
  const now = Date.now() + 4;
  for (const [member, at] of due) {
    if (at > now) continue;
    // The host's update reports the member's next instant (tickAt).
    due.set(member, Infinity);
    member.host.requestUpdate();
  }
  schedule();
}
