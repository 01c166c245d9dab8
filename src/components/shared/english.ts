/**
 * The English dictionaries every shipped language translates, named for src/translations'
 * `Translation` type (which sits below the elements and imports none of them). A dictionary added
 * to an element is added here; src/index.ts brings this file along with `Translation`.
 */
import type { BgStrings } from '../bg-tool/strings.js';
import type { BadgeStrings } from '../credit-badge/strings.js';
import type { HeadshotStrings } from '../headshot-studio/strings.js';
import type { ModelGeneratorStrings } from '../model-generator/strings.js';
import type { FitStrings } from '../video-to-3d-uploader/fit-strings.js';
import type { UploaderStrings } from '../video-to-3d-uploader/strings.js';
import type { ViewerStrings } from '../../viewers/shared/viewer-strings.js';
import type { ErrorStrings } from './error-strings.js';
import type { FieldStrings } from './field-strings.js';
import type { JobStrings } from './job-error.js';
import type { PhotoFitStrings } from './photo-fit-strings.js';
import type { SharedStrings } from './strings.js';

declare module '../../translations/translation.js' {
  interface EnglishDictionaries {
    shared: SharedStrings;
    error: ErrorStrings;
    field: FieldStrings;
    job: JobStrings;
    bg: BgStrings;
    badge: BadgeStrings;
    headshot: HeadshotStrings;
    modelGenerator: ModelGeneratorStrings;
    photoFit: PhotoFitStrings;
    uploader: UploaderStrings;
    fit: FitStrings;
    viewer: ViewerStrings;
  }
}
