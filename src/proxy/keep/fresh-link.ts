/**
 * A job's file fetched at a fresh upstream link to be kept. No key goes with it (links are
 * signed); only the upstream's origin and the site's `downloadOrigins` are fetched, so a link
 * cannot point the proxy anywhere else. Every refusal says that nothing was kept.
 */
import type { Ctx } from '../context.js';
import { downloadTarget } from '../edge/files.js';
import { refuse } from '../edge/respond.js';
import { UpstreamFailure } from '../edge/upstream.js';

/** The file at `link`, streaming, or a refusal in words. */
export async function fetchFresh(ctx: Ctx, link: string): Promise<Response> {
  const { upstream, settings } = ctx;
  const resolved = downloadTarget(
    ctx,
    link,
    () => refuse('upstream_error', 'The media service gave a link that cannot be fetched, so nothing was kept.'),
    'nothing was fetched or kept',
  );
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('upstream timeout', 'TimeoutError')),
    settings.upstreamTimeoutMs,
  );
  let response: Response;
  try {
    // The stream goes on when the page leaves: a retry then finds the result kept (or joins it).
    response = await upstream.call(resolved, { redirect: 'follow' }, controller.signal);
  } catch (err) {
    if (!(err instanceof UpstreamFailure)) throw err;
    ctx.log('warn', `keeping a result: ${err.message}`);
    refuse('upstream_error', 'The media service could not be reached, so nothing was kept. Try again in a moment.');
  } finally {
    clearTimeout(timer);
  }
  if (response.ok && response.body) return response;
  await response.body?.cancel().catch(() => undefined);
  if (response.status === 410)
    refuse('expired', 'The provider purged this result before it was kept. Start a new job to make it again.');
  if (response.status === 404) refuse('not_found', 'The provider no longer has this file, so it cannot be kept.');
  ctx.log('warn', `keeping a result: upstream answered ${response.status} for a fresh link`);
  refuse('upstream_error', 'The media service refused the file, so nothing was kept. Try again in a moment.');
}
