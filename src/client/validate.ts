/**
 * Validation before spending: every input is checked against the limits table (src/api/limits.ts)
 * before a byte is sent, with the same rules and error codes the API applies, so a refusal costs
 * nothing, not even the upload time. The server still checks everything; this saves the trip.
 *
 * This module is the refusal itself (ValidationError), which every page needs; the checks load
 * with the calls that need them: the video's from validate-video.ts, the rest from
 * validate-input.ts.
 */
import { ApiError, ERROR_CODES, type ErrorCode, type ErrorParams, type ErrorReason } from '../api/index.js';

/** An input refused in the browser before anything was sent. `field` names what to fix. */
export class ValidationError extends ApiError {
  override readonly name = 'ValidationError';
  readonly field: string;

  constructor(
    code: ErrorCode,
    field: string,
    message: string,
    reason: ErrorReason = 'invalid',
    params: ErrorParams = {},
  ) {
    super(ERROR_CODES[code], code, message, undefined, reason, params);
    this.field = field;
  }
}

/** A Blob of this realm or another (a file handed over from an iframe is still a file). */
export const isBlob = (v: unknown): v is Blob =>
  v instanceof Blob || /^\[object (Blob|File)\]$/.test(Object.prototype.toString.call(v));

/** Throws the ValidationError (used by validate-input.ts too). */
export const refuse = (
  code: ErrorCode,
  field: string,
  message: string,
  reason?: ErrorReason,
  params?: ErrorParams,
): never => {
  throw new ValidationError(code, field, message, reason, params);
};

const MB = 1024 * 1024;
export const formatBytes = (n: number) => (n >= MB ? `${(n / MB).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`);
