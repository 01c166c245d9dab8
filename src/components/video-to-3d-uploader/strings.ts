/**
 * English strings of <video-to-3d-uploader> that its first load shows or says (the drop zone, the
 * tips, the phases announced, the notifications); those of the views after `idle` are in
 * view-strings.ts, added by the lazy views module. Other languages: src/translations/, loaded on
 * first use.
 */
import type { Formatter } from '../../internal/format.js';
import type { VideoLimits } from '../shared/limits.js';
import type { ViewStrings } from './view-strings.js';

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
  vtCancelled: 'Upload cancelled. Nothing was charged.',
  vtResending: 'Your upload was interrupted. Sending the video again — you will not be charged twice.',
  vtQueued: 'Waiting for a free worker',
  vtProcessing: 'Building the 3D scene',
  vtSucceeded: 'Your 3D scene is ready',
  vtNotifyTitle: '3D scene ready',
  vtNotifyFailedTitle: '3D scene failed',
};

export type UploaderStrings = typeof uploaderStrings & ViewStrings;
