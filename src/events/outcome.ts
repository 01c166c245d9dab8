/**
 * The three moments every product element names the same way (README "The family's words"): the
 * main request sent (`mk-sent`), a result made (`mk-succeeded`), a failure (`mk-failed`). Each
 * detail names the request it is about by its Idempotency-Key, so a page can tie the three
 * together; a failure adds the kit's stable `reason` and `params` and whether a charge was refunded.
 * An element adds fields of its own beside these (a job's record, an image, a headshot batch).
 */
import type { ErrorParams, ErrorReason, HeadshotStyle, ImageToolFormat, VariantSlot } from '../api/index.js';
import type { JobEventDetail } from './job-events.js';

/** What every `mk-sent`, `mk-succeeded` and `mk-failed` says: the request it is about. */
export interface OutcomeDetail {
  /** The request's Idempotency-Key (a job's: the key its creating call was sent with). */
  idempotencyKey: string;
}

/** What every `mk-failed` says beside the request. */
export interface FailedDetail extends OutcomeDetail {
  /** Why, in the kit's stable words (`provider`, `insufficient_credits`, `network`, ...). */
  reason: ErrorReason;
  params: ErrorParams;
  /** A charge for this request was given back (a created job that failed); false when nothing was charged. */
  refunded: boolean;
}

/** `<bg-tool>`'s `mk-succeeded`: the background was removed. */
export interface ImageSucceededDetail extends OutcomeDetail {
  /** The processed image (image/png or image/jpeg). */
  blob: Blob;
  width: number;
  height: number;
  format: ImageToolFormat;
  /** Credits this call charged (the response's X-Credits-Charged, never recomputed). */
  charged: number;
  /** Credits left after it (X-Credits-Remaining). */
  remaining: number;
}

/** One slot of a headshot batch as the element shows it. */
export interface HeadshotSlot {
  /** Slot 0-3: 0 exact style template, 1 warmer three-quarter angle, 2 alternate outfit colour, 3 tighter neutral crop. */
  slot: VariantSlot;
  status: 'succeeded' | 'failed';
  /** The PNG, when the slot succeeded. */
  blob?: Blob;
  width?: number;
  height?: number;
  /** The service's message, when the slot failed. */
  error?: string;
}

/** `<headshot-studio>`'s `mk-succeeded`: a batch (or the retry of one slot) came back with at least one headshot. */
export interface HeadshotsSucceededDetail extends OutcomeDetail {
  style: HeadshotStyle;
  /** Every slot of the batch as it stands now (a retried slot replaces its earlier entry). */
  headshots: HeadshotSlot[];
  /** The slots this answer covered (all requested ones, or the one retried). */
  slots: VariantSlot[];
  /** Credits this answer charged (the response's `credits_charged`, never recomputed). */
  charged: number;
  /** Credits left after it (the response's `credits_remaining`). */
  remaining: number;
}

/** The element's main request is leaving (`start()`, a retried slot, trying again after a failure: the same key replays). */
export class SentEvent extends Event {
  static readonly type = 'mk-sent';
  readonly detail: OutcomeDetail;

  constructor(detail: OutcomeDetail) {
    super(SentEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

/** A result was made: `detail` is the request's key and what the element made (see each element). */
export class SucceededEvent<D extends OutcomeDetail = OutcomeDetail> extends Event {
  static readonly type = 'mk-succeeded';
  readonly detail: D;

  constructor(detail: D) {
    super(SucceededEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

/** The request (or the job it made) failed: why, and whether its charge was refunded. */
export class FailedEvent<D extends FailedDetail = FailedDetail> extends Event {
  static readonly type = 'mk-failed';
  readonly detail: D;

  constructor(detail: D) {
    super(FailedEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

/**
 * `mk-succeeded` as a listener anywhere on the page gets it: the shared `idempotencyKey`, and each
 * element's own fields, present where that element sent it (a job's record, an image, a batch). A
 * listener on one element gets that element's detail (events/element-events.ts).
 */
export type AnySucceededDetail = OutcomeDetail &
  Partial<JobEventDetail> &
  Partial<Omit<ImageSucceededDetail, 'idempotencyKey'>> &
  Partial<Omit<HeadshotsSucceededDetail, 'idempotencyKey'>>;

/** A job element's `mk-failed`: the shared fields, and the job's record where a job failed (a refused request has none). */
export type JobFailedDetail = FailedDetail & Partial<Omit<JobEventDetail, keyof FailedDetail>>;

/** `mk-failed` as a listener anywhere on the page gets it: only the job elements add fields, so a job element's. */
export type AnyFailedDetail = JobFailedDetail;

declare global {
  interface GlobalEventHandlersEventMap {
    'mk-sent': SentEvent;
    'mk-succeeded': SucceededEvent<AnySucceededDetail>;
    'mk-failed': FailedEvent<AnyFailedDetail>;
  }
}
