/**
 * The check of a <model-generator> value a site sets (README "Saving results"): its own fields,
 * after the common ones. Loaded with the first value set from outside.
 */
import { LIMITS, MODEL_STAT_FIELDS } from '../../api/index.js';
import { checkAsset } from '../shared/result-checks.js';

const whole = (n: unknown, max = Number.MAX_SAFE_INTEGER) =>
  typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= max;

/** What is wrong with a value's own fields (the common ones are checked before); undefined: nothing. */
export function check(v: Record<string, unknown>): string | undefined {
  for (const key of ['turntable', 'poster']) {
    const problem = v[key] === undefined ? undefined : checkAsset(v[key], key);
    if (problem) return problem;
  }
  if (v['mode'] !== 'photos' && v['mode'] !== 'prompt')
    return `"mode" must be "photos" or "prompt"; it is ${JSON.stringify(v['mode'])}`;
  if (v['prompt'] !== undefined && typeof v['prompt'] !== 'string')
    return '"prompt" must be the description (a string)';
  if (v['images'] !== undefined && !(whole(v['images'], LIMITS.model.maxImages) && v['images'] !== 0))
    return `"images" must be the number of photos (1 to ${LIMITS.model.maxImages})`;
  if (v['seed'] !== undefined && !whole(v['seed'], LIMITS.model.maxSeed))
    return `"seed" must be a whole number from 0 to ${LIMITS.model.maxSeed}`;
  if (!(LIMITS.model.qualities as readonly unknown[]).includes(v['quality']))
    return `"quality" must be one of ${LIMITS.model.qualities.join(', ')}; it is ${JSON.stringify(v['quality'])}`;
  if (typeof v['removeBackground'] !== 'boolean') return '"removeBackground" must be true or false';
  const stats = v['stats'] as Record<string, unknown> | undefined;
  if (stats !== undefined && (!stats || typeof stats !== 'object' || MODEL_STAT_FIELDS.some((k) => !whole(stats[k]))))
    return `"stats" must hold whole numbers: ${MODEL_STAT_FIELDS.join(', ')}`;
  return undefined;
}
