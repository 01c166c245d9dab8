/** English strings of <headshot-studio>. Other languages: src/translations/, loaded on first use. */
import type { Formatter } from '../../internal/format.js';
import type { ImageLimits } from '../shared/limits.js';

const credits = (n: number, f: Formatter) => `${f.number(n)} ${f.plural(n) === 'one' ? 'credit' : 'credits'}`;

export const headshotStrings = {
  hsTitle: 'Professional headshots from a selfie',
  hsChoose: 'Choose a photo',
  hsCamera: 'Use the camera',
  hsLimits: (p: ImageLimits) =>
    `${p.formats}\nFace the camera, even light, head and shoulders in view. Larger photos are made smaller on this device.`,
  hsCameraStarting: 'Starting the camera…',
  hsCameraLabel: 'Camera preview. Put your head and shoulders inside the outline.',
  hsCameraGuide: 'Head and shoulders inside the outline, face the camera.',
  hsCapture: 'Take the photo',
  hsCameraCancel: 'Close the camera',
  hsCameraDenied: 'The camera could not be opened. Allow it in the browser, or choose a photo instead.',
  hsCameraFallback: 'This browser cannot show a camera preview here; the phone camera opens instead.',
  hsCaptured: 'Photo taken',
  hsChecking: 'Checking the photo…',
  hsPhotoAlt: 'Your photo',
  hsAdviceTitle: 'Worth a look before you spend credits',
  hsAdviceGoOn: 'These are hints only; you can go on anyway.',
  hsAdviceDark: 'The photo is dark. Face a window or a lamp and take it again.',
  hsAdviceUneven: 'One side of the face is much darker than the other. Turn towards the light so it falls evenly.',
  hsAdviceSmall: (p: { width: number; height: number; px: number }, f: Formatter) =>
    `The photo is small (${f.number(p.width)}×${f.number(p.height)}). Use one at least ${f.number(p.px)} pixels on its shorter side for sharp results.`,
  hsAdviceBlurry: 'The photo looks blurry. Hold still, clean the lens and take it again.',
  hsStyleLegend: 'Style',
  hsStyle_corporate: 'Corporate',
  hsStyleDesc_corporate: 'Charcoal suit, neutral grey studio backdrop.',
  'hsStyle_business-casual': 'Business casual',
  'hsStyleDesc_business-casual': 'Smart-casual outfit, bright office with a soft background.',
  hsStyle_bewerbung: 'Bewerbung',
  hsStyleDesc_bewerbung: 'Formal German application photo: blazer, plain light background, centred and frontal.',
  hsStyle_creative: 'Creative',
  hsStyleDesc_creative: 'Warm earth tones, relaxed editorial look.',
  hsStyleNote: 'You stay who you are: the style changes outfit, light and backdrop, never the person.',
  hsSlotsLegend: 'Which versions to make',
  hsSlot0: 'Exact style template',
  hsSlot1: 'Warmer three-quarter angle',
  hsSlot2: 'Alternate outfit colour',
  hsSlot3: 'Tighter crop, neutral expression',
  hsSlotsNone: 'Choose at least one version.',
  hsPriceNote: 'Only versions that succeed are charged.',
  hsGenerate: (p: { count: number; cost: number }, f: Formatter) =>
    `Make ${f.number(p.count)} ${f.plural(p.count) === 'one' ? 'headshot' : 'headshots'} (${credits(p.cost, f)})`,
  hsWorking: 'Making your headshots. This takes a few seconds.',
  hsWorkingSlot: 'Making this one…',
  hsResultsTitle: 'Your headshots',
  hsReady: (p: { ok: number; total: number }, f: Formatter) =>
    p.ok === p.total
      ? `${f.number(p.ok)} ${f.plural(p.ok) === 'one' ? 'headshot is' : 'headshots are'} ready`
      : `${f.number(p.ok)} of ${f.number(p.total)} headshots are ready`,
  hsCharged: (p: { charged: number; left: number }, f: Formatter) =>
    `Charged ${credits(p.charged, f)} · ${credits(p.left, f)} left`,
  hsChargedTotal: (p: { charged: number }, f: Formatter) => `Charged for this photo so far: ${credits(p.charged, f)}`,
  hsAllFailed: 'None of the headshots could be made.',
  hsAllFailedHint: 'Nothing was charged. Try again, ideally with a front-facing, evenly lit selfie.',
  hsSlotFailed: 'This one failed (not charged)',
  hsSlotFailedHint: 'The service could not make this version. Retry just this one: it is charged only if it works.',
  hsRetryOne: (p: { cost: number }, f: Formatter) => `Retry this one (${credits(p.cost, f)})`,
  hsSlotImgAlt: (p: { slot: string; style: string }) => `Headshot, ${p.style}: ${p.slot}`,
  hsDownloadOne: 'Download PNG',
  hsDownloadAll: 'Download all (zip)',
  hsChooseThis: 'Use this one',
  hsChosen: 'Chosen',
  hsChosenSay: (p: { slot: string }) => `“${p.slot}” chosen`,
  hsMakeMore: 'Change style or versions',
  hsNewPhoto: 'Use another photo',
  hsMakeMoreNote: 'Making them again is a new charge.',
  hsRequired: 'Make and choose a headshot first.',
};

export type HeadshotStrings = typeof headshotStrings;
