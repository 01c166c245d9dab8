/**
 * The value of <video-to-3d-uploader> (README "Saving results"): shape 1 of kind `scene`, the
 * common fields and the video's file name. Only the type and the check load with the page; what
 * makes values of jobs (running.ts) loads with the first job, beside it.
 */
import type { ResultValueBase } from '../shared/result-value.js';

/**
 * `{ v: 1, kind: 'scene', status, asset, job?, created, name }`: `asset` is the kept PLY (or null
 * until kept), `job` the job's handle while it runs or while its scene is not kept.
 */
export interface SceneValue extends ResultValueBase {
  kind: 'scene';
  /** The walkthrough video's file name. */
  name: string;
}

/** What is wrong with a scene value's own fields (undefined: nothing). */
export function checkScene(value: Record<string, unknown>): string | undefined {
  return typeof value['name'] === 'string' ? undefined : '"name" must be the video\'s file name (a string)';
}
