// Payload inside Next.js. The elements call `/mediakit/*` on this same origin, answered by the
// proxy's route handler (app/mediakit/[...path]/route.js) with the API at MEDIAKIT_UPSTREAM.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withPayload } from '@payloadcms/next/withPayload';

const dirname = path.dirname(fileURLToPath(import.meta.url));
// Turbopack's root must hold node_modules: here, or a folder above (a monorepo; the example apps'
// test shares one node_modules two folders up).
let root = dirname;
while (!existsSync(path.join(root, 'node_modules/next')) && path.dirname(root) !== root) root = path.dirname(root);

export default withPayload(
  {
    turbopack: { root },
    outputFileTracingRoot: root,
  },
  { devBundleServerPackages: false },
);
