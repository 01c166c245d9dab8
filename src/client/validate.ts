/**
 * Validation before spending: every input is checked against the limits table (src/api/limits.ts)
 * before a byte is sent, with the same rules and error codes the API applies, so a refusal costs
 * nothing, not even the upload time. The server still checks everything; this saves the trip.
 */
import {
  ApiError,
  ERROR_CODES,
  type ErrorParams,
  type ErrorReason,
  LIMITS,
  sniffImage,
  sniffVideo,
  type ErrorCode,
  type HeadshotStyle,
  type ImageFormat,
  type ImageToolRequest,
  type ModelJobRequest,
  type VariantSlot,
} from '../api/index.js';
import type { VideoMetadata } from './mp4.js';

/** An input refused in the browser before anything was sent. `field` names what to fix. */
export class ValidationError extends ApiError {
  override readonly name = 'ValidationError';
  readonly field: string;

  constructor(code: ErrorCode, field: string, message: string, reason: ErrorReason = 'invalid', params: ErrorParams = {}) {
    super(ERROR_CODES[code], code, message, undefined, reason, params);
    this.field = field;
  }
}

/** A Blob of this realm or another (a file handed over from an iframe is still a file). */
export const isBlob = (v: unknown): v is Blob => v instanceof Blob || /^\[object (Blob|File)\]$/.test(Object.prototype.toString.call(v));

/** Throws the ValidationError (used by validate-input.ts too). */
export const refuse = (code: ErrorCode, field: string, message: string, reason?: ErrorReason, params?: ErrorParams): never => {
  throw new ValidationError(code, field, message, reason, params);
};

const MB = 1024 * 1024;
export const formatBytes = (n: number) => (n >= MB ? `${(n / MB).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`);
const formatDuration = (s: number) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;

export interface CheckedVideo extends VideoMetadata {
  container: 'mp4' | 'mov';
  bytes: number;
}

/** A walkthrough video: MP4/MOV by its bytes, at most 500 MB, 3 minutes and 1080p. */
export async function validateVideo(file: Blob, signal?: AbortSignal, field = 'video_file'): Promise<CheckedVideo> {
  if (!isBlob(file)) refuse('invalid_request', field, `${field} must be a File or Blob holding the video.`);
  if (file.size === 0) refuse('invalid_request', field, `${field} is empty. Choose the video file again.`, 'empty');
  if (file.size > LIMITS.video.maxBytes) {
    refuse('payload_too_large', field, `The video is ${formatBytes(file.size)}; videos may be at most 500 MB. Trim it or export it at a lower bitrate.`, 'too_large', { bytes: file.size, max: LIMITS.video.maxBytes });
  }
  const container = sniffVideo(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  if (!container) refuse('unsupported_media', field, 'This file is not an MP4 or MOV video (judged by its contents, not its name). Export the walkthrough as MP4.', 'not_video');
  // The ISO-BMFF reader loads with the first video checked, not with the page.
  const { readMp4Metadata, readVideoElementMetadata } = await import('./mp4.js');
  const meta = (await readMp4Metadata(file)) ?? (typeof document === 'undefined' ? undefined : await readVideoElementMetadata(file, signal));
  signal?.throwIfAborted();
  if (!meta) refuse('unsupported_media', field, 'The video\'s length and frame size could not be read; the file may be damaged or still being written. Export it again as MP4.', 'unreadable');
  const { durationSeconds, width, height } = meta!;
  if (durationSeconds > LIMITS.video.maxDurationSeconds) {
    refuse('unsupported_media', field, `The video is ${formatDuration(durationSeconds)} long; videos may be at most 3 minutes. Trim it to one continuous take of 3 minutes or less.`, 'too_long', { seconds: durationSeconds, max: LIMITS.video.maxDurationSeconds });
  }
  const short = Math.min(width, height);
  const long = Math.max(width, height);
  if (short > LIMITS.video.maxShortSidePixels || long > LIMITS.video.maxLongSidePixels) {
    refuse('unsupported_media', field, `The video is ${width}x${height}; videos may be at most 1080p (1920x1080, either orientation). Export it at 1080p or lower.`, 'resolution', { width, height });
  }
  return { container: container!, bytes: file.size, durationSeconds, width, height };
}

