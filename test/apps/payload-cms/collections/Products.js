/**
 * A product with a 3D model. `model` is a JSON field holding <model-generator>'s value (README,
 * "Saving results"): the job's status, the prompt and seed, and the kept files' URLs in the media
 * library. The admin edits it with components/ModelField.jsx.
 * @type {import('payload').CollectionConfig}
 */
export const Products = {
  slug: 'products',
  admin: { useAsTitle: 'title' },
  fields: [
    { name: 'title', type: 'text', required: true },
    {
      name: 'model',
      type: 'json',
      admin: { components: { Field: '/components/ModelField.jsx#ModelField' } },
    },
  ],
};
