/**
 * The value of <headshot-studio> (shape 1, README "Saving results"): every variant of the batch
 * with its kept image, the chosen one (whose image is also the value's `asset`), and what the
 * photo was charged. A headshot batch is made at once, so the value is never `running` and has no
 * job: what the page holds are images only it has, kept as they are (`KeepFile` with only `blob`).
 * Built here from the batch, checked here when a site sets it.
 */
import { LIMITS } from '../../api/index.js';
import { HeadshotChosenEvent } from '../../events/headshot-chosen.js';
import { SucceededEvent, type HeadshotsSucceededDetail } from '../../events/outcome.js';
import type { FieldFacts } from '../shared/field.js';
import type { LocalizeController } from '../shared/localize.js';
import type { KeepFile, ResultAsset, ResultValueController } from '../shared/result-value.js';
import { checkAsset } from '../shared/result-value.js';
import type { BatchAnswer, HeadshotBatch, SlotView } from './batch.js';
import type { Strings } from './types.js';
import type { HeadshotValue, HeadshotVariantValue } from './value-shape.js';

export type { HeadshotValue, HeadshotVariantValue } from './value-shape.js';

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

/** The batch as a value (null while nothing succeeded). */
export function toValue(batch: HeadshotBatch): HeadshotValue | null {
  if (!batch.succeeded || !batch.created) return null;
  const chosen = batch.results.find((r) => r.slot === batch.chosen && r.status === 'succeeded');
  return {
    v: 1,
    kind: 'headshot',
    status: 'succeeded',
    asset: chosen?.asset ?? null,
    created: batch.created,
    style: batch.style,
    variants: batch.results.map((r) => ({
      slot: r.slot,
      style: batch.style,
      status: r.status,
      asset: (r.status === 'succeeded' && r.asset) || null,
      ...(r.status === 'succeeded' && r.width && r.height ? { width: r.width, height: r.height } : {}),
    })),
    chosen: chosen ? chosen.slot : null,
    charged: batch.chargedTotal,
  };
}

/** One KeepFile per PNG, so keeping it again (a retry, a later commit) sends the same Idempotency-Key. */
const keepFiles = new WeakMap<Blob, KeepFile>();

/**
 * What a commit of the batch keeps (the succeeded variants not kept yet: nothing again once they
 * are), and how the kept assets are put back: into those variants, then the value is built anew,
 * so a choice made while they were being kept is in it.
 */
export function toKeep(
  batch: HeadshotBatch,
): [KeepFile[], (value: HeadshotValue, assets: ResultAsset[]) => HeadshotValue] {
  const pending = batch.results.filter(
    (r): r is SlotView & { blob: Blob } => r.status === 'succeeded' && !r.asset && !!r.blob,
  );
  const files = pending.map((r) => {
    let file = keepFiles.get(r.blob);
    if (!file) {
      const blob = r.blob;
      keepFiles.set(
        blob,
        (file = { name: batch.fileName(r.slot), type: 'image/png', blob: () => Promise.resolve(blob) }),
      );
    }
    return file;
  });
  const place = (value: HeadshotValue, assets: ResultAsset[]) => {
    pending.forEach((r, i) => (r.asset = assets[i]));
    return toValue(batch) ?? value;
  };
  return [files, place];
}

/** Elements whose choice waits for the batch's keep to land. */
const waiting = new WeakSet<EventTarget>();

/**
 * Commits the batch as it stands: the PNGs not kept yet are kept, then `change`. A choice made
 * while the batch is still being kept updates the value at once, and is committed (its own
 * `change`) once that keep has landed: its files are not handed over twice.
 */
export function commit(
  host: EventTarget,
  results: ResultValueController<HeadshotValue>,
  batch: HeadshotBatch,
  choice = false,
): void {
  const value = toValue(batch);
  if (!value) return;
  if (!choice || results.keeping !== 'keeping') return results.commit(value, ...toKeep(batch));
  results.update(value);
  if (waiting.has(host)) return;
  waiting.add(host);
  const after = () => {
    waiting.delete(host);
    // After the batch's `change` has reached every listener, not inside it.
    queueMicrotask(() => commit(host, results, batch, true));
  };
  host.addEventListener('change', after, { once: true });
}

/** A batch (or one retried slot) answered: `mk-succeeded` with every slot; a headshot in it that came back made is a result to commit. */
export function answered(
  host: EventTarget,
  results: ResultValueController<HeadshotValue>,
  batch: HeadshotBatch,
  a: BatchAnswer,
): void {
  const detail: HeadshotsSucceededDetail = { ...a, headshots: batch.headshots };
  host.dispatchEvent(new SucceededEvent(detail));
  if (batch.results.some((r) => a.slots.includes(r.slot) && r.status === 'succeeded')) commit(host, results, batch);
}

/** The user chose a headshot (`batch.choose` took it): the value's `chosen` and `file` (`input`, `change`), then `mk-headshot-chosen`. */
export function commitChoice(
  host: EventTarget,
  results: ResultValueController<HeadshotValue>,
  batch: HeadshotBatch,
): void {
  commit(host, results, batch, true);
  void batch.chosenDetail().then((detail) => detail && host.dispatchEvent(new HeadshotChosenEvent(detail)));
}

/** What field mode shows of a value: its style, whether one is chosen, and the chosen (else the first kept) headshot. */
export function fieldFactsOf(t: LocalizeController<Strings>, v: HeadshotValue | null, busy: boolean): FieldFacts {
  const shown = v?.variants.find((x) => x.slot === v.chosen && x.asset) ?? v?.variants.find((x) => x.asset);
  return {
    t,
    title: t.term('hsTitle'),
    detail: v ? `${t.term(`hsStyle_${v.style}`)}${v.chosen !== null ? ` · ${t.term('hsChosen')}` : ''}` : undefined,
    preview: (shown?.asset ?? v?.asset)?.url,
    // A batch with no headshot chosen yet has no `asset`, but its variants are kept.
    kept: v ? v.variants.some((x) => x.asset) : undefined,
    busy,
  };
}
