/**
 * The value of <bg-tool> (README "Saving results"), shape 1: the cut-out kept where it lasts
 * (`asset`), its dimensions and format, the options that made it and what it charged. A removal is
 * one synchronous call, so there is never a job to follow: the image exists only in the page until
 * it is kept, and a value without its kept image cannot be shown again (the common check refuses
 * it). Restoring fetches the kept image, never the API, and shows it as a fresh result is shown.
 */
import { LIMITS, type ImageToolFormat } from '../../api/index.js';
import type { KeepFile, ResultAsset, ResultValueBase } from '../shared/result-value.js';

import { hex6 } from './colour.js';
import type { BgOptions, BgToolResult, ShownResult } from './types.js';

/** `{ v: 1, kind: 'background-removal', status: 'succeeded', asset, created, width, height, format, options, charged }`. */
export interface BgToolValue extends ResultValueBase {
  kind: 'background-removal';
  status: 'succeeded';
  /** The result's pixels. */
  width: number;
  height: number;
  format: ImageToolFormat;
  /** What the request asked for (`bgColor`: `none` or `#rrggbb`). */
  options: BgOptions;
  /** Credits the call charged (X-Credits-Charged). */
  charged: number;
}

/** The value of a fresh result: not kept yet (`asset: null`) until `place` names where it lives. */
export function toValue(result: BgToolResult, { size, format, bgColor, crop }: BgOptions): BgToolValue {
  return {
    v: 1,
    kind: 'background-removal',
    status: 'succeeded',
    asset: null,
    created: new Date().toISOString(),
    width: result.width,
    height: result.height,
    format: result.format,
    options: { size, format, bgColor: bgColor === 'none' ? 'none' : hex6(bgColor), crop },
    charged: result.charged,
  };
}

/** What is kept: the image only this page holds, as its bytes. */
export function files(file: File): KeepFile[] {
  return [{ name: file.name, type: file.type, blob: () => Promise.resolve(file) }];
}

/** The value once its image is kept. */
export function place(value: BgToolValue, [asset]: ResultAsset[]): BgToolValue {
  return { ...value, asset: asset ?? null };
}

const count = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n > 0;
const { sizes, formats, bgColorPattern } = LIMITS.imageTools;
const one = (list: readonly string[]) => list.map((s) => `"${s}"`).join(', ');

/** What is wrong with a value's own fields (the common ones are checked already); undefined: nothing. */
export function check(v: Record<string, unknown>): string | undefined {
  if (v['status'] !== 'succeeded') return '"status" must be "succeeded": a background removal has no job to follow';
  if (v['job'] !== undefined) return '"job" has no place in a background removal (it is one synchronous call)';
  if (v['asset'] === null) return '"asset" must be the kept image: without it there is nothing to show';
  const asset = v['asset'] as ResultAsset;
  if (!/^image\/(png|jpeg)$/.test(asset.type)) return '"asset.type" must be "image/png" or "image/jpeg"';
  if (!count(v['width']) || !count(v['height'])) return '"width" and "height" must be whole numbers of pixels';
  if (!formats.includes(v['format'] as ImageToolFormat)) return `"format" must be one of ${one(formats)}`;
  const o = v['options'] as Record<string, unknown> | null;
  if (!o || typeof o !== 'object') return '"options" must be { size, format, bgColor, crop }';
  if (!sizes.includes(o['size'] as never)) return `"options.size" must be one of ${one(sizes)}`;
  if (!formats.includes(o['format'] as never)) return `"options.format" must be one of ${one(formats)}`;
  if (o['bgColor'] !== 'none' && !(typeof o['bgColor'] === 'string' && bgColorPattern.test(o['bgColor'])))
    return '"options.bgColor" must be "none" or a colour such as "#ffffff"';
  if (typeof o['crop'] !== 'boolean') return '"options.crop" must be true or false';
  if (typeof v['charged'] !== 'number' || !(v['charged'] >= 0)) return '"charged" must be a number of credits';
  return undefined;
}

/**
 * The kept image of `value`, made a result as a fresh one is (its `url` an object URL the caller
 * revokes), read by the kit's rule for saved files (shared/saved-file.ts): no cookies outside the
 * endpoint's results path, and bytes that are not the declared image are no file: the picture is
 * then shown by its URL, without a blob. A file that is gone throws `SavedFileGone`.
 */
export async function fetchKept(value: BgToolValue, endpoint: string, signal: AbortSignal): Promise<ShownResult> {
  const asset = value.asset!;
  // The reader loads with the first value that names a kept image; where it cannot load (offline),
  // the picture is shown by its URL, as for bytes that cannot be read.
  const blob = await import('../shared/saved-file.js').then(
    ({ readSavedImage }) => readSavedImage(asset, endpoint, signal),
    () => undefined,
  );
  signal.throwIfAborted();
  const { width, height, format, charged } = value;
  return blob
    ? { blob, url: URL.createObjectURL(blob), width, height, format, charged }
    : { url: asset.url, bytes: asset.bytes, width, height, format, charged };
}
