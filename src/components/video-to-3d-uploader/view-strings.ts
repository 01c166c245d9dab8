/**
 * English strings of <video-to-3d-uploader>'s views after `idle` (checking, ready, the upload, the
 * job, the scene, the outcome, the recent scenes). Added to the English dictionary by the lazy
 * views module (views.ts), not with the page: a visitor who never chooses a video never downloads
 * them. Other languages: src/translations/, beside the uploader's other strings.
 */
import type { Formatter } from '../../internal/format.js';

export const viewStrings = {
  noStorageUpload: 'This browser keeps no data for this page: reloading it will lose the upload.',
  vtFactDuration: 'Length',
  vtFactResolution: 'Frame size',
  vtFactSize: 'File size',
  vtFactFormat: 'Format',
  vtThumbAlt: (p: { name: string }) => `First frame of ${p.name}`,
  vtAdviceTitle: 'Worth a look before you spend credits',
  vtAdviceGoOn: 'These are hints only; you can go on anyway.',
  vtAdviceDark: 'Parts of the video are very dark. Dark scenes come out noisy; film with more light.',
  vtAdviceBright: 'Parts of the video are blown out (pure white). Avoid pointing at windows or lamps.',
  vtAdviceBlurry: 'Some frames look blurry. Move more slowly and keep the camera steady.',
  vtAdviceCut: 'The video seems to jump between shots. Scenes need one continuous take.',
  vtConfirm: (p: { cost: number }, f: Formatter) =>
    `Upload and start (${f.number(p.cost)} ${f.plural(p.cost) === 'one' ? 'credit' : 'credits'})`,
  vtUploading: 'Uploading',
  vtUploadValue: (p: { percent: number; sent: string; left: string }, f: Formatter) =>
    `Uploading: ${f.percent(p.percent / 100)}, ${p.sent}${p.left ? ', ' + p.left : ''}`,
  vtUploadMilestone: (p: { percent: number }, f: Formatter) => `Upload ${f.percent(p.percent / 100)} done`,
  vtResendingShort: 'Sending again',
  vtResendValue: (p: { percent: number; sent: string; left: string }, f: Formatter) =>
    `Sending again: ${f.percent(p.percent / 100)}, ${p.sent}${p.left ? ', ' + p.left : ''}`,
  vtProcessingValue: (p: { percent: number }, f: Formatter) => `Building the 3D scene: ${f.percent(p.percent / 100)}`,
  vtCloseOk: 'You can close this page: the job goes on and shows here when you come back.',
  vtSucceededAway: 'Your 3D scene finished while you were away',
  vtDownloadPly: 'Download .ply',
  vtDownloadZip: 'Download .zip',
  vtStartAnother: 'Start another',
  vtFailed: 'The scene could not be built',
  vtRefunded: (p: { cost: number }, f: Formatter) =>
    `${f.number(p.cost)} ${f.plural(p.cost) === 'one' ? 'credit' : 'credits'} refunded.`,
  vtTryAnother: 'Try again with another video',
  vtExpired: 'This scene was deleted after its retention time. Start a new job to make it again.',
  vtRecent: 'Your recent scenes',
  vtOpen: 'Open',
  vtStatusQueued: 'waiting',
  vtStatusProcessing: 'building',
  vtStatusSucceeded: 'ready',
  vtStatusFailed: 'failed',
  vtStatusExpired: 'deleted',
  vtStatusCreating: 'sending',
  vtCached: 'Shown from this device; no download needed.',
  vtSceneAlt: (p: { name: string }) => (p.name ? `3D scene from ${p.name}` : '3D scene'),
  vtLoadingScene: 'Loading the scene…',
};

export type ViewStrings = typeof viewStrings;
