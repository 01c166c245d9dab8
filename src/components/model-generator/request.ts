/**
 * What <model-generator> sends for its input, and what it keeps about a job to show it later:
 * the request (checked before anything is spent), the summary stored with the job record, and
 * the request a finished job can be made again from ("same again" with its seed, or a variation).
 */
import { LIMITS, type ModelJob, type ModelQuality } from '../../api/index.js';
import type { ModelJobInput } from '../../client/media-client.js';
import { validateModelRequest } from '../../client/validate-input.js';
import type { JobRecord } from '../../jobs/job-store.js';
import { safeUrl } from '../../internal/safe-url.js';
import type { PhotoListController } from './photo-list.js';

export interface FormInput {
  mode: 'photos' | 'prompt';
  prompt: string;
  quality: ModelQuality;
  seed: number | undefined;
  removeBackground: boolean;
  photos: PhotoListController;
}

/** Characters left in the description, and the milestone the counter announces once (near the limit, or over it). */
export function promptLeft(prompt: string): { left: number; milestone: string } {
  const left = LIMITS.model.maxPromptChars - [...prompt].length;
  return { left, milestone: left < 0 ? 'over' : left === 0 ? '0' : left <= 10 ? '10' : left <= 20 ? '20' : '' };
}

/**
 * Says the characters left when the counter reaches a new milestone (`last`: the one said before):
 * once near the limit and once over it, not on every key. Answers the milestone now.
 */
export function sayLeft(prompt: string, last: string, say: (left: number) => void): string {
  const { left, milestone } = promptLeft(prompt);
  if (milestone && milestone !== last) say(left);
  return milestone;
}

/** A description of 3-300 characters (counted as the API counts them: code points, trimmed). */
export function promptReady(prompt: string): boolean {
  const length = [...prompt.trim()].length;
  return length >= LIMITS.model.minPromptChars && length <= LIMITS.model.maxPromptChars;
}

/** The request for the input; undefined while a photo is still being checked. Throws why it cannot be sent. */
export function requestFor(f: FormInput): ModelJobInput | undefined {
  const seed = f.seed !== undefined && Number.isFinite(f.seed) ? { seed: f.seed } : {};
  if (f.mode === 'prompt') {
    const input: ModelJobInput = { mode: 'text', prompt: f.prompt.trim(), quality: f.quality, ...seed };
    validateModelRequest(input);
    return input;
  }
  const photos = f.photos.photos;
  validateModelRequest({ mode: 'image', quality: f.quality, imageCount: photos.length, ...seed });
  const blocker = f.photos.blocker();
  if (blocker === 'checking') return undefined;
  return {
    mode: 'image',
    images: photos.map((p) => p.source),
    quality: f.quality,
    ...(f.removeBackground ? { remove_background: true } : {}),
    ...seed,
  };
}

/** The summary kept with the job record (the history card and a reload show it; never the files). */
export function summaryOf(input: ModelJobInput, photos: PhotoListController): JobRecord['summary'] {
  const views = photos.photos.map((p) => p.view).join(',');
  return {
    mode: input.mode,
    quality: input.quality ?? 'standard',
    ...(input.prompt
      ? { prompt: input.prompt }
      : { images: input.images?.length ?? 0, ...(views.replaceAll(',', '') ? { views } : {}) }),
    // The value of a job adopted later (a reload, a history card) says whether it was cut out.
    ...(input.remove_background ? { removeBackground: true } : {}),
  };
}

/** What a finished job was asked, when it can be asked again without the original files (prompt mode). */
export function inputOf(record: JobRecord | undefined): ModelJobInput | undefined {
  const s = record?.summary;
  if (!s || s['mode'] !== 'text' || typeof s['prompt'] !== 'string') return undefined;
  return { mode: 'text', prompt: s['prompt'], quality: (s['quality'] as ModelQuality) ?? 'standard' };
}

/**
 * The request that makes the shown model again: the one last sent from here (`last`), else what the
 * record keeps of it; with the model's seed (the record's, unless given), or for a variation without one.
 */
export function againInput(
  last: ModelJobInput | undefined,
  record: JobRecord | undefined,
  variation: boolean,
  seed = (record?.job as ModelJob | undefined)?.seed,
): ModelJobInput | undefined {
  const input = last ?? inputOf(record);
  if (!input) return undefined;
  const { seed: _old, ...rest } = input;
  return variation || seed === undefined ? rest : { ...rest, seed };
}

/** An answer's URL made absolute against the endpoint, or '' when it is not a link we may render (safeUrl). */
export function absoluteUrl(url: string, endpoint: string): string {
  const base = new URL(endpoint + '/', location.href).href;
  return safeUrl(url, base) === undefined ? '' : new URL(url, base).href;
}
