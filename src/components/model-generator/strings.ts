/** English strings of <model-generator>. Other languages: src/translations/, loaded on first use. */
import type { Formatter } from '../../internal/format.js';
import type { ImageLimits } from '../shared/limits.js';

const credits = (n: number, f: Formatter) => `${f.number(n)} ${f.plural(n) === 'one' ? 'credit' : 'credits'}`;

export const modelGeneratorStrings = {
  mgTitle: 'Make a 3D model',
  mgModes: 'What to start from',
  mgModePhotos: 'Photos',
  mgModePrompt: 'A description',
  // Photos
  mgChoosePhotos: 'Add photos',
  mgCamera: 'Take a photo',
  mgDropHere: 'or drop them here',
  mgPhotoLimits: (p: ImageLimits, f: Formatter) =>
    `${f.number(p.minImages)} to ${f.number(p.maxImages)} photos · ${p.formats}\nLarger photos are made smaller on this device.`,
  mgAdviceTitle: 'What works best',
  mgAdvice1: 'One object, centred, on a clean plain background.',
  mgAdvice2: (p: { px: number }, f: Formatter) => `At least ${f.number(p.px)} px on the shorter side.`,
  mgAdvice3: 'Two or more photos must show the same object from different sides (front, back, left, right, top).',
  mgPhotosLabel: (p: { count: number; max: number }) => `Photos (${p.count} of ${p.max})`,
  mgPhotoAlt: (p: { n: number; name: string }) => `Photo ${p.n}: ${p.name}`,
  mgView: 'View',
  mgViewNone: 'not set',
  mgViewFront: 'front',
  mgViewBack: 'back',
  mgViewLeft: 'left',
  mgViewRight: 'right',
  mgViewTop: 'top',
  mgMoveEarlier: (p: { n: number }) => `Move photo ${p.n} earlier`,
  mgMoveLater: (p: { n: number }) => `Move photo ${p.n} later`,
  mgRemove: (p: { n: number }) => `Remove photo ${p.n}`,
  mgMoved: (p: { n: number; to: number }) => `Photo ${p.n} is now photo ${p.to}.`,
  mgRemoved: (p: { name: string }) => `${p.name} removed.`,
  mgChecking: 'Checking…',
  mgSmall: (p: { width: number; height: number; px: number }, f: Formatter) =>
    `${f.number(p.width)}×${f.number(p.height)}: small; ${f.number(p.px)} px or more works best.`,
  // The limit as the spec states it ("12 MB", binary megabytes), not re-rounded from bytes.
  mgRemoveBackground: 'Remove the background first',
  mgRemoveBackgroundHint: 'Each photo is cut out before the model is made; helps with busy backgrounds.',
  // Prompt
  mgPromptLabel: 'Describe the object',
  mgPromptHint: (p: { min: number; max: number }, f: Formatter) =>
    `${f.number(p.min)} to ${f.number(p.max)} characters, for example “a weathered bronze statue of a fox”.`,
  mgCounter: (p: { length: number; max: number }, f: Formatter) => `${f.number(p.length)} / ${f.number(p.max)}`,
  mgCharsLeft: (p: { left: number }, f: Formatter) =>
    p.left >= 0
      ? `${f.number(p.left)} ${f.plural(p.left) === 'one' ? 'character' : 'characters'} left`
      : `${f.number(-p.left)} ${f.plural(-p.left) === 'one' ? 'character' : 'characters'} too many`,
  // Quality, seed, cost
  mgQuality: 'Quality',
  mgQualityFast: 'Fast',
  mgQualityStandard: 'Standard',
  mgQualityHigh: 'High',
  mgQualityFacts: (p: { texture: number; steps: number; seconds: number }, f: Formatter) =>
    `${f.number(p.texture)}\u00a0px textures · ${f.number(p.steps)}\u00a0sampling steps · about ${f.unit(p.seconds, 'second')}`,
  mgSeedPinned: (p: { seed: number }) => `Seed ${p.seed} (fixed by the page)`,
  mgGenerate: (p: { cost: number }, f: Formatter) => `Make the model (${credits(p.cost, f)})`,
  // Progress
  mgCreating: 'Sending…',
  mgResending: 'The answer was lost. Sending again — you will not be charged twice.',
  mgQueued: 'Waiting for a free worker',
  mgProcessing: 'Making the 3D model',
  mgProcessingValue: (p: { percent: number }, f: Formatter) => `Making the 3D model: ${f.percent(p.percent / 100)}`,
  mgMilestone: (p: { percent: number }, f: Formatter) => `Model ${f.percent(p.percent / 100)} done`,
  mgReference: 'Reference image',
  mgReferenceAlt: (p: { prompt: string }) => `Reference image rendered for “${p.prompt}”`,
  mgReferenceNote: 'The model is built from this image.',
  mgCloseOk: 'You can close this page: the job goes on and shows here when you come back.',
  // Result
  mgSucceeded: 'Your 3D model is ready',
  mgSucceededAway: 'Your 3D model finished while you were away',
  mgLoadingModel: 'Loading the model…',
  mgModelAlt: (p: { what: string }) => `3D model of ${p.what}`,
  mgModelFromPhotos: (p: { count: number }, f: Formatter) =>
    f.plural(p.count) === 'one' ? 'the object in your photo' : `the object in your ${f.number(p.count)} photos`,
  mgStats: 'About this model',
  mgStatTriangles: 'Triangles',
  mgStatVertices: 'Vertices',
  mgStatMeshes: 'Meshes',
  mgStatMaterials: 'Materials',
  mgStatTextures: 'Textures',
  mgStatMaxTexture: 'Largest texture',
  mgStatBytes: 'File size',
  mgStatAnimations: 'Animations',
  mgPixels: (p: { n: number }, f: Formatter) => `${f.number(p.n)}\u00a0px`,
  mgTurntable: 'Turntable',
  mgTurntableLabel: 'Turntable video of the model',
  mgSeed: 'Seed',
  mgSeedHint: '“Same again” reuses this seed; “Variation” draws a new one.',
  mgDownload: 'Download GLB',
  mgSameAgain: (p: { cost: number }, f: Formatter) => `Same again (${credits(p.cost, f)})`,
  mgVariation: (p: { cost: number }, f: Formatter) => `Variation (${credits(p.cost, f)})`,
  mgEdit: 'Change the input',
  mgNew: 'Start over',
  mgCached: 'Shown from this device; no download needed.',
  mgFailed: 'The model could not be made',
  mgFailedHint: 'Trying again with a new seed often works; or change the photos or the description.',
  mgTryAgain: (p: { cost: number }, f: Formatter) => `Try again (${credits(p.cost, f)})`,
  mgRefunded: (p: { cost: number }, f: Formatter) => `${credits(p.cost, f)} refunded.`,
  mgCancelled: 'Cancelled. Nothing was charged.',
  // History
  mgRecent: 'Your recent models',
  mgShow: 'Show',
  mgShowLabel: (p: { what: string }) => `Show ${p.what}`,
  mgPhotoJob: (p: { count: number }, f: Formatter) =>
    `${f.number(p.count)} ${f.plural(p.count) === 'one' ? 'photo' : 'photos'}`,
  mgStatusQueued: 'waiting',
  mgStatusProcessing: 'in progress',
  mgStatusSucceeded: 'ready',
  mgStatusFailed: 'failed',
  mgStatusExpired: 'deleted',
  mgStatusCreating: 'sending',
  mgNotifyTitle: '3D model ready',
  mgNotifyFailedTitle: '3D model failed',
};

export type ModelGeneratorStrings = typeof modelGeneratorStrings;
