// Payload 3 with SQLite, written by hand (create-payload-app downloads its templates). Three
// collections: the admins, the media library the generated files are kept in, and products,
// whose `model` is a JSON field edited by <model-generator> in field mode
// (components/ModelField.jsx).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConfig } from 'payload';
import { sqliteAdapter } from '@payloadcms/db-sqlite';
import { Media } from './collections/Media.js';
import { migrations } from './migrations/index.js';
import { Products } from './collections/Products.js';
import { Users } from './collections/Users.js';

const dirname = path.dirname(fileURLToPath(import.meta.url));

export default buildConfig({
  admin: {
    user: Users.slug,
    // Payload's own avatar, not Gravatar's: the admin asks no other host for anything.
    avatar: 'default',
    importMap: { baseDir: dirname },
  },
  collections: [Users, Media, Products],
  secret: process.env.PAYLOAD_SECRET || 'mediakit-example-only-not-a-secret',
  db: sqliteAdapter({
    client: { url: process.env.DATABASE_URL || `file:${path.join(dirname, 'payload.db')}` },
    // `next dev` pushes the schema itself; `next start` runs these on a new database.
    prodMigrations: migrations,
  }),
  telemetry: false,
});
