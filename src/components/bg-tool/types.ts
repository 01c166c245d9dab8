/**
 * What <bg-tool> and its modules share: the phases and where each one moves focus, the result, the
 * options, and the data the views are drawn from. The views and the request take these as
 * arguments, never the element, so nothing in the folder imports the element's class file.
 */
import type { ImageToolFormat, ImageToolSize } from '../../api/index.js';
import type { FileIntakeController } from '../shared/file-intake.js';
import type { ErrorPanelController } from '../shared/lazy-panel.js';
import type { LocalizeController } from '../shared/localize.js';
import type { PhotoFitStrings } from '../shared/photo-fit-strings.js';
import type { SharedStrings } from '../shared/strings.js';
import type { CompareController } from './compare.js';
import type { BgImage } from './image.js';
import type { BgStrings } from './strings.js';
import type { UrlField } from './url-field.js';

export type BgToolStatus = 'idle' | 'ready' | 'sending' | 'succeeded' | 'failed';
export const PHASES: readonly BgToolStatus[] = ['idle', 'ready', 'sending', 'succeeded', 'failed'];
export type Strings = BgStrings & SharedStrings & PhotoFitStrings;

/** A result shown: fresh from the service, or restored from a value's kept image. */
export interface BgToolResult {
  blob: Blob;
  /** An object URL of `blob`, revoked when another result replaces it. */
  url: string;
  width: number;
  height: number;
  format: ImageToolFormat;
  charged: number;
}

/**
 * A result on screen: one with its bytes, or a value's kept picture shown by its URL alone (its
 * bytes were not the declared image, or could not be read without cookies): no file, no copy.
 */
export type ShownResult = BgToolResult | PictureOnly;

/** A value's kept picture shown by its URL: `bytes` is what the value says of its size. */
export interface PictureOnly extends Omit<BgToolResult, 'blob'> {
  blob?: undefined;
  bytes: number;
}

/** A fresh result also knows what the session has left (X-Credits-Remaining). */
export interface FreshResult extends BgToolResult {
  remaining: number;
}

/** Focus follows the end of a request (to the result, or to what to do next) and a new image turning ready. */
export const FOCUS: Partial<Record<BgToolStatus, string>> = {
  ready: '[part~="primary-button"]',
  succeeded: '.result-title',
  failed: '[part~="error"] button, [part~="error"] a, [part~="primary-button"]',
};

/** Where focus goes as `now` begins: only at the end of a request and as a new image turns ready; never on a reset. */
export function focusFor(now: BgToolStatus, before: BgToolStatus): string | undefined {
  return before === 'sending' || (now === 'ready' && before === 'idle') ? FOCUS[now] : undefined;
}

/** The spec's parameters of an image-tool request, as the element's properties hold them. */
export interface BgOptions {
  size: ImageToolSize;
  format: ImageToolFormat;
  /** `none` or a colour. */
  bgColor: string;
  crop: boolean;
}

/** Everything the views are drawn from, and what their controls do. */
export interface BgView extends BgOptions {
  t: LocalizeController<Strings>;
  image: BgImage;
  intake: FileIntakeController;
  compare: CompareController;
  panel: ErrorPanelController;
  result: ShownResult | undefined;
  /** A value's kept image is being fetched. */
  restoring: boolean;
  /** The keeping status line (`part="keep"`). */
  keepLine: unknown;
  /** Why the image was refused, the request failed or the kept image is gone. */
  error: unknown;
  /** What a value whose kept image is gone still says (its dimensions, format and charge). */
  savedFacts: string | undefined;
  /** Seconds left of a 429 wait (0: none). */
  waitSeconds: number;
  /** A request is out. */
  busy: boolean;
  /** The element (or its fieldset) is disabled. */
  disabled: boolean;
  /** Too few credits for a run. */
  short: boolean;
  /** The colour the colour input shows (the last one chosen, also while "none" is ticked). */
  colour: string;
  /** The address field: what it holds, and whether it was refused. */
  url: UrlField;
  /** What the last copy said. */
  notice: string;
  /** The download's file name (the form value's). */
  fileName: string;
  topUpHref: string | undefined;
  start(): void;
  /** Fetches a value's kept image again (after that failed); only while a value has no image shown. */
  restore: (() => void) | undefined;
  /** The user starts over ("use another image"): the result, if any, is removed. */
  reset(): void;
  copy(): void;
  /** Opens the file picker. */
  choose(): void;
  /** Uses the address in the field. */
  useUrl(): void;
  setOptions(options: Partial<BgOptions>): void;
}
