// From README.md, extracted by scripts/readme.mjs: edit the README, not this file.
export {};
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html } from 'lit';
import '@mediakit/elements/video-to-3d-uploader.js';

const markup = await collectResult(render(html`<video-to-3d-uploader endpoint="/mediakit"></video-to-3d-uploader>`));
