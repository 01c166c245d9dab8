// Payload inside Next.js. The elements call `/mediakit/*` on this same origin; in development
// Next forwards it to the mediakit dev stack (proxy + API sandbox) at MEDIAKIT_DEV_ORIGIN. In
// production the proxy is mounted as a route handler instead (README, "Mounting it").
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withPayload } from '@payloadcms/next/withPayload';

const dirname = path.dirname(fileURLToPath(import.meta.url));
// Turbopack's root must hold node_modules: here, or a folder above (a monorepo; the example apps'
// test shares one node_modules two folders up).
let root = dirname;
while (!existsSync(path.join(root, 'node_modules/next')) && path.dirname(root) !== root) root = path.dirname(root);
const devStack = process.env.MEDIAKIT_DEV_ORIGIN ?? 'http://127.0.0.1:5174';

export default withPayload(
  {
    async rewrites() {
      return [{ source: '/mediakit/:path*', destination: `${devStack}/mediakit/:path*` }];
    },
    turbopack: { root },
    outputFileTracingRoot: root,
  },
  { devBundleServerPackages: false },
);
