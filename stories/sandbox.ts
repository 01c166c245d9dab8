/**
 * Stories drive the real stack the Storybook dev server mounts (vite.config.ts): the proxy at
 * /mediakit in front of the sandbox at /sandbox. States come from the sandbox's own faults and
 * clock, never from mocks.
 */
let account: Promise<string> | undefined;

// The control plane (__sandbox, __dev) answers only the dev server's own pages: a story's frame gets
// the dev token cookie as it loads through the dev stack (src/dev/stack.ts, grantDevCookie), and
// same-origin fetch sends it. A refusal says so, rather than leaving a story in a wrong state.

// A story that arms a sandbox fault or moves the sandbox clock is tagged 'sandbox-state' (a string
// literal: Storybook reads tags without running the file). Every story shares the dev stack's one
// account and clock, so the story test (scripts/stories.mjs) runs those alone: another story's job
// would otherwise take the fault, or jump past the state it shows.

async function controlPlane(r: Response, what: string): Promise<unknown> {
  const body = (await r.json().catch(() => null)) as { error?: { message?: string } } | null;
  if (!r.ok) throw new Error(`${what}: ${r.status} ${body?.error?.message ?? ''}`);
  return body;
}

/** The sandbox account behind the dev stack (a dev-only route of src/dev). */
export function sandboxAccount(sandbox = '/sandbox'): Promise<string> {
  account ??= fetch(`${sandbox}/__dev/account`).then(
    async (r) => ((await controlPlane(r, 'the sandbox account')) as { account_id: string }).account_id,
  );
  return account;
}

/** Arms a sandbox fault (job_fail, rate_limit, expire, variant_fail, ...) for the next `count` calls. */
export async function fault(kind: string, extra: Record<string, unknown> = {}, sandbox = '/sandbox'): Promise<void> {
  await controlPlane(
    await fetch(`${sandbox}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account_id: await sandboxAccount(sandbox), kind, ...extra }),
    }),
    `fault ${kind}`,
  );
}

/** Moves the sandbox clock forward (jobs progress in sandbox time). */
export async function advance(ms: number, sandbox = '/sandbox'): Promise<void> {
  await controlPlane(
    await fetch(`${sandbox}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: ms }),
    }),
    'the sandbox clock',
  );
}

/** The sample walkthrough (4 s, 480x270, H.264) shipped with the demo. */
export async function sampleVideo(): Promise<File> {
  const blob = await (await fetch('/media/walkthrough.mp4')).blob();
  return new File([blob], 'walkthrough.mp4', { type: 'video/mp4' });
}

export const until = async (check: () => boolean, ms = 60_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
};

/** Field mode (`appearance="field"`): the same element, as a CMS edit form shows it. */
export function asField<T>(el: T): T {
  (el as HTMLElement).setAttribute('appearance', 'field');
  return el;
}
