import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dirname = path.dirname(fileURLToPath(import.meta.url));

/**
 * The media library: every file <model-generator> commits (the GLB, its turntable video and the
 * reference image) is uploaded here by the field's assetHandler, and the value keeps its URL.
 * Anyone may read a file (its URL is the model's lasting address); only admins add them.
 * @type {import('payload').CollectionConfig}
 */
export const Media = {
  slug: 'media',
  access: { read: () => true },
  fields: [{ name: 'alt', type: 'text' }],
  upload: { staticDir: path.resolve(dirname, '../media') },
};
