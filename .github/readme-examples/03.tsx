// From README.md, extracted by scripts/readme.mjs: edit the README, not this file.
export {};
import { VideoTo3dUploader } from '@mediakit/elements/react/video-to-3d-uploader.js';

export function Upload({ onScene }: { onScene: (jobId: string) => void }) {
  return <VideoTo3dUploader endpoint="/mediakit" onMkSucceeded={(e) => onScene(e.detail.id)} />;
}
