// The page's idle uploader rendered on the server (in Node) with @lit-labs/ssr as declarative
// shadow DOM, put into the HTML that Vite built for the browser.
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'vite';
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html } from 'lit';
import '@mediakit/elements/video-to-3d-uploader.js';

// Lit's hydration support must run before lit-element defines LitElement. A bundler that moves
// lit into a chunk shared with the package's lazy parts evaluates that chunk first, so lit and the
// hydration support go into one chunk of their own, in the order the page imports them.
const lit = /[\\/]node_modules[\\/](lit|lit-html|lit-element|@lit|@lit-labs[\\/]ssr-client)[\\/]/;
await build({
  logLevel: 'warn',
  build: { rollupOptions: { output: { manualChunks: (id) => (lit.test(id) ? 'lit' : undefined) } } },
});
const ssr = await collectResult(render(html`<video-to-3d-uploader endpoint="/mediakit"></video-to-3d-uploader>`));
const file = 'dist/index.html';
writeFileSync(file, readFileSync(file, 'utf8').replace('<!--ssr-->', ssr));
console.log(`rendered ${ssr.length} bytes of declarative shadow DOM`);
