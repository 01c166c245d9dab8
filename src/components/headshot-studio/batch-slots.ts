/**
 * The slots of a headshot batch's grid: what each shows (a request out, its picture, where it is
 * kept), made from an answer's variants (their PNGs decoded). Loaded
 * with the first batch sent.
 */
import type { HeadshotVariant } from '../../api/index.js';
import type { HeadshotSlot } from '../../events/outcome.js';
import type { ResultAsset } from '../shared/result-value.js';

/** One slot of the grid: the public slot, whether a request for it is out, its URL and where it is kept. */
export interface SlotView extends HeadshotSlot {
  /** A request for this slot is out. */
  loading: boolean;
  /** Its object URL, or for a restored slot the kept URL. */
  url?: string;
  /** Where its PNG is kept (once kept, or restored). */
  asset?: ResultAsset;
  /** A restored slot whose kept file is gone (404, 410). */
  gone?: boolean;
}

/** The slots after an answer: each answered variant replaces its slot (whose object URL the caller frees) or is added. */
export function mergeVariants(results: SlotView[], variants: HeadshotVariant[]): SlotView[] {
  const next = [...results];
  for (const v of variants) {
    const i = next.findIndex((r) => r.slot === v.variant);
    let view: SlotView;
    if (v.status === 'succeeded') {
      const blob = new Blob([base64Bytes(v.image_base64) as Uint8Array<ArrayBuffer>], { type: 'image/png' });
      view = {
        slot: v.variant,
        status: 'succeeded',
        blob,
        width: v.width,
        height: v.height,
        url: URL.createObjectURL(blob),
        loading: false,
      };
    } else {
      view = { slot: v.variant, status: 'failed', error: v.error, loading: false };
    }
    if (i >= 0) next[i] = view;
    else next.push(view);
  }
  return next;
}

function base64Bytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
