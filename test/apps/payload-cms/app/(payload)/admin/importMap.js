// What `payload generate:importmap` writes for this config (PAYLOAD_CONFIG_PATH=payload.config.js):
// the admin's components by the path the config names them with (relative to
// admin.importMap.baseDir), Payload's own dashboard cards included.
import { CollectionCards } from '@payloadcms/next/rsc';
import { ModelField } from '../../../components/ModelField.jsx';

/** @type import('payload').ImportMap */
export const importMap = {
  '/components/ModelField.jsx#ModelField': ModelField,
  '@payloadcms/next/rsc#CollectionCards': CollectionCards,
};
