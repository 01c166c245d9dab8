/**
 * <headshot-studio>'s value code (value.ts: a batch made into a value and committed, a chosen
 * headshot committed, a value's check) loads with the first photo chosen or value set, not with
 * the page. A batch or a choice can only come after one of them, so once loaded it runs at once,
 * in order with the answer; `valueKit` runs it when it has loaded otherwise.
 */
import { loadOnce } from '../../internal/small.js';

type ValueKit = typeof import('./value.js');

/** Loads the value code (a warm-up when a photo is chosen; the check of a value set). */
export const loadValueKit = loadOnce(() => import('./value.js'));

/** Runs `run` with the value code: at once when it is loaded. */
export const valueKit = (run: (kit: ValueKit) => void): void => {
  const kit = loadValueKit.loaded;
  if (kit) run(kit);
  else void loadValueKit().then(run, (err: unknown) => console.warn('[mediakit] <headshot-studio>', err));
};
