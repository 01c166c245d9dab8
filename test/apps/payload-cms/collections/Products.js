// test/apps/payload-cms/collections/Products.js
/**
 * A product with a 3D model. `model` is a JSON field holding <model-generator>'s value (README,
 * "Saving results"): the job's status, the prompt and seed, and the kept files' URLs in the media
 * library. The admin edits it with components/ModelField.jsx.
 *
 * Media a saved model no longer names (Replace, Remove, a deleted product) are deleted once the
 * document is saved, not when the editor clicks: an unsaved change keeps the saved document's
 * files. Two editors may follow one running job on the same product, so documents are not locked.
 * @type {import('payload').CollectionConfig}
 */
export const Products = {
  slug: 'products',
  admin: { useAsTitle: 'title' },
  lockDocuments: false,
  fields: [
    { name: 'title', type: 'text', required: true },
    {
      name: 'model',
      type: 'json',
      admin: { components: { Field: '/components/ModelField.jsx#ModelField' } },
    },
  ],
  hooks: {
    afterChange: [
      /** @param {{ doc: Product, previousDoc?: Product, operation: string, req: PayloadRequest }} args */
      async ({ doc, previousDoc, operation, req }) => {
        if (operation === 'update') await deleteUnused(req, mediaIds(previousDoc?.model), mediaIds(doc.model));
        return doc;
      },
    ],
    afterDelete: [
      /** @param {{ doc: Product, req: PayloadRequest }} args */
      async ({ doc, req }) => deleteUnused(req, mediaIds(doc.model), []),
    ],
  },
};

/**
 * @typedef {import('@mediakit/elements').ModelValue} ModelValue
 * @typedef {{ id: number | string, model?: ModelValue | null }} Product
 * @typedef {{ payload: {
 *   find(o: object): Promise<{ docs: Product[] }>,
 *   delete(o: { collection: string, id: string, req: PayloadRequest }): Promise<unknown>,
 * } }} PayloadRequest
 */

/**
 * The media ids a model value names: the GLB, the turntable and the reference image.
 * @param {ModelValue | null | undefined} model
 * @returns {string[]}
 */
function mediaIds(model) {
  return [model?.asset, model?.turntable, model?.poster].map((a) => a?.id).filter((id) => typeof id === 'string');
}

/**
 * Deletes the media in `before` that `after` no longer names and no other product names.
 * @param {PayloadRequest} req
 * @param {string[]} before
 * @param {string[]} after
 */
async function deleteUnused(req, before, after) {
  const gone = before.filter((id) => !after.includes(id));
  if (!gone.length) return;
  const { docs } = await req.payload.find({ collection: 'products', pagination: false, depth: 0, req });
  const named = new Set(docs.flatMap((d) => mediaIds(d.model)));
  for (const id of gone) {
    if (named.has(id)) continue;
    await req.payload.delete({ collection: 'media', id, req }).catch((/** @type {{ status?: number }} */ err) => {
      // Already gone (another editor's save): nothing to delete.
      if (err?.status !== 404) throw err;
    });
  }
}
