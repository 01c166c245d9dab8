/**
 * The value of <headshot-studio> (shape 1, README "Saving results"): every variant of the batch
 * with its kept image, the chosen one (whose image is also the value's `asset`), and what the
 * photo was charged. A headshot batch is made at once, so the value is never `running` and has no
 * job: what the page holds are images only it has, kept as they are (`KeepFile` with only `blob`).
 * Built here from the batch; checked, when a site sets it, by value-check.ts. Loaded with the first
 * photo chosen or value set (the element calls it at once once it is loaded).
 */
export { check } from './value-check.js';
import { HeadshotChosenEvent } from '../../events/headshot-chosen.js';
import { SucceededEvent, type HeadshotsSucceededDetail } from '../../events/outcome.js';
import type { KeepFile, ResultAsset, ResultValueController } from '../shared/result-value.js';
import type { BatchAnswer, HeadshotBatch, SlotView } from './batch.js';
import type { HeadshotValue } from './value-shape.js';

export type { HeadshotValue, HeadshotVariantValue } from './value-shape.js';

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
