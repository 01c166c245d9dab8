/**
 * The CDN build's entry (`cdn/mediakit-elements.js`, bundled by scripts/build.mjs): defines every
 * tag and exports the root API, for a page with one `<script type="module">` and nothing installed.
 */
import './define.js';
export * from './index.js';
