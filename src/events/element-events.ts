/**
 * Each product element's events with its own details. `mk-succeeded` and `mk-failed` are one name
 * across the family (README "The family's words"), so the page-wide map (GlobalEventHandlersEventMap,
 * what `document.addEventListener` gets) can only promise what every element sends: the
 * `idempotencyKey`, the rest optional. A listener on one element knows which element it listens to:
 * `addEventListener` on the element's class, the React wrappers' `onMk…` props and the JSX, Svelte
 * and Vue typings (scripts/frameworks.mjs) read that element's map, so `<bg-tool>`'s success has its
 * image and the uploader's has the job's id, with no optional field to test.
 */
import type { JobEventDetail, ModelResult } from './job-events.js';
import type {
  FailedDetail,
  FailedEvent,
  HeadshotsSucceededDetail,
  ImageSucceededDetail,
  JobFailedDetail,
  SucceededEvent,
} from './outcome.js';

/** `<video-to-3d-uploader>`'s `mk-succeeded`: the job's record (its `id`, `job.output` with the download links, `whileAway`). */
export type SceneSucceededDetail = JobEventDetail & { kind: 'video' };

/** `<model-generator>`'s `mk-succeeded`: the job's record and the model it made (a succeeded model job has its output). */
export type ModelSucceededDetail = JobEventDetail & { kind: 'model'; model: ModelResult };

/** `<bg-tool>`'s events: its success carries the image. */
export interface BgToolEventMap extends HTMLElementEventMap {
  'mk-succeeded': SucceededEvent<ImageSucceededDetail>;
  'mk-failed': FailedEvent<FailedDetail>;
}

/** `<headshot-studio>`'s events: its success carries the batch. */
export interface HeadshotStudioEventMap extends HTMLElementEventMap {
  'mk-succeeded': SucceededEvent<HeadshotsSucceededDetail>;
  'mk-failed': FailedEvent<FailedDetail>;
}

/** `<model-generator>`'s events: its success carries the job's record and the model; a job's failure its record. */
export interface ModelGeneratorEventMap extends HTMLElementEventMap {
  'mk-succeeded': SucceededEvent<ModelSucceededDetail>;
  'mk-failed': FailedEvent<JobFailedDetail>;
}

/** `<video-to-3d-uploader>`'s events: its success carries the job's record; a job's failure its record. */
export interface VideoTo3dUploaderEventMap extends HTMLElementEventMap {
  'mk-succeeded': SucceededEvent<SceneSucceededDetail>;
  'mk-failed': FailedEvent<JobFailedDetail>;
}

/** The product elements' maps by tag. */
export interface MkElementEventMaps {
  'bg-tool': BgToolEventMap;
  'headshot-studio': HeadshotStudioEventMap;
  'model-generator': ModelGeneratorEventMap;
  'video-to-3d-uploader': VideoTo3dUploaderEventMap;
}

/**
 * The events `<tag>` sends, each with the detail that element gives it: the element's own map, or
 * the page-wide one for an element whose `mk-*` events are its alone (the viewers, the badge).
 */
export type ElementEventMap<Tag extends string> = Tag extends keyof MkElementEventMaps
  ? MkElementEventMaps[Tag]
  : HTMLElementEventMap;
