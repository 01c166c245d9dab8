/**
 * The check of a <headshot-studio> value a site sets (README "Saving results"): its own fields,
 * after the common ones. Loaded with the first value set from outside.
 */
import { LIMITS } from '../../api/index.js';
import { checkAsset, type ResultAsset } from '../shared/result-checks.js';
import type { HeadshotVariantValue } from './value-shape.js';

const SLOTS: readonly number[] = LIMITS.headshot.slots;
const STYLES: readonly string[] = LIMITS.headshot.styles;
const size = (n: unknown) => n === undefined || (typeof n === 'number' && Number.isInteger(n) && n > 0);

/** What is wrong with a headshot value's own fields (the common ones are checked before). */
export function check(v: Record<string, unknown>): string | undefined {
  if (v['status'] !== 'succeeded') return 'a headshot value is "succeeded" (headshots are made at once, with no job)';
  if (!STYLES.includes(v['style'] as string)) return `"style" must be one of ${STYLES.join(', ')}`;
  const variants = v['variants'];
  if (!Array.isArray(variants) || !variants.length || variants.length > SLOTS.length)
    return `"variants" must be a list of 1 to ${SLOTS.length} variants`;
  const seen = new Set<unknown>();
  for (const [i, x] of (variants as Record<string, unknown>[]).entries()) {
    const at = `variants[${i}]`;
    if (!x || typeof x !== 'object') return `"${at}" must be an object`;
    if (!SLOTS.includes(x['slot'] as number) || seen.has(x['slot'])) return `"${at}.slot" must be a slot 0 to 3, once`;
    seen.add(x['slot']);
    if (!STYLES.includes(x['style'] as string)) return `"${at}.style" must be one of ${STYLES.join(', ')}`;
    if (x['status'] !== 'succeeded' && x['status'] !== 'failed')
      return `"${at}.status" must be "succeeded" or "failed"`;
    const problem = checkAsset(x['asset'], `${at}.asset`);
    if (problem) return problem;
    if (x['status'] === 'failed' && x['asset'] !== null) return `"${at}" failed, so its "asset" must be null`;
    if (!size(x['width']) || !size(x['height'])) return `"${at}.width" and ".height" must be whole pixels`;
  }
  const list = variants as HeadshotVariantValue[];
  if (!list.some((x) => x.asset)) return 'no variant of it was kept, so there is nothing to show';
  const chosen = list.find((x) => x.slot === v['chosen'] && x.status === 'succeeded');
  if (v['chosen'] !== null && !chosen) return '"chosen" must be null or the slot of a succeeded variant';
  if ((v['asset'] as ResultAsset | null)?.url !== chosen?.asset?.url)
    return '"asset" must be the chosen variant\'s asset (null while none is chosen)';
  if (typeof v['charged'] !== 'number' || !Number.isInteger(v['charged']) || v['charged'] < 0)
    return '"charged" must be a whole number of credits';
  return undefined;
}
