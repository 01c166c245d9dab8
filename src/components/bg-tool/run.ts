/**
 * Removing the background for <bg-tool>: one image-tool request, sent with the Idempotency-Key,
 * AbortSignal and 429 hook of the element's `RequestController`, and its result: the dimensions
 * read from the image itself, and what the answer charged (X-Credits-Charged, never the price
 * table), and its value; also the result on the clipboard. Loaded with the first image chosen, not
 * with the page.
 */
import type { MediaClient } from '../../client/media-client.js';
import type { SendContext } from '../shared/request-controller.js';
import type { BgOptions, BgToolResult, FreshResult } from './types.js';

export { files, place, toValue } from './value.js';

export interface BgRequest extends BgOptions {
  image: File | string;
}

/** Sends `request`; resolves with the result (its `url` an object URL the caller revokes), rejects on a failure or a cancel. */
export async function removeBackground(
  client: MediaClient,
  request: BgRequest,
  { key, signal, onWait }: SendContext,
): Promise<FreshResult> {
  const { image, size, format, crop, bgColor } = request;
  const input = { image, size, format, crop, ...(bgColor === 'none' ? {} : { bg_color: bgColor }) };
  const out = await client.imageTool(input, { idempotencyKey: key, signal, onWait });
  const bitmap = await createImageBitmap(out.blob);
  const { width, height } = bitmap;
  bitmap.close();
  // Cancelled while the answer was being read: it is not shown.
  signal.throwIfAborted();
  return {
    blob: out.blob,
    url: URL.createObjectURL(out.blob),
    width,
    height,
    format,
    charged: out.credits_charged,
    remaining: out.credits_remaining,
  };
}

/** Writes the result to the clipboard as PNG (what `ClipboardItem` takes everywhere); whether the browser took it. */
export async function copyAsPng(result: BgToolResult): Promise<boolean> {
  try {
    const png = result.format === 'png' ? result.blob : await toPng(result.blob);
    await navigator.clipboard.write([new ClipboardItem({ 'image/png': png })]);
    return true;
  } catch {
    return false;
  }
}

async function toPng(blob: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
  bitmap.close();
  return canvas.convertToBlob({ type: 'image/png' });
}
