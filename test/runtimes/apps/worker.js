// Cloudflare Workers (bundled as wrangler does, compatibility flag nodejs_compat): the proxy is
// built once per isolate from the `env` bindings. The upstream is the media API's URL, as on any
// server (the proxy calls it with `redirect: 'manual'`, since workerd refuses `'error'`). Budgets,
// idempotency and rate limits live in Durable Objects (binding MEDIAKIT_STORE, class
// ProxyStoreObject); kept results go to R2 through its S3 API.
import { S3Client } from '@aws-sdk/client-s3';
import { createProxy } from '@mediakit/elements/proxy';
import { DurableObjectStore } from '@mediakit/elements/proxy/durable-object';
import { s3ResultStore } from '@mediakit/elements/proxy/s3';
import { siteOptions } from './site.js';

export { ProxyStoreObject } from '@mediakit/elements/proxy/durable-object';

let proxy;
function getProxy(env) {
  proxy ??= createProxy({
    ...siteOptions(env),
    store: new DurableObjectStore(env.MEDIAKIT_STORE),
    results: {
      store: s3ResultStore({
        client: new S3Client({
          endpoint: env.R2_ENDPOINT, // https://<account id>.r2.cloudflarestorage.com
          region: 'auto',
          forcePathStyle: true,
          credentials: { accessKeyId: env.R2_ACCESS_KEY_ID, secretAccessKey: env.R2_SECRET_ACCESS_KEY },
          // Checksums only where the S3 API requires them (R2's advice for recent SDK versions; s3rver needs it too).
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }),
        bucket: env.R2_BUCKET,
      }),
    },
  });
  return proxy;
}

export default {
  fetch: (request, env) => getProxy(env).fetch(request),
};
