// The page's idle uploader rendered on the server (in Node) with @lit-labs/ssr as declarative
// shadow DOM, put into the HTML that Vite built for the browser.
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'vite';
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html } from 'lit';
import '@mediakit/elements/video-to-3d-uploader.js';

await build({ logLevel: 'warn' });
const ssr = await collectResult(render(html`<video-to-3d-uploader endpoint="/mediakit"></video-to-3d-uploader>`));
const file = 'dist/index.html';
writeFileSync(file, readFileSync(file, 'utf8').replace('<!--ssr-->', ssr));
console.log(`rendered ${ssr.length} bytes of declarative shadow DOM`);
