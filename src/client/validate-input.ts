/**
 * Checks of photos, URLs, headshot and 3D options, before spending (the same rules and codes as the
 * API). Apart from the video checks so a page with only the video uploader never loads them: the
 * client imports this module when a call needs it.
 */
import {
  LIMITS,
  sniffImage,
  type HeadshotStyle,
  type ImageFormat,
  type ImageToolRequest,
  type ModelJobRequest,
  type VariantSlot,
} from '../api/index.js';
import { formatBytes, isBlob, refuse } from './validate.js';

export interface CheckedImage {
  format: ImageFormat;
  bytes: number;
  width: number;
  height: number;
}

/** A photo: JPG, PNG or WebP by its bytes, at most 12 MB, and decodable. */
export async function validateImage(image: Blob, field = 'image_file'): Promise<CheckedImage> {
  if (!isBlob(image)) refuse('invalid_request', field, `${field} must be a File or Blob holding the image.`);
  if (image.size === 0) refuse('invalid_request', field, `${field} is empty. Choose the image again.`, 'empty');
  if (image.size > LIMITS.image.maxBytes)
    refuse(
      'invalid_request',
      field,
      `${field} is ${formatBytes(image.size)}; images may be at most 12 MB. Resize or recompress it.`,
      'too_large',
      { bytes: image.size, max: LIMITS.image.maxBytes },
    );
  const format = sniffImage(new Uint8Array(await image.slice(0, 16).arrayBuffer()));
  if (!format)
    refuse(
      'invalid_request',
      field,
      `${field} is not a JPG, PNG or WebP image (judged by its contents, not its name). Save it in one of those formats.`,
      'not_image',
    );
  let width = 0;
  let height = 0;
  try {
    const bitmap = await createImageBitmap(image);
    width = bitmap.width;
    height = bitmap.height;
    bitmap.close();
  } catch {
    refuse(
      'invalid_request',
      field,
      `${field} looks like a ${format!.toUpperCase()} but cannot be decoded; it may be damaged. Save it again.`,
      'undecodable',
    );
  }
  return { format: format!, bytes: image.size, width, height };
}

export function validateStyle(style: unknown): HeadshotStyle {
  if (style === undefined) return LIMITS.headshot.defaultStyle;
  if (!(LIMITS.headshot.styles as readonly unknown[]).includes(style))
    refuse('invalid_request', 'style', `style must be one of ${LIMITS.headshot.styles.join(', ')}.`);
  return style as HeadshotStyle;
}

export function validateVariants(variants: unknown): VariantSlot[] {
  if (variants === undefined) return [...LIMITS.headshot.slots];
  if (!Array.isArray(variants) || variants.length === 0)
    refuse(
      'invalid_request',
      'variants',
      'variants must list one or more slots from 0 to 3, for example [2] to retry one.',
    );
  const list = variants as unknown[];
  if (!list.every((v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 3))
    refuse('invalid_request', 'variants', 'variants may only hold the slots 0, 1, 2 and 3.');
  if (new Set(list).size !== list.length)
    refuse('invalid_request', 'variants', 'variants lists a slot twice; list each slot once.');
  return [...(list as VariantSlot[])].sort();
}

/** The JSON part of a 3D job request (images are checked by the client as they are read). */
export function validateModelRequest(request: Omit<ModelJobRequest, 'images'> & { imageCount?: number }): void {
  const { mode } = request;
  if (mode !== 'image' && mode !== 'text')
    refuse('invalid_request', 'mode', 'mode must be "image" (with photos) or "text" (with a prompt).');
  if (request.quality !== undefined && !(LIMITS.model.qualities as readonly unknown[]).includes(request.quality)) {
    refuse('invalid_request', 'quality', `quality must be one of ${LIMITS.model.qualities.join(', ')}.`);
  }
  if (
    request.seed !== undefined &&
    (!Number.isSafeInteger(request.seed) || request.seed < 0 || request.seed > LIMITS.model.maxSeed)
  ) {
    refuse('invalid_request', 'seed', 'seed must be a whole number from 0 to 4294967295; omit it for a random one.');
  }
  if (mode === 'text') {
    if (request.imageCount)
      refuse('invalid_request', 'images', 'Photos are for image mode; in text mode send only a prompt.');
    if (request.remove_background !== undefined)
      refuse('invalid_request', 'remove_background', 'remove_background applies to image mode only.');
    if (typeof request.prompt !== 'string')
      refuse('invalid_request', 'prompt', 'Describe the object in 3 to 300 characters.', 'prompt_length', {
        length: 0,
        min: LIMITS.model.minPromptChars,
        max: LIMITS.model.maxPromptChars,
      });
    const length = [...request.prompt!.trim()].length;
    const { minPromptChars: min, maxPromptChars: max } = LIMITS.model;
    if (length < min || length > max)
      refuse(
        'invalid_request',
        'prompt',
        `The prompt must be ${min} to ${max} characters; it has ${length}.`,
        'prompt_length',
        { length, min, max },
      );
    return;
  }
  if (request.prompt !== undefined)
    refuse('invalid_request', 'prompt', 'A prompt is for text mode; in image mode send only photos.');
  const n = request.imageCount ?? 0;
  if (n < LIMITS.model.minImages || n > LIMITS.model.maxImages)
    refuse(
      'invalid_request',
      'images',
      `Image mode takes 1 to 6 photos of one object; ${n} were given.`,
      'image_count',
      { count: n, min: LIMITS.model.minImages, max: LIMITS.model.maxImages },
    );
}

export function validateImageToolOptions(options: Omit<ImageToolRequest, 'image_url' | 'image_base64'>): void {
  if (options.operation !== undefined && options.operation !== 'remove_background')
    refuse('invalid_request', 'operation', 'operation must be "remove_background" (the one operation offered).');
  if (options.size !== undefined && !(LIMITS.imageTools.sizes as readonly unknown[]).includes(options.size))
    refuse('invalid_request', 'size', `size must be one of ${LIMITS.imageTools.sizes.join(', ')}.`);
  if (options.format !== undefined && !(LIMITS.imageTools.formats as readonly unknown[]).includes(options.format))
    refuse('invalid_request', 'format', 'format must be png (transparent) or jpg.');
  if (
    options.bg_color !== undefined &&
    options.bg_color.toLowerCase() !== 'none' &&
    !LIMITS.imageTools.bgColorPattern.test(options.bg_color)
  )
    refuse('invalid_request', 'bg_color', 'bg_color must be a hex colour such as #1e90ff or #fff.');
  if (options.crop !== undefined && typeof options.crop !== 'boolean')
    refuse('invalid_request', 'crop', 'crop must be true or false.');
}
