/**
 * The shapes `MediaClient` takes and answers: its options, the per-call options, the inputs of the
 * creating calls and what keeping a result answers. Types only.
 */
import type { HeadshotStyle, ImageToolRequest, ModelJobRequest, VariantSlot } from '../api/index.js';
import type { UploadProgress } from '../events/upload-progressed.js';

export interface MediaClientOptions {
  /** The proxy's base path or URL. Default `/mediakit`. */
  endpoint?: string;
  /** For sites that mint session tokens on their own backend (the proxy's `mintToken()`): resolves to a token. */
  session?: () => Promise<string>;
  /** Tries per call for 429/503 answers and lost connections. Default 4. */
  attempts?: number;
  /** The longest Retry-After (seconds) waited out; longer ones are reported to the caller. Default 60. */
  maxRetryAfterSeconds?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Told before the client waits out a 429/503 by itself (so an element can show a countdown). */
  onWait?: (wait: { seconds: number; status: number }) => void;
}

export interface CreateOptions extends CallOptions {
  /** Sent as Idempotency-Key and reused on every retry. Default: a new UUID per call. */
  idempotencyKey?: string;
  /** Upload progress of the request body. */
  onProgress?: (progress: UploadProgress) => void;
  /** Runs once after the input passed validation, before the first byte is sent (JobPoller records the job here). */
  beforeSend?: () => void | Promise<void>;
}

/** A 3D job request with photos as files (checked and encoded here) or http(s)/data URLs. */
export interface ModelJobInput extends Omit<ModelJobRequest, 'images'> {
  images?: (Blob | string)[];
}

/** A headshot request: the selfie as a file or an http(s) URL. */
export interface HeadshotInput {
  image: Blob | string;
  style?: HeadshotStyle;
  variants?: VariantSlot[];
}

/** An image tool request: the image as a file or an http(s) URL, plus the spec's options. */
export interface ImageToolInput extends Omit<ImageToolRequest, 'image_url' | 'image_base64'> {
  image: Blob | string;
}

export interface ImageToolImage {
  /** The processed image (image/png or image/jpeg). */
  blob: Blob;
  credits_charged: number;
  credits_remaining: number;
}

export interface SessionBudget {
  limit: number;
  used: number;
  remaining: number;
  window_seconds: number;
  resets_at: string;
}

/** What `keep()` keeps: a finished job's file (by its handle), or an image this page holds. */
export type KeepSource = { job: string; file: 'ply' | 'zip' | 'glb' | 'mp4' | 'image' } | { blob: Blob; name: string };

/** A kept file: a URL that does not expire, its type and size, and the store's id. */
export interface KeptFile {
  id: string;
  url: string;
  type: string;
  bytes: number;
  name: string;
}
