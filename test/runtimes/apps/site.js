// The site's part of every recipe: where the media API is, the site's keys and secret, and its
// login check. Here the login check reads the test's cookies (`user`, `budget`); a site reads its
// own session. Values come from the runtime's environment (Workers: the `env` bindings).

/** @param {Record<string, string | undefined>} env */
export function siteOptions(env) {
  return {
    upstream: env.MEDIA_API_URL,
    keys: JSON.parse(env.MEDIA_KEYS ?? '{}'),
    secret: env.MEDIAKIT_SECRET,
    basePath: '/mediakit',
    /** @param {Request} request */
    authorize(request) {
      const cookies = Object.fromEntries(
        (request.headers.get('cookie') ?? '')
          .split(/;\s*/)
          .filter(Boolean)
          .map((c) => c.split('=')),
      );
      if (!cookies.user) return null;
      return { subject: decodeURIComponent(cookies.user), budget: Number(cookies.budget ?? 1000) };
    },
    log: (event) => console.error(`[mediakit] ${event.level}: ${event.message}`),
  };
}
