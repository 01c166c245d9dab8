/** English strings of <video-to-3d-uploader>. Other languages: src/translations/, loaded on first use. */
import type { Formatter } from '../../internal/format.js';
import type { VideoLimits } from '../shared/limits.js';

export const uploaderStrings = {
  vtTitle: 'Turn a walkthrough video into a 3D scene',
  vtChoose: 'Choose a video',
  vtLimits: (p: VideoLimits, f: Formatter) =>
    `${p.formats} · up to ${f.unit(p.seconds / 60, 'minute')} · up to ${p.pixels}p · up to ${f.bytes(p.bytes)}\nLonger or larger videos are made to fit on this device before the upload.`,
  vtTipsTitle: 'How to film a good walkthrough',
  vtTip1: 'One continuous take, no cuts.',
  vtTip2: 'Walk slowly around the subject, at three heights: low, eye level, high.',
  vtTip3: 'Even light; avoid backlight and moving shadows.',
  vtTip4: 'Keep the subject in view and the camera steady.',
  vtChecking: 'Checking the video…',
  vtReadyTitle: 'Ready to upload',
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
  vtCancelled: 'Upload cancelled. Nothing was charged.',
  vtResending: 'Your upload was interrupted. Sending the video again — you will not be charged twice.',
  vtResendingShort: 'Sending again',
  vtResendValue: (p: { percent: number; sent: string; left: string }, f: Formatter) =>
    `Sending again: ${f.percent(p.percent / 100)}, ${p.sent}${p.left ? ', ' + p.left : ''}`,
  vtQueued: 'Waiting for a free worker',
  vtProcessing: 'Building the 3D scene',
  vtProcessingValue: (p: { percent: number }, f: Formatter) => `Building the 3D scene: ${f.percent(p.percent / 100)}`,
  vtCloseOk: 'You can close this page: the job goes on and shows here when you come back.',
  vtSucceeded: 'Your 3D scene is ready',
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
  vtNotifyTitle: '3D scene ready',
  vtNotifyFailedTitle: '3D scene failed',
};

export type UploaderStrings = typeof uploaderStrings;
