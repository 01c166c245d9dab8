// From README.md, extracted by scripts/readme.mjs: edit the README, not this file.
export {};
import type {} from '@mediakit/elements/types/react-jsx';
import '@mediakit/elements/video-to-3d-uploader.js';

export const Plain = () => <video-to-3d-uploader endpoint="/mediakit" onmk-succeeded={(e) => console.log(e.detail.id)} />;
