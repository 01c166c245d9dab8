/**
 * The kept files a value names, for `ResultValueController` (which tells a site, with
 * `mk-assets-released`, those its value no longer names). On first load: it runs as a value changes.
 */
import type { ResultAsset, ResultValueBase } from './result-checks.js';

/** Every kept file a value names: its `asset`, a model's `turntable` and `poster`, a batch's variants'. */
export function resultAssets(value: ResultValueBase | null | undefined): ResultAsset[] {
  if (!value) return [];
  const v = value as ResultValueBase & Record<string, unknown>;
  const found: unknown[] = [v.asset, v['turntable'], v['poster']];
  if (Array.isArray(v['variants']))
    for (const variant of v['variants']) found.push((variant as { asset?: unknown })?.asset);
  const seen = new Set<string>();
  return found.filter((a): a is ResultAsset => {
    if (!a || typeof a !== 'object' || typeof (a as ResultAsset).url !== 'string') return false;
    const url = (a as ResultAsset).url;
    return !seen.has(url) && !!seen.add(url);
  });
}
