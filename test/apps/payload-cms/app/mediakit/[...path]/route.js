// test/apps/payload-cms/app/mediakit/[...path]/route.js
// The mediakit proxy in production: a route handler on Payload's own origin. `authorize` is the
// Payload login (the admin's cookie): the subject is the user, the scope the site, so every editor
// of this site follows a job another one started, and nobody signed out gets a session.
import config from '@payload-config';
import { getPayload } from 'payload';
import { createProxy } from '@mediakit/elements/proxy';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

let proxy;
function mediakit() {
  proxy ??= createProxy({
    upstream: String(process.env.MEDIAKIT_UPSTREAM),
    keys: { generate: process.env.MEDIA_KEY_GENERATE },
    secret: String(process.env.MEDIAKIT_SECRET),
    basePath: '/mediakit',
    async authorize(request) {
      const payload = await getPayload({ config });
      const { user } = await payload.auth({ headers: request.headers });
      if (!user) return null;
      return { subject: `payload-user-${user.id}`, scope: 'payload-site', capabilities: ['generate'], budget: 200 };
    },
  });
  return proxy;
}

/** @param {Request} request */
const handle = (request) => mediakit().fetch(request);
export { handle as GET, handle as HEAD, handle as POST, handle as DELETE, handle as OPTIONS };
