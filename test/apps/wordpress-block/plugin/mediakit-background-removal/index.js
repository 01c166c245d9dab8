// The plugin's editor script (block.json "editorScript"): what `wp-scripts build` bundles and
// WordPress loads in the editor's own window (not in the canvas iframe).
import { registerBlockType } from '@wordpress/blocks';
import metadata from './block.json';
import Edit from './edit.js';
import save from './save.js';

// An SVG icon (block.json's "format-image" needs the dashicons font, which only wp-admin loads).
const icon = (
  <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d="M5 4h14a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1zm1 2v9.6l3.3-3.3a1 1 0 0 1 1.4 0l2.3 2.3 3.3-3.3a1 1 0 0 1 1.4 0l.3.3V6H6zm3 4.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3z" />
  </svg>
);

registerBlockType(metadata, { icon, edit: Edit, save });
