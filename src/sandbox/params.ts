/**
 * Parameter checks for each endpoint, from the spec's parameter tables and the limits table.
 * Each returns typed parameters or throws an `invalid_request` that names the field and the fix.
 */
import {
  LIMITS,
  parseVariants,
  type HeadshotStyle,
  type ImageToolFormat,
  type ImageToolSize,
  type ModelMode,
  type ModelQuality,
  type VariantSlot,
} from '../api/index.js';
import { fail } from './http.js';
import type { Body } from './inputs.js';

export type ImageSource =
  { kind: 'file'; file: File } | { kind: 'base64'; value: string } | { kind: 'url'; value: string };

/** Exactly one of image_file, image_base64, image_url (headshot and image tools). */
export function oneImageSource(body: Body): ImageSource {
  const file = body.fields.get('image_file');
  const b64 = body.json ? body.json['image_base64'] : body.fields.get('image_base64');
  const url = body.json ? body.json['image_url'] : body.fields.get('image_url');
  const given = [
    file !== undefined && 'image_file',
    present(b64) && 'image_base64',
    present(url) && 'image_url',
  ].filter(Boolean);
  if (given.length === 0)
    fail(
      'invalid_request',
      'No image was sent. Provide exactly one of image_file (multipart), image_base64 or image_url.',
    );
  if (given.length > 1)
    fail(
      'invalid_request',
      `Provide exactly one image source; this request has ${given.join(' and ')}. Remove all but one.`,
    );
  if (file !== undefined) {
    if (typeof file === 'string' || !(file instanceof File))
      fail('invalid_request', 'image_file must be a file part (with a filename), not a text field.');
    return { kind: 'file', file };
  }
  if (present(b64)) {
    if (typeof b64 !== 'string') fail('invalid_request', 'image_base64 must be a string of base64.');
    return { kind: 'base64', value: b64 };
  }
  if (typeof url !== 'string') fail('invalid_request', 'image_url must be a string holding an http(s) URL.');
  return { kind: 'url', value: url };
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '';
}

/** Rejects fields the endpoint does not know, so a typo is not silently ignored. */
export function onlyKnownFields(body: Body, known: readonly string[]): void {
  const names = body.json ? Object.keys(body.json) : [...body.fields.keys()];
  for (const name of names) {
    if (!known.includes(name))
      fail('invalid_request', `Unknown parameter ${name}. This endpoint takes: ${known.join(', ')}.`);
  }
}

function stringParam(body: Body, name: string): string | undefined {
  const v = body.json ? body.json[name] : body.fields.get(name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') fail('invalid_request', `${name} must be a string.`);
  return v;
}

function enumParam<T extends string>(body: Body, name: string, allowed: readonly T[], fallback: T): T {
  const v = stringParam(body, name);
  if (v === undefined || v === '') return fallback;
  if (!allowed.includes(v as T))
    fail('invalid_request', `${name} must be one of ${allowed.join(', ')}; got "${v.slice(0, 40)}".`);
  return v as T;
}

function booleanParam(body: Body, name: string, fallback: boolean): boolean {
  const v = body.json ? body.json[name] : body.fields.get(name);
  if (v === undefined || v === null || v === '') return fallback;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  fail('invalid_request', `${name} must be true or false.`);
}

export interface HeadshotParams {
  style: HeadshotStyle;
  variants: VariantSlot[];
}

export function headshotParams(body: Body): HeadshotParams {
  onlyKnownFields(body, ['image_file', 'image_base64', 'image_url', 'style', 'variants']);
  const style = enumParam(body, 'style', LIMITS.headshot.styles, LIMITS.headshot.defaultStyle);
  const raw = body.json ? body.json['variants'] : body.fields.get('variants');
  // One rule for the sandbox and the proxy that prices the call (src/api/variants.ts).
  const parsed = parseVariants(raw);
  if (!parsed.ok) fail('invalid_request', parsed.message);
  return { style, variants: parsed.slots };
}

export interface ImageToolParams {
  size: ImageToolSize;
  format: ImageToolFormat;
  bgColor: string | undefined;
  crop: boolean;
}

export function imageToolParams(body: Body): ImageToolParams {
  onlyKnownFields(body, ['operation', 'image_file', 'image_base64', 'image_url', 'size', 'format', 'bg_color', 'crop']);
  enumParam(body, 'operation', ['remove_background'], 'remove_background');
  const size = enumParam(body, 'size', LIMITS.imageTools.sizes, 'auto');
  const format = enumParam(body, 'format', LIMITS.imageTools.formats, 'png');
  const bg = stringParam(body, 'bg_color');
  let bgColor: string | undefined;
  if (bg !== undefined && bg !== '' && bg.toLowerCase() !== 'none') {
    const m = LIMITS.imageTools.bgColorPattern.exec(bg);
    if (!m) fail('invalid_request', `bg_color must be a hex colour such as #1e90ff or #fff; got "${bg.slice(0, 20)}".`);
    const h = m[1]!;
    bgColor = '#' + (h.length === 3 ? [...h].map((c) => c + c).join('') : h).toLowerCase();
  }
  return { size, format, bgColor, crop: booleanParam(body, 'crop', false) };
}

export interface ModelParams {
  mode: ModelMode;
  images: string[];
  prompt: string | undefined;
  quality: ModelQuality;
  removeBackground: boolean;
  seed: number | undefined;
}

export function modelParams(body: Body): ModelParams {
  onlyKnownFields(body, ['mode', 'images', 'prompt', 'quality', 'remove_background', 'seed']);
  const json = body.json!;
  if (json['mode'] === undefined)
    fail('invalid_request', 'mode is required: "image" (with images) or "text" (with prompt).');
  const mode = enumParam(body, 'mode', ['image', 'text'] as const, 'image');
  const quality = enumParam(body, 'quality', LIMITS.model.qualities, 'standard');
  const seedRaw = json['seed'];
  let seed: number | undefined;
  if (seedRaw !== undefined && seedRaw !== null) {
    if (
      typeof seedRaw !== 'number' ||
      !Number.isSafeInteger(seedRaw) ||
      seedRaw < 0 ||
      seedRaw > LIMITS.model.maxSeed
    ) {
      fail('invalid_request', 'seed must be a whole number from 0 to 4294967295; omit it for a random one.');
    }
    seed = seedRaw;
  }
  if (mode === 'text') {
    if (json['images'] !== undefined)
      fail('invalid_request', 'images is for image mode; in text mode send only prompt.');
    if (json['remove_background'] !== undefined)
      fail('invalid_request', 'remove_background applies to image mode only; remove it from a text-mode request.');
    const prompt = json['prompt'];
    if (typeof prompt !== 'string')
      fail('invalid_request', 'prompt is required in text mode: describe the object in 3 to 300 characters.');
    const length = [...prompt.trim()].length;
    const { minPromptChars, maxPromptChars } = LIMITS.model;
    if (length < minPromptChars || length > maxPromptChars)
      fail('invalid_request', `prompt must be ${minPromptChars} to ${maxPromptChars} characters; it has ${length}.`);
    return { mode, images: [], prompt: prompt.trim(), quality, removeBackground: false, seed };
  }
  if (json['prompt'] !== undefined) fail('invalid_request', 'prompt is for text mode; in image mode send images.');
  const images = json['images'];
  const { minImages, maxImages } = LIMITS.model;
  if (!Array.isArray(images))
    fail('invalid_request', 'images is required in image mode: an array of 1 to 6 http(s) or data URLs.');
  if (images.length < minImages || images.length > maxImages)
    fail('invalid_request', `images must hold ${minImages} to ${maxImages} photos; it has ${images.length}.`);
  images.forEach((v, i) => {
    if (typeof v !== 'string' || !/^(https?:|data:)/i.test(v))
      fail('invalid_request', `images[${i}] must be an http(s) URL or a data: URL of a JPG, PNG or WebP image.`);
  });
  const rb = json['remove_background'];
  if (rb !== undefined && typeof rb !== 'boolean') fail('invalid_request', 'remove_background must be true or false.');
  return { mode, images: images as string[], prompt: undefined, quality, removeBackground: rb === true, seed };
}
