/**
 * The type of one language's strings for all seven elements: every key of every English
 * dictionary, with the same parameters. A language file (`<lang>.ts` beside this one) imports
 * only this type and default-exports a complete `Translation`; a missing or extra key is a type
 * error, and test/components/translations.test.ts fails on it too.
 */
import type { BgStrings } from '../components/bg-tool/strings.js';
import type { BadgeStrings } from '../components/credit-badge/strings.js';
import type { HeadshotStrings } from '../components/headshot-studio/strings.js';
import type { ModelGeneratorStrings } from '../components/model-generator/strings.js';
import type { ErrorStrings } from '../components/shared/error-strings.js';
import type { FieldStrings } from '../components/shared/field-strings.js';
import type { PhotoFitStrings } from '../components/shared/photo-fit-strings.js';
import type { SharedStrings } from '../components/shared/strings.js';
import type { FitStrings } from '../components/video-to-3d-uploader/fit-strings.js';
import type { UploaderStrings } from '../components/video-to-3d-uploader/strings.js';
import type { Formatter } from '../internal/format.js';
import type { ViewerStrings } from '../viewers/shared/viewer-strings.js';

/**
 * Each term of a dictionary: text where English has text, else a function of the same parameters
 * that also gets the locale's formatter (even where English needs none: "40 %" is "40%" or
 * "%40" elsewhere).
 */
type Terms<D> = {
  [K in keyof D]: D[K] extends string
    ? string
    : D[K] extends (p: infer P, ...rest: never[]) => string
      ? (p: P, f: Formatter) => string
      : never;
};

export type Translation = Terms<
  SharedStrings &
    ErrorStrings &
    FieldStrings &
    BgStrings &
    BadgeStrings &
    HeadshotStrings &
    ModelGeneratorStrings &
    PhotoFitStrings &
    UploaderStrings &
    FitStrings &
    ViewerStrings
>;
