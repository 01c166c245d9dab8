/**
 * The shape every element's value shares (README "Saving results"), and the checks of a value a
 * site hands in: its common fields and its kept files. Loaded by `ResultValueController` with the
 * first value set from outside, by each element's own value check, and by the lazy keeping code
 * (result-keep.ts).
 */
import type { KeepSource } from '../../client/media-client.js';
import { safeUrl } from '../../internal/safe-url.js';

/** A kept file: a URL that does not expire, its type and size (and the store's or the site's id). */
export interface ResultAsset {
  url: string;
  type: string;
  bytes: number;
  id?: string;
}

/** What every element's value has (shape version 1). */
export interface ResultValueBase {
  /** The shape's version. */
  v: 1;
  kind: 'background-removal' | 'headshot' | 'model' | 'scene';
  /** `running`: a job is on its way (`job` names it); `succeeded`: the result is made. */
  status: 'running' | 'succeeded';
  /** The kept file, or null until it is kept (or where nothing keeps it). */
  asset: ResultAsset | null;
  /** The job's handle (never an upstream id): while it runs, and after it unless the result is kept. */
  job?: string;
  /** When the result was made (ISO 8601). */
  created: string;
}

/** What `assetHandler` is told about the file it is handed. */
export interface AssetInfo {
  /**
   * A unique, descriptive name: what the file is and an id, in safe characters
   * (`model-3f9a0c2b1d.glb`, `turntable-3f9a0c2b1d.mp4`, `reference-3f9a0c2b1d.png`). A job's files
   * share the id, and every browser keeping the same job's file names it the same.
   */
  filename: string;
  type: string;
  kind: ResultValueBase['kind'];
  /**
   * The same for this result's file wherever it is kept (every browser following the same job, a
   * retry, a reload): a job's file is keyed by the job, an image this page made by this page. Store
   * it with the media and look it up before storing: a second editor keeping the same result then
   * answers the media the first one stored, so each file is kept once and both values are equal.
   */
  key: string;
}

/** The site's own storage for results (a CMS media library): takes the file, answers where it now lives. */
export type AssetHandler = (blob: Blob, info: AssetInfo) => Promise<{ id?: string; url: string }>;

/** One file of a result to keep: from a finished job (the proxy streams it), or a blob this page holds. */
export interface KeepFile {
  name: string;
  type: string;
  /** The job file the proxy keeps (`POST /results`), when the result is a job's. */
  job?: Extract<KeepSource, { job: string }>;
  /** The bytes (an `assetHandler` needs them; an image the proxy keeps is sent as they are). */
  blob(): Promise<Blob>;
}

const HANDLE = /^[A-Za-z0-9_-]{16,600}$/;

/** What is wrong with an element's own fields of a value from outside (undefined: nothing). */
export type ValueCheck = (value: Record<string, unknown>) => string | undefined;

/** A value from outside, parsed and checked (its common fields, then the element's own): the value, or what is wrong. */
export function checkValue(json: unknown, kind: string, own: ValueCheck): { value: unknown } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = typeof json === 'string' ? JSON.parse(json) : json;
  } catch {
    return { problem: 'it is not JSON' };
  }
  const problem = checkBase(parsed, kind) ?? own(parsed as Record<string, unknown>);
  return problem ? { problem } : { value: parsed };
}

/** What is wrong with a value's common fields (undefined: nothing). */
export function checkBase(value: unknown, kind: string): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'it is not a JSON object';
  const v = value as Record<string, unknown>;
  if (v['v'] !== 1) return `"v" must be 1 (this version reads shape 1); it is ${JSON.stringify(v['v'])}`;
  if (v['kind'] !== kind) return `"kind" must be "${kind}" for this element; it is ${JSON.stringify(v['kind'])}`;
  if (v['status'] !== 'running' && v['status'] !== 'succeeded')
    return `"status" must be "running" or "succeeded"; it is ${JSON.stringify(v['status'])}`;
  const assetProblem = checkAsset(v['asset'], 'asset');
  if (assetProblem) return assetProblem;
  if (v['job'] !== undefined && (typeof v['job'] !== 'string' || !HANDLE.test(v['job'])))
    return '"job" must be the job handle this library wrote';
  if (v['status'] === 'running' && v['job'] === undefined) return 'a running value needs its "job" handle';
  // A headshot batch is made at once (no job) and its `asset` waits for the user's choice: its kept variants are checked by the element.
  if (v['status'] === 'succeeded' && v['asset'] === null && v['job'] === undefined && kind !== 'headshot')
    return 'a succeeded value needs its kept "asset" or its "job" handle';
  if (typeof v['created'] !== 'string' || Number.isNaN(Date.parse(v['created'])))
    return '"created" must be an ISO 8601 date';
  return undefined;
}

/** What is wrong with an asset (null allowed) at `where` (undefined: nothing). */
export function checkAsset(asset: unknown, where: string, nullable = true): string | undefined {
  if (asset === null && nullable) return undefined;
  if (!asset || typeof asset !== 'object')
    return `"${where}" must be { url, type, bytes }${nullable ? ' or null' : ''}`;
  const a = asset as Record<string, unknown>;
  if (typeof a['url'] !== 'string' || !safeUrl(a['url']) || /^(blob|data):/i.test(a['url']))
    return `"${where}.url" must be an http(s) URL or a path (no blob:, data: or script URL)`;
  if (typeof a['type'] !== 'string' || !/^[a-z]+\/[A-Za-z0-9.+-]+$/.test(a['type']))
    return `"${where}.type" must be a media type such as "image/png"`;
  if (typeof a['bytes'] !== 'number' || !Number.isInteger(a['bytes']) || a['bytes'] < 0)
    return `"${where}.bytes" must be a whole number of bytes`;
  if (a['id'] !== undefined && typeof a['id'] !== 'string') return `"${where}.id" must be a string`;
  return undefined;
}
