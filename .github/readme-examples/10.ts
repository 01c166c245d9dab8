// From README.md, extracted by scripts/readme.mjs: edit the README, not this file.
export {};
import { createProxy, fileResultStore, RedisStore } from '@mediakit/elements/proxy';

const proxy = createProxy({
  upstream: 'https://api.example-media.com',
  keys: { video: process.env.VIDEO_KEY, generate: process.env.GENERATE_KEY },
  secret: process.env.MEDIAKIT_SECRET!,
  authorize,
  store: new RedisStore(redis), // quotas live here: use Redis when results must be counted across restarts
  results: {
    store: fileResultStore({ dir: '/var/lib/mediakit/results' }),
    access: 'public', // or 'owner', or (request, owner) => boolean
    quotaBytes: 500 * 1000 * 1000, // per subject; default 1 GiB
    maxImageBytes: 25 * 1024 * 1024, // images a page keeps; default 25 MiB
  },
});
