/** English strings of <bg-tool>. Other languages: src/translations/, loaded on first use. */
import type { Formatter } from '../../internal/format.js';
import type { ImageLimits } from '../shared/limits.js';

const credits = (n: number, f: Formatter) => `${f.number(n)} ${f.plural(n) === 'one' ? 'credit' : 'credits'}`;

export const bgStrings = {
  bgTitle: 'Remove the background',
  bgChoose: 'Choose an image',
  bgLimits: (p: ImageLimits) => `${p.formats}\nLarger photos are made smaller on this device.`,
  bgUrlLabel: 'Or an image address (URL)',
  bgUrlUse: 'Use this address',
  bgUrlInvalid: 'Enter an address starting with https:// or http://.',
  bgChecking: 'Checking the image…',
  bgBeforeAlt: 'Original image',
  bgAfterAlt: 'Image without background',
  bgFromUrl: 'Image from an address',
  bgNoPreview: 'No preview: this browser could not load the address.',
  bgOptions: 'Options',
  bgSize: 'Size',
  bgSize_auto: (p: { megapixels: number }, f: Formatter) => `Automatic (up to ${f.number(p.megapixels)} MP)`,
  bgSize_preview: (p: { megapixels: number }, f: Formatter) => `Preview (up to ${f.number(p.megapixels)} MP)`,
  bgSize_full: 'Full size',
  bgFormat: 'Format',
  bgFormat_png: 'PNG with transparency',
  bgFormat_jpg: 'JPG',
  bgBackground: 'Background',
  bgNone: 'None (transparent)',
  bgColour: 'Background colour',
  bgJpgWhite: 'JPG has no transparency: without a colour the background becomes white.',
  bgCrop: 'Crop to the subject',
  bgRun: (p: { cost: number }, f: Formatter) => `Remove background (${credits(p.cost, f)})`,
  bgRunAgain: (p: { cost: number }, f: Formatter) => `Run again with these options (${credits(p.cost, f)})`,
  bgRunAgainNote: 'Running again is a new charge; the result above stays until the new one is in.',
  bgWorking: 'Removing the background…',
  bgDone: 'Background removed',
  bgDoneSay: (p: { width: number; height: number; format: string; bytes: number }, f: Formatter) =>
    `Background removed: ${f.number(p.width)}×${f.number(p.height)} ${p.format}, ${f.bytes(p.bytes)}`,
  bgCompare: 'Before and after',
  bgSlider: 'Compare before and after',
  bgSliderValue: (p: { percent: number }, f: Formatter) => `${f.percent((100 - p.percent) / 100)} of the result shown`,
  bgSliderHint: 'Drag the handle, or use the arrow keys, Home and End.',
  bgBefore: 'Before',
  bgAfter: 'After',
  bgFactSize: 'File size',
  bgFactDims: 'Dimensions',
  bgFactFormat: 'Format',
  bgFactCharged: 'Charged',
  bgDownload: 'Download',
  bgCopy: 'Copy image',
  bgCopied: 'Image copied to the clipboard',
  bgCopyFailed: 'This browser did not allow copying the image. Download it instead.',
  bgNewImage: 'Use another image',
  bgRequired: 'Remove the background of an image first.',
};

export type BgStrings = typeof bgStrings;
