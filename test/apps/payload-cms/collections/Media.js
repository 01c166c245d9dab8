// test/apps/payload-cms/collections/Media.js
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { APIError } from 'payload';

const dirname = path.dirname(fileURLToPath(import.meta.url));

/** The uploads under way per result key in this server: a second waits for the first. */
const keeping = new Map();

/**
 * The media library: every file <model-generator> commits (the GLB, its turntable video and the
 * reference image) is uploaded here by the field's assetHandler, and the value keeps its URL.
 * `resultKey` is the element's key for the file (the same in every editor's browser for the same
 * job): unique, so two editors keeping one result store it once (components/ModelField.jsx). Two
 * uploads of one key go one after the other, and the second is refused (409) before its file is
 * written, so no copy is left on disk; the unique index still refuses one from another server.
 * Anyone may read a file (its URL is the model's lasting address); only admins add them.
 * @type {import('payload').CollectionConfig}
 */
export const Media = {
  slug: 'media',
  access: { read: () => true },
  fields: [
    { name: 'alt', type: 'text' },
    { name: 'resultKey', type: 'text', unique: true, index: true, admin: { readOnly: true } },
  ],
  upload: { staticDir: path.resolve(dirname, '../media') },
  hooks: {
    beforeOperation: [
      /** @param {{ args: { data?: { resultKey?: unknown } }, operation: string, req: KeepRequest }} hook */
      async ({ args, operation, req }) => {
        const key = operation === 'create' ? args.data?.resultKey : undefined;
        if (typeof key !== 'string' || !key) return args;
        while (keeping.has(key)) await keeping.get(key);
        /** @type {() => void} */
        let done = () => undefined;
        keeping.set(key, new Promise((resolve) => (done = () => resolve(undefined))));
        const release = () => {
          keeping.delete(key);
          done();
        };
        req.context.releaseKey = release;
        const { totalDocs } = await req.payload.count({ collection: 'media', where: { resultKey: { equals: key } } });
        if (totalDocs) {
          release();
          throw new APIError('This result file is in the media library already.', 409);
        }
        return args;
      },
    ],
    afterOperation: [
      /** @param {{ req: KeepRequest, result: unknown }} hook */
      ({ req, result }) => {
        req.context.releaseKey?.();
        return result;
      },
    ],
    afterError: [
      /** @param {{ req: KeepRequest }} hook */
      ({ req }) => {
        req.context.releaseKey?.();
      },
    ],
  },
};

/**
 * @typedef {{
 *   context: { releaseKey?: () => void },
 *   payload: { count(o: object): Promise<{ totalDocs: number }> },
 * }} KeepRequest
 */
