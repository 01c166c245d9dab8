/**
 * The walkthrough video's checks, before a byte is sent (src/api/limits.ts): loaded with the first
 * video chosen or sent, not with the page (the client and the uploader import it when they need it).
 */
import { LIMITS, sniffVideo } from '../api/index.js';
import type { VideoMetadata } from './mp4.js';
import { formatBytes, isBlob, refuse } from './validate.js';

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
    refuse(
      'payload_too_large',
      field,
      `The video is ${formatBytes(file.size)}; videos may be at most 500 MB. Trim it or export it at a lower bitrate.`,
      'too_large',
      { bytes: file.size, max: LIMITS.video.maxBytes },
    );
  }
  const container = sniffVideo(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  if (!container)
    refuse(
      'unsupported_media',
      field,
      'This file is not an MP4 or MOV video (judged by its contents, not its name). Export the walkthrough as MP4.',
      'not_video',
    );
  // The ISO-BMFF reader loads with the first video checked, not with the page.
  const { readMp4Metadata, readVideoElementMetadata } = await import('./mp4.js');
  const meta =
    (await readMp4Metadata(file)) ??
    (typeof document === 'undefined' ? undefined : await readVideoElementMetadata(file, signal));
  signal?.throwIfAborted();
  if (!meta)
    refuse(
      'unsupported_media',
      field,
      "The video's length and frame size could not be read; the file may be damaged or still being written. Export it again as MP4.",
      'unreadable',
    );
  const { durationSeconds, width, height } = meta!;
  if (durationSeconds > LIMITS.video.maxDurationSeconds) {
    refuse(
      'unsupported_media',
      field,
      `The video is ${formatDuration(durationSeconds)} long; videos may be at most 3 minutes. Trim it to one continuous take of 3 minutes or less.`,
      'too_long',
      { seconds: durationSeconds, max: LIMITS.video.maxDurationSeconds },
    );
  }
  const short = Math.min(width, height);
  const long = Math.max(width, height);
  if (short > LIMITS.video.maxShortSidePixels || long > LIMITS.video.maxLongSidePixels) {
    refuse(
      'unsupported_media',
      field,
      `The video is ${width}x${height}; videos may be at most 1080p (1920x1080, either orientation). Export it at 1080p or lower.`,
      'resolution',
      { width, height },
    );
  }
  return { container: container!, bytes: file.size, durationSeconds, width, height };
}
