import { sql } from '@payloadcms/db-sqlite';

// media.resultKey (collections/Media.js): the element's key of a kept file, unique, so two
// editors keeping the same result store it once.
export async function up({ db }) {
  await db.run(sql`ALTER TABLE \`media\` ADD \`result_key\` text;`);
  await db.run(sql`CREATE UNIQUE INDEX \`media_result_key_idx\` ON \`media\` (\`result_key\`);`);
}

export async function down({ db }) {
  await db.run(sql`DROP INDEX IF EXISTS \`media_result_key_idx\`;`);
  await db.run(sql`ALTER TABLE \`media\` DROP COLUMN \`result_key\`;`);
}
