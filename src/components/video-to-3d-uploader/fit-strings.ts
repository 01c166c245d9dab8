/**
 * English strings of <video-to-3d-uploader>'s conversion (a video made to fit). Added to
 * the English dictionary by the lazy views module (views.ts), not with the page: the page's first
 * load does not grow. Other languages: src/translations/, beside the uploader's other strings.
 */
import type { Formatter } from '../../internal/format.js';

const credits = (n: number, f: Formatter) => `${f.number(n)} ${f.plural(n) === 'one' ? 'credit' : 'credits'}`;

export const fitStrings = {
  vtFitTitle: 'This video will be made to fit before the upload',
  vtFitScale: (p: { from: string; to: string }) => `Frame size: ${p.from} scaled to ${p.to} (at most 1080p).`,
  vtFitTrim: (p: { length: string }) => `Length: ${p.length}; at most 3 minutes are sent. Choose the part below.`,
  vtFitSize: (p: { max: string }) => `Re-encoded to stay under ${p.max}.`,
  vtFitAudio: 'The sound is removed: a 3D scene does not use it.',
  vtFitOutput: 'Converted on this device to H.264 MP4, at no cost.',
  vtTrimLegend: 'Part to send',
  vtTrimStart: 'Start',
  vtTrimEnd: 'End',
  vtTrimSummary: (p: { start: string; end: string; length: string }) => `From ${p.start} to ${p.end} (${p.length})`,
  vtConvertConfirm: (p: { cost: number }, f: Formatter) => `Convert and upload (${credits(p.cost, f)})`,
  vtConverting: 'Converting the video',
  vtConvertValue: (p: { percent: number; frames: number; total: number }, f: Formatter) =>
    `Converting: ${f.percent(p.percent / 100)}, frame ${f.number(p.frames)} of ${f.number(p.total)}`,
  vtConvertFrames: (p: { frames: number; total: number }, f: Formatter) =>
    `Frame ${f.number(p.frames)} of ${f.number(p.total)}`,
  vtConvertMilestone: (p: { percent: number }, f: Formatter) => `Converted ${f.percent(p.percent / 100)}`,
  vtConvertFree: 'Converting runs on this device and costs nothing. Cancel at any time.',
  vtConvertCancelled: 'Conversion cancelled. Nothing was charged.',
  vtConvertInterrupted: (p: { name: string }) =>
    `The page was reloaded while ${p.name} was being converted, so the conversion stopped. Choose the video again to start it again.`,
  vtConvertRestarted: (p: { name: string }) =>
    `The page was reloaded while ${p.name} was being converted: converting it again from the copy on this device.`,
  vtSkippedChecks: (p: { codec: string }) => `This browser cannot preview ${p.codec}: the checks were skipped.`,
  vtCannotDecode: (p: { codec: string }) =>
    `This browser cannot read ${p.codec || 'this'} video, so it cannot make it fit.`,
  vtCannotEncode: 'This browser cannot encode H.264, so it cannot make the video fit.',
  vtDeviceAdvice: 'Record at 1080p, for 3 minutes at most, or export the video at 1080p.',
  vtDeviceAdviceIphone: 'On an iPhone: Settings > Camera > Formats > Most Compatible, and Record Video at 1080p.',
};

export type FitStrings = typeof fitStrings;
