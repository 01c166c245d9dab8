/** @type {import('payload').CollectionConfig} */
export const Users = {
  slug: 'users',
  admin: { useAsTitle: 'email' },
  auth: true,
  fields: [],
};
