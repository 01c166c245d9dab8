/**
 * Stories drive the playground (src/playground): the session-token proxy and the sandbox in a
 * Service Worker that .storybook/preview.ts starts, so the built Storybook works from any static
 * file server. States come from the sandbox's own faults and clock, never from mocks.
 */
import { playground, type PlaygroundFault } from '../src/playground/index.js';

// A story that arms a sandbox fault or moves the sandbox clock is tagged 'sandbox-state' (a string
// literal: Storybook reads tags without running the file). Every story of a browser shares the
// playground's one account and clock, so the story test (scripts/stories.mjs) runs those alone:
// another story's job would otherwise take the fault, or jump past the state it shows.

/** The worker's folder: the preview names it in its head (.storybook/main.ts), relative to the page. */
const scope = new URL(
  './',
  new URL(
    document.querySelector<HTMLMetaElement>('meta[name="mediakit-playground-worker"]')?.content ?? 'playground-sw.js',
    location.href,
  ),
).pathname;

/** The elements' endpoint the playground answers (`/mediakit` when Storybook is at the site's root). */
export const ENDPOINT = `${scope}mediakit`;
/** The same proxy with 5 credits a session: the "not enough credits" and "low" states. */
export const POOR_ENDPOINT = `${scope}mediakit-poor`;
/**
 * An endpoint that answers every call with an error that is not a 404 (the story test fails on any
 * 404): the playground's sandbox clock, whose control route refuses the session call's empty body
 * with 400 invalid_request. The "the proxy answers with an error" states.
 */
export const ERROR_ENDPOINT = `${scope}sandbox/__sandbox/clock?`;
/** A file of this Storybook (a path relative to the preview) sent over `seconds`: a viewer's loading state. */
export const slowly = (src: string, seconds: number): string =>
  `${scope}sandbox/__dev/trickle?src=${encodeURIComponent(src)}&seconds=${seconds}`;

/** Arms a sandbox fault (job_fail, rate_limit, expire, variant_fail, ...) for the next `count` calls. */
export async function fault(
  kind: PlaygroundFault,
  extra: { count?: number; variants?: number[]; ms?: number } = {},
): Promise<void> {
  await (await playground).fault(kind, extra);
}

/** Moves the sandbox clock forward (jobs progress in sandbox time). */
export async function advance(ms: number): Promise<void> {
  await (await playground).advance(ms);
}

/** The sample walkthrough (4 s, 480x270, H.264) shipped with the demo. */
export async function sampleVideo(): Promise<File> {
  const blob = await (await fetch('media/walkthrough.mp4')).blob();
  return new File([blob], 'walkthrough.mp4', { type: 'video/mp4' });
}

/**
 * A file of stories/assets as a phone makes it (stories/assets/make-phone.ts): `phone-4k.mp4`,
 * `phone-long.mp4`, `phone-hevc.mov`, `phone-hevc-4k.mov`, `phone-selfie.heic`.
 */
export async function phoneFile(name: string): Promise<File> {
  const TYPES: Record<string, string> = { mp4: 'video/mp4', mov: 'video/quicktime', heic: 'image/heic' };
  const blob = await (await fetch(`assets/${name}`)).blob();
  return new File([blob], name, { type: TYPES[name.split('.').pop()!] ?? '' });
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
