// Cloudflare Workers (bundled as wrangler does, compatibility flag nodejs_compat): the proxy is
// built once per isolate from the `env` bindings. The upstream is the media API's URL, as on any
// server: the proxy calls it with `redirect: 'manual'` where workerd refuses `'error'`.
import { createProxy } from '@mediakit/elements/proxy';
import { siteOptions } from './site.js';

let proxy;
function getProxy(env) {
  proxy ??= createProxy(siteOptions(env));
  return proxy;
}

export default {
  fetch: (request, env) => getProxy(env).fetch(request),
};
