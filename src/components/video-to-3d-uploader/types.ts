/**
 * What <video-to-3d-uploader> and its views share: the phases, what each phase says and where it
 * moves focus, and the data a view is drawn from (the views take it as an argument, never the
 * element, so the element loads them lazily without an import cycle).
 */
import type { UploadProgress } from '../../events/upload-progressed.js';
import type { JobRecord } from '../../jobs/job-store.js';
import type { AnnouncerController } from '../shared/announcer.js';
import type { FileIntakeController } from '../shared/file-intake.js';
import type { ErrorPanelController } from '../shared/lazy-panel.js';
import type { LocalizeController } from '../shared/localize.js';
import type { ResultValueController } from '../shared/result-value.js';
import type { SharedStrings } from '../shared/strings.js';
import type { VideoCheckController } from './check.js';
import type { FitStrings } from './fit-strings.js';
import type { SceneController } from './scene.js';
import type { UploaderStrings } from './strings.js';
import type { SceneValue } from './value.js';

export type { SceneValue } from './value.js';

export type UploaderStatus =
  | 'idle'
  | 'checking'
  | 'ready'
  | 'converting'
  | 'uploading'
  | 'resending'
  | 'queued'
  | 'processing'
  | 'succeeded'
  | 'failed'
  | 'expired';
export const PHASES: readonly UploaderStatus[] = [
  'idle',
  'checking',
  'ready',
  'converting',
  'uploading',
  'resending',
  'queued',
  'processing',
  'succeeded',
  'failed',
  'expired',
];
/** The phases with a running clock (the elapsed time, re-rendered by the page's one ticker). */
export const RUNNING: readonly UploaderStatus[] = ['queued', 'processing'];
export type Strings = UploaderStrings & SharedStrings & FitStrings;

/** The announcement of each phase (the term's key). */
export const SAY = {
  checking: 'vtChecking',
  ready: 'vtReadyTitle',
  converting: 'vtConverting',
  resending: 'vtResending',
  queued: 'vtQueued',
  processing: 'vtProcessing',
  succeeded: 'vtSucceeded',
} as const satisfies Partial<Record<UploaderStatus, keyof Strings>>;

/** The User Timing measures (README "Telemetry") and the phases each lasts through; first-frame ends at the viewer's first frame. */
export const TIMED = {
  validate: ['checking'],
  convert: ['converting'],
  upload: ['uploading', 'resending'],
  queue: ['queued'],
  process: ['processing'],
  'first-frame': ['succeeded'],
} satisfies Record<string, UploaderStatus[]>;

/** Focus follows the end of a phase: to the result, or to what to do next. */
export const FOCUS: Partial<Record<UploaderStatus, string>> = {
  ready: '[part~="primary-button"]',
  succeeded: '.result-title',
  failed: '.failed button',
  expired: '.expired button',
};

/** Everything a phase view is drawn from, and what its buttons do. */
export interface UploaderView {
  t: LocalizeController<Strings>;
  status: UploaderStatus;
  /** The video chosen and what its checks found. */
  video: VideoCheckController;
  /** The job shown, and the bytes of its upload (or resend) in flight. */
  record: JobRecord | undefined;
  upload: UploadProgress | undefined;
  /** Seconds left of a 429 wait (0: none). */
  waitSeconds: number;
  /** The scene of a finished job or of a kept value (there is one once either is shown). */
  scene: SceneController | undefined;
  /** The element's value (its kept PLY is what the download link names) and where keeping it stands. */
  results: ResultValueController<SceneValue>;
  /** The confirm button is off (disabled element, too few credits). */
  confirmOff: boolean;
  intake: FileIntakeController;
  panel: ErrorPanelController;
  announce: AnnouncerController;
  start(): void;
  cancel(): void;
  reset(): void;
  /** Failed: start over and open the file picker. */
  tryAnother(): void;
  retryScene(): void;
  /** Sets the range to send of a video over 3 minutes (`moved`: the end the user moved). */
  setTrim(start: number, end: number, moved: 'start' | 'end'): void;
}
