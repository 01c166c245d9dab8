// From README.md, extracted by scripts/readme.mjs: edit the README, not this file.
export {};
import { createProxy, toNodeHandler, RedisStore } from '@mediakit/elements/proxy';

export const proxy = createProxy({
  upstream: 'https://api.example-media.com',     // or a fetch function (the sandbox, in-process)
  keys: {                                         // one per capability you use; never leave the server
    video: process.env.MEDIA_KEY_VIDEO,
    headshot: process.env.MEDIA_KEY_HEADSHOT,
    generate: process.env.MEDIA_KEY_GENERATE,
    imageTools: process.env.MEDIA_KEY_IMAGE_TOOLS,
  },
  secret: process.env.MEDIAKIT_SECRET!,           // >= 32 bytes: openssl rand -hex 32
  basePath: '/mediakit',
  async authorize(request) {                      // your login check: who is this, what may they do?
    const user = await sessions.userFrom(request.headers.get('cookie'));
    if (!user) return null;                       // 401: the elements ask the user to sign in
    return { subject: user.id, capabilities: ['generate', 'imageTools'], budget: user.plan.dailyCredits };
  },
});
