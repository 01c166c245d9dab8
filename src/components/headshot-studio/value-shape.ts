/**
 * The shape of <headshot-studio>'s value (README "Saving results"); value.ts builds and checks it.
 * Types only, so the batch can name it without importing the value's code.
 */
import type { HeadshotStyle, VariantSlot } from '../../api/index.js';
import type { ResultAsset, ResultValueBase } from '../shared/result-value.js';

/** One variant of the batch as the value names it. */
export interface HeadshotVariantValue {
  slot: VariantSlot;
  style: HeadshotStyle;
  /** `failed`: the service could not make it (not charged). */
  status: 'succeeded' | 'failed';
  /** Its kept PNG; null when it failed or was not kept. */
  asset: ResultAsset | null;
  width?: number;
  height?: number;
}

export interface HeadshotValue extends ResultValueBase {
  kind: 'headshot';
  status: 'succeeded';
  /** The chosen headshot's kept PNG (the variant's own asset); null until one is chosen and kept. */
  asset: ResultAsset | null;
  style: HeadshotStyle;
  variants: HeadshotVariantValue[];
  /** The chosen variant's slot, or null until the user chooses one. */
  chosen: VariantSlot | null;
  /** Credits charged for this photo (the batch and its retries), as the answers said. */
  charged: number;
}
