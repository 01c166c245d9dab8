/**
 * What <headshot-studio> and its views share: the phases, what each phase says and where it moves
 * focus, the `variants` attribute, and the data the views are drawn from. The views take that data
 * as an argument (the element only as `StudioHost`, an interface), so no module of the folder
 * imports the element's file.
 */
import { headshotCharge, LIMITS, type HeadshotStyle, type VariantSlot } from '../../api/index.js';
import type { FileIntakeController } from '../shared/file-intake.js';
import type { ErrorPanelOptions } from '../shared/error-panel.js';
import type { LocalizeController } from '../shared/localize.js';
import type { PhotoFitStrings } from '../shared/photo-fit-strings.js';
import type { SharedStrings } from '../shared/strings.js';
import type { HeadshotBatch } from './batch.js';
import type { CameraView } from './intake.js';
import type { HeadshotPhoto } from './photo.js';
import type { HeadshotStrings } from './strings.js';

export type HeadshotStatus = 'idle' | 'ready' | 'sending' | 'succeeded' | 'partial' | 'failed';
export const PHASES: readonly HeadshotStatus[] = ['idle', 'ready', 'sending', 'succeeded', 'partial', 'failed'];
export type Strings = HeadshotStrings & SharedStrings & PhotoFitStrings;

/** Focus follows the end of a phase: to the next action, the results, or what to do about a failure. */
export const FOCUS: Partial<Record<HeadshotStatus, string>> = {
  ready: '[part~="primary-button"]',
  succeeded: '.results-title',
  partial: '.results-title',
  failed: '[part~="error"] button, [part~="error"] a, [part~="primary-button"]',
};

/** The `variants` attribute: "0,1,2,3" (spaces or commas; unknown slots and repeats dropped). */
export const variantsConverter = {
  fromAttribute: (v: string | null): VariantSlot[] =>
    [
      ...new Set(
        (v ?? '')
          .split(/[\s,]+/)
          .map(Number)
          .filter((n) => (LIMITS.headshot.slots as readonly number[]).includes(n)),
      ),
    ].sort() as VariantSlot[],
  toAttribute: (v: VariantSlot[]) => v.join(','),
};

/** The slots to make, in slot order. */
export const slotsOf = (variants: readonly VariantSlot[]): VariantSlot[] =>
  LIMITS.headshot.slots.filter((s) => variants.includes(s));

/** Where focus goes when the phase becomes `now`: the next action once the photo is ready; the results (after a retry: that slot) once the work ends. */
export function focusAfter(
  now: HeadshotStatus,
  before: HeadshotStatus,
  retried: VariantSlot | undefined,
): string | undefined {
  if (before !== 'sending') return now === 'ready' ? FOCUS.ready : undefined;
  return retried === undefined ? FOCUS[now] : `[data-slot="${retried}"] h4`;
}

/** What the phase `now` says: the price once the photo is ready, the work, how many came back (a failure speaks through the error panel's alert). */
export function sayFor(
  t: LocalizeController<Strings>,
  now: HeadshotStatus,
  before: HeadshotStatus,
  count: number,
  batch: HeadshotBatch,
): string | undefined {
  if (now === 'ready' && before === 'idle') return t.term('hsGenerate', { count, cost: headshotCharge(count) });
  if (now === 'sending') return t.term('hsWorking');
  if (now === 'succeeded' || now === 'partial')
    return t.term('hsReady', { ok: batch.succeeded, total: batch.results.length });
  return undefined;
}

/** Where the element is, from its photo and its batch (a restored batch, with no photo, is `succeeded` or `partial`). */
export function deriveStatus(photo: HeadshotPhoto, batch: HeadshotBatch): HeadshotStatus {
  const { results, succeeded } = batch;
  if (batch.working) return 'sending';
  if (results.length) return succeeded === results.length ? 'succeeded' : succeeded > 0 ? 'partial' : 'failed';
  const { file, checking, error } = photo;
  if ((error || batch.error) && file) return 'failed';
  if (file && !checking) return 'ready';
  return 'idle';
}

/** What the views may do to the element: its public properties and methods (the element's own type is never imported). */
export interface StudioHost {
  headshotStyle: HeadshotStyle;
  variants: VariantSlot[];
  openCamera(): Promise<void>;
  takePhoto(): Promise<void>;
  start(): Promise<void>;
  retry(slot: VariantSlot): Promise<void>;
  choose(slot: VariantSlot): void;
  downloadAll(): Promise<void>;
  reset(): void;
}

/** Everything the views are drawn from. */
export interface StudioView {
  t: LocalizeController<Strings>;
  host: StudioHost;
  status: HeadshotStatus;
  /** The element is disabled (itself or by its fieldset): no control can be used. */
  off: boolean;
  photo: HeadshotPhoto;
  batch: HeadshotBatch;
  camera: CameraView;
  intake: FileIntakeController;
  /** The slots of the next batch, and its price. */
  slots: VariantSlot[];
  cost: number;
  /** The session's credits left (undefined: not known yet). */
  remaining: number | undefined;
  /** The line saying where keeping the headshots stands (the result value's). */
  keep: unknown;
  /** The site's top-up page, the 429 countdown, the live region, and the error panel. */
  topUpHref: string | undefined;
  waitSeconds: number;
  announcer: unknown;
  panel(error: unknown, options: ErrorPanelOptions): unknown;
  /** The user starts over: the result is removed (`change`); with `keepPhoto`, back to the choices for the same photo. */
  startOver(keepPhoto: boolean): void;
}
