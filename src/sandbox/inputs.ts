/**
 * Reading and checking request input: bodies with a byte cap, JSON or multipart fields, the three
 * image sources, videos judged by their bytes and their own metadata. Every refusal names the
 * field and the fix, and happens before any credit is touched.
 */
import {
  ApiError,
  fromBase64,
  JSON_TOO_DEEP,
  jsonDepth,
  LIMITS,
  MAX_JSON_DEPTH,
  readCapped,
  sniffImage,
  sniffVideo,
  type ImageFormat,
} from '../api/index.js';
import type { Source } from 'mediabunny';
import { fail } from './http.js';
import type { Hasher, SandboxPlatform, Upload } from './platform.js';

export type Fields = Map<string, string | File | Upload>;

/** A spooled upload (multipart stream) rather than a text field or an in-memory File. */
export function isUpload(value: string | File | Upload | Uint8Array | undefined): value is Upload {
  return typeof value === 'object' && !(value instanceof Blob) && !(value instanceof Uint8Array);
}

export interface Body {
  kind: 'json' | 'multipart';
  fields: Fields;
  /** Raw JSON value, for fields whose JSON type matters (arrays, booleans, numbers). */
  json: Record<string, unknown> | undefined;
}

/**
 * Reads the body, refusing it from Content-Length before a byte is read when it is over `maxBytes`,
 * and stopping as soon as a body without a length passes it.
 */
export async function readBody(request: Request, maxBytes: number, tooLarge: () => never): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && !/^\d+$/.test(declared))
    fail('invalid_request', 'The Content-Length header is not a whole number of bytes.');
  return readStream(request.body, declared === null ? undefined : Number(declared), maxBytes, tooLarge);
}

/** Reads a stream of at most `maxBytes`, refusing a `declared` length over it before reading. */
async function readStream(
  body: ReadableStream<Uint8Array> | null,
  declared: number | undefined,
  maxBytes: number,
  tooLarge: () => never,
): Promise<Uint8Array> {
  if (declared !== undefined && declared > maxBytes) {
    await body?.cancel().catch(() => {});
    tooLarge();
  }
  return readCapped(body, maxBytes, tooLarge, () =>
    fail('invalid_request', 'The body ended before it was complete. Send it again.'),
  );
}

/** Parses a JSON object or a multipart form. `accept` lists the kinds the endpoint takes. */
export async function parseBody(
  request: Request,
  bytes: Uint8Array,
  accept: readonly ('json' | 'multipart')[],
): Promise<Body> {
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  const expected = accept.map((k) => (k === 'json' ? 'application/json' : 'multipart/form-data')).join(' or ');
  if (type.startsWith('application/json') && accept.includes('json')) {
    // Deeper than any parameter nests: refused before parsing (JSON.parse and the idempotency
    // fingerprint would overflow the stack and answer 500).
    if (jsonDepth(bytes) > MAX_JSON_DEPTH) fail('invalid_request', JSON_TOO_DEEP);
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      fail('invalid_request', 'The body is not valid UTF-8 JSON. Send a JSON object.');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      fail('invalid_request', 'The JSON body must be an object with the parameters as fields.');
    const fields: Fields = new Map();
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (typeof v === 'string') fields.set(k, v);
    }
    return { kind: 'json', fields, json: value as Record<string, unknown> };
  }
  if (type.startsWith('multipart/form-data') && accept.includes('multipart')) {
    let form: FormData;
    try {
      form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
        headers: { 'content-type': request.headers.get('content-type')! },
      }).formData();
    } catch {
      fail(
        'invalid_request',
        'The body is not valid multipart/form-data (check the boundary and that every part is complete).',
      );
    }
    const fields: Fields = new Map();
    for (const [k, v] of form.entries()) {
      if (fields.has(k)) fail('invalid_request', `The field ${k} appears more than once; send it once.`);
      fields.set(k, v);
    }
    return { kind: 'multipart', fields, json: undefined };
  }
  fail(
    'unsupported_content_type',
    `This endpoint takes ${expected}; the request was sent as ${type || 'no content type'}.`,
  );
}

/** A digest of the request's content (fields and file bytes), independent of multipart boundaries. */
export async function fingerprint(route: string, body: Body | undefined, sha256: () => Hasher): Promise<string> {
  const encoder = new TextEncoder();
  const hash = sha256();
  const text = (s: string) => hash.update(encoder.encode(s));
  text(route + '\n');
  if (body?.json) text('json\n' + stableStringify(body.json));
  else if (body) {
    for (const [k, v] of [...body.fields.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      text(k + '\0');
      if (typeof v === 'string') text('s' + v);
      else if (isUpload(v)) text('f' + v.type + '\0sha256:').update(v.sha256);
      else text('f' + v.type + '\0').update(new Uint8Array(await v.arrayBuffer()));
      text('\n');
    }
  }
  return [...hash.digest()].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return '[' + value.map(stableStringify).join(',') + ']';
  if (value && typeof value === 'object') {
    return (
      '{' +
      Object.keys(value)
        .sort()
        .map((k) => JSON.stringify(k) + ':' + stableStringify((value as Record<string, unknown>)[k]))
        .join(',') +
      '}'
    );
  }
  return JSON.stringify(value);
}

/** Strict base64 (RFC 4648 alphabet, padding optional, no whitespace or data: prefix). */
export function decodeBase64(value: string, field: string): Uint8Array {
  if (value.startsWith('data:'))
    fail(
      'invalid_request',
      `${field} must be raw base64 without a data: URL prefix; remove everything up to and including the comma.`,
    );
  const clean = value.replace(/=+$/, '');
  if (clean.length === 0) fail('invalid_request', `${field} is empty; send the image bytes as base64.`);
  if (!/^[A-Za-z0-9+/]*$/.test(clean) || clean.length % 4 === 1)
    fail('invalid_request', `${field} is not valid base64 (only A-Z, a-z, 0-9, +, / and = padding are allowed).`);
  return fromBase64(clean);
}

/** Checks image bytes: not empty, at most 12 MB, JPG/PNG/WebP by magic bytes. */
export function checkImage(bytes: Uint8Array, field: string): ImageFormat {
  if (bytes.byteLength === 0) fail('invalid_request', `${field} is empty; send a JPG, PNG or WebP image.`);
  if (bytes.byteLength > LIMITS.image.maxBytes)
    fail(
      'invalid_request',
      `${field} is ${mb(bytes.byteLength)}; images may be at most 12 MB. Send a smaller or more compressed image.`,
    );
  const format = sniffImage(bytes);
  if (!format)
    fail(
      'invalid_request',
      `${field} is not a JPG, PNG or WebP image (judged by its bytes, not its name). Convert it to one of those formats.`,
    );
  return format;
}

export interface UrlFetchOptions {
  /** How long to wait for an image URL, redirects included. */
  timeoutMs: number;
  fetch?: typeof fetch;
  allowLoopback?: boolean;
  maxRedirects?: number;
}

/** Fetches an http(s) image URL with the platform's protections (public hosts only), with a time and size cap. */
export function fetchImageUrl(
  raw: string,
  field: string,
  options: UrlFetchOptions,
  platform: SandboxPlatform,
): Promise<Uint8Array> {
  return platform.fetchImage(raw, field, { ...options, maxBytes: LIMITS.image.maxBytes });
}

/** Parses a data URL of an image (3D generation's `images` entries). */
export function decodeDataUrl(value: string, field: string): Uint8Array {
  const m = /^data:([a-z]+\/[a-z0-9.+-]+)?(;[a-z0-9-]+=[^;,]*)*;base64,(.*)$/is.exec(value);
  if (!m)
    fail(
      'invalid_request',
      `${field} is a data URL that is not base64 encoded; use data:image/png;base64,… (or …jpeg, …webp).`,
    );
  return decodeBase64(m[3]!, field);
}

export interface VideoInfo {
  container: 'mp4' | 'mov';
  durationSeconds: number;
  width: number;
  height: number;
  sha256: Uint8Array;
}

/** Judges a video by its bytes and its own metadata (spec "Limits": MP4/MOV, 3 minutes, 1080p); a spooled upload is read from its file. */
export async function inspectVideo(video: Uint8Array | Upload, platform: SandboxPlatform): Promise<VideoInfo> {
  const container = sniffVideo(video instanceof Uint8Array ? video : video.head);
  if (!container)
    fail(
      'unsupported_media',
      'video_file is not an MP4 or MOV file (judged by its bytes, not its name). Export the video as MP4 (H.264) and try again.',
    );
  const { Input, ALL_FORMATS } = await import('mediabunny');
  const input = new Input({
    source: (await platform.videoSource(video)) as Source,
    formats: ALL_FORMATS,
  });
  let durationSeconds: number;
  let width: number;
  let height: number;
  try {
    const track = await input.getPrimaryVideoTrack();
    if (!track)
      fail('unsupported_media', 'video_file has no video track. Send a walkthrough video, not an audio file.');
    durationSeconds = await input.computeDuration();
    width = track.displayWidth;
    height = track.displayHeight;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    fail(
      'unsupported_media',
      'video_file could not be read as MP4/MOV (the file is damaged or incomplete). Export it again and retry.',
    );
  } finally {
    input.dispose?.();
  }
  const { maxDurationSeconds, maxShortSidePixels, maxLongSidePixels } = LIMITS.video;
  if (durationSeconds > maxDurationSeconds)
    fail(
      'unsupported_media',
      `video_file is ${formatDuration(durationSeconds)} long; videos may be at most 3 minutes. Trim it to one continuous take of 3 minutes or less.`,
    );
  if (Math.min(width, height) > maxShortSidePixels || Math.max(width, height) > maxLongSidePixels) {
    fail(
      'unsupported_media',
      `video_file is ${width}x${height}; videos may be at most 1080p (1920x1080 either way). Export it at 1080p or lower.`,
    );
  }
  if (!(durationSeconds > 0) || width === 0 || height === 0)
    fail('unsupported_media', 'video_file has no frames. Send a walkthrough video of at least a few seconds.');
  const sha256 = video instanceof Uint8Array ? platform.sha256().update(video).digest() : video.sha256;
  return { container, durationSeconds, width, height, sha256 };
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1) + ' MB';
}

function formatDuration(s: number): string {
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}

/** Checks that image bytes decode, not only that their magic bytes look right. */
export async function decodable(
  bytes: Uint8Array,
  field: string,
  platform: SandboxPlatform,
): Promise<{ width: number; height: number }> {
  try {
    return await platform.decodeSize(bytes);
  } catch {
    fail(
      'invalid_request',
      `${field} could not be decoded as an image (the file is damaged or truncated). Export it again as JPG, PNG or WebP.`,
    );
  }
}
