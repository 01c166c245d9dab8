/**
 * What <model-generator> and its views share: the phases, what each phase says and where it moves
 * focus, and the data each view is drawn from (the views take it as an argument, never the
 * element, so no view module imports the element's).
 */
import type { nothing, TemplateResult } from 'lit';
import type { ModelQuality, ModelStats } from '../../api/index.js';
import type { JobRecord } from '../../jobs/job-store.js';
import type { AnnouncerController } from '../shared/announcer.js';
import type { ErrorPanelController } from '../shared/lazy-panel.js';
import type { LocalizeController } from '../shared/localize.js';
import type { PhotoFitStrings } from '../shared/photo-fit-strings.js';
import type { SharedStrings } from '../shared/strings.js';
import type { ModelResultController } from './model-result.js';
import type { PhotoListController } from './photo-list.js';
import type { ModelGeneratorStrings } from './strings.js';

export type ModelGeneratorStatus =
  'idle' | 'ready' | 'sending' | 'resending' | 'queued' | 'processing' | 'succeeded' | 'failed';
export type ModelGeneratorMode = 'photos' | 'prompt';
export const PHASES: readonly ModelGeneratorStatus[] = [
  'idle',
  'ready',
  'sending',
  'resending',
  'queued',
  'processing',
  'succeeded',
  'failed',
];
export const MODES: readonly ModelGeneratorMode[] = ['photos', 'prompt'];
export type Strings = ModelGeneratorStrings & SharedStrings & PhotoFitStrings;

/** The announcement of each phase (the term's key). */
export const SAY = {
  resending: 'mgResending',
  queued: 'mgQueued',
  processing: 'mgProcessing',
  succeeded: 'mgSucceeded',
} as const satisfies Partial<Record<ModelGeneratorStatus, keyof ModelGeneratorStrings>>;

/** The User Timing measures that are spans of phases (README "Performance timings"); `validate` is the host's own. */
export const SPANS = {
  upload: ['sending', 'resending'],
  queue: ['queued'],
  process: ['processing'],
  'first-frame': ['succeeded'],
} as const satisfies Record<string, readonly ModelGeneratorStatus[]>;

const FOCUS: Partial<Record<ModelGeneratorStatus, string>> = {
  succeeded: '.result-title',
  failed: '.failed [part~="error"] button',
};

/**
 * Where focus goes when the phase becomes `now`: the end of a job moves it to the result, or to
 * what to do next; a finished job shown from the form (a history card, a reload) does not move it.
 */
export function focusAfter(now: ModelGeneratorStatus, before: ModelGeneratorStatus): string | undefined {
  return before === 'idle' || before === 'ready' ? undefined : FOCUS[now];
}

/** Everything the form (before a job) is drawn from, and what its controls do. */
export interface FormView {
  t: LocalizeController<Strings>;
  /** The element is disabled (itself, or a disabled fieldset): every control is off. */
  disabled: boolean;
  /** `ready` when the input is checked. */
  status: ModelGeneratorStatus;
  /** Credits left in the session, when known. */
  credits: number | undefined;
  photos: PhotoListController;
  mode: ModelGeneratorMode;
  prompt: string;
  quality: ModelQuality;
  seed: number | undefined;
  removeBackground: boolean;
  /** Sets the element's input properties, as a script would; resolves once the element has drawn them. */
  set(patch: Partial<Pick<FormView, 'mode' | 'prompt' | 'quality' | 'removeBackground'>>): Promise<unknown>;
  start(): void;
}

/** The model the result view shows: a succeeded job's (its proxy links), or a kept one's (a value set from outside). */
export interface ShownModel {
  /** The GLB download link ('' when there is none to offer). */
  download: string;
  /** The turntable video ('' when none). */
  turntable: string;
  /** The turntable's poster: the reference image (prompt mode) or the first photo's thumbnail. */
  poster: string | undefined;
  seed: number | undefined;
  stats: ModelStats | undefined;
  /** Photos mode: how many photos it was made from. */
  images: number;
}

/** Everything the view of a job (progress, result, failure) is drawn from, and what its buttons do. */
export interface JobView {
  t: LocalizeController<Strings>;
  disabled: boolean;
  status: ModelGeneratorStatus;
  record: JobRecord | undefined;
  /** Once succeeded: the model shown. */
  model: ShownModel | undefined;
  /** The line that says where keeping the result stands (ResultValueController.render). */
  keep: TemplateResult | typeof nothing;
  result: ModelResultController;
  panel: ErrorPanelController;
  /** `ref` callback for the turntable <video> (TurntableController). */
  turntable: (el: Element | undefined) => void;
  announce: AnnouncerController;
  /** Seconds left of a 429 wait the client is sitting out (0: none). */
  waitSeconds: number;
  away: boolean;
  prompt: string;
  canAgain: boolean;
  absolute: (url: string) => string;
  onCancel: () => void;
  onAgain: (variation: boolean) => void;
  onEdit: () => void;
}
