/**
 * The bodies of the calls that send photos or options (a 3D job, headshots, the image tool), with
 * their checks before spending: MediaClient loads this module on the first such call, so a page
 * with only the video uploader never does. Each call builds its body and hands it to `post`, which
 * sends it with the call's Idempotency-Key, signal, progress and 429 hooks.
 */
import type { HeadshotBatch, ModelJobCreated, ModelJobRequest } from '../api/index.js';
import type { HeadshotInput, ImageToolInput, ModelJobInput } from './client-types.js';
import { ValidationError } from './validate.js';
import {
  validateImage,
  validateImageToolOptions,
  validateModelRequest,
  validateStyle,
  validateVariants,
} from './validate-input.js';
import { validateImageUrl } from './validate-url.js';

/** Sends a checked body (after the caller's `beforeSend`). */
export type Post = (body: XMLHttpRequestBodyInit, headers?: Record<string, string>) => Promise<Response>;

const JSON_TYPE = { 'content-type': 'application/json' };

export async function createModelJob(
  input: ModelJobInput,
  signal: AbortSignal | undefined,
  post: Post,
): Promise<ModelJobCreated> {
  const { images, ...rest } = input;
  if (images !== undefined && !Array.isArray(images))
    throw new ValidationError('invalid_request', 'images', 'images must be a list of 1 to 6 photos.');
  validateModelRequest({ ...rest, imageCount: images?.length ?? 0 });
  const encoded = images ? await Promise.all(images.map((img, i) => imageSource(img, `images[${i}]`))) : undefined;
  signal?.throwIfAborted();
  const body = JSON.stringify({ ...rest, ...(encoded ? { images: encoded } : {}) } satisfies ModelJobRequest);
  return (await (await post(body, JSON_TYPE)).json()) as ModelJobCreated;
}

export async function headshots(input: HeadshotInput, post: Post): Promise<HeadshotBatch> {
  const style = validateStyle(input.style);
  const variants = validateVariants(input.variants);
  let r: Response;
  if (typeof input.image === 'string') {
    r = await post(JSON.stringify({ image_url: validateImageUrl(input.image, 'image'), style, variants }), JSON_TYPE);
  } else {
    await validateImage(input.image, 'image');
    const form = new FormData();
    form.set('image_file', input.image, fileName(input.image, 'selfie'));
    form.set('style', style);
    form.set('variants', variants.join(','));
    r = await post(form);
  }
  return (await r.json()) as HeadshotBatch;
}

/** The image tool's answer (the caller reads the credit headers). */
export async function imageTool(input: ImageToolInput, post: Post): Promise<Response> {
  const { image, ...settings } = input;
  validateImageToolOptions(settings);
  if (typeof image === 'string')
    return post(JSON.stringify({ ...settings, image_url: validateImageUrl(image, 'image') }), JSON_TYPE);
  await validateImage(image, 'image');
  const form = new FormData();
  form.set('image_file', image, fileName(image, 'image'));
  for (const [name, value] of Object.entries(settings)) if (value !== undefined) form.set(name, String(value));
  return post(form);
}

function fileName(blob: Blob, fallback: string): string {
  return blob instanceof File && blob.name ? blob.name : fallback;
}

/** A photo for a 3D job: a checked file as a data URL, or an http(s)/data URL as given. */
async function imageSource(image: Blob | string, field: string): Promise<string> {
  if (typeof image === 'string') {
    if (/^data:image\/(?:jpeg|png|webp);base64,/i.test(image)) return image;
    return validateImageUrl(image, field);
  }
  const { format } = await validateImage(image, field);
  const bytes = new Uint8Array(await image.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:image/${format};base64,${btoa(binary)}`;
}
