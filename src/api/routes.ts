/**
 * Paths of the route table, built in one place: the client, the proxy and the sandbox all name an
 * endpoint by its route name, so a path is spelled once (capabilities.ts `ROUTES`).
 */
import { ROUTES, type RouteName, type RouteSpec } from './capabilities.js';

const BY_NAME = new Map<RouteName, RouteSpec>(ROUTES.map((r) => [r.name, r]));

/** The route of a name (throws for an unknown name: a programming error). */
export function routeSpec(name: RouteName): RouteSpec {
  const route = BY_NAME.get(name);
  if (!route) throw new TypeError(`unknown route ${String(name)}`);
  return route;
}

/**
 * The path of route `name`, with `id` (URL-encoded) in place of `{job_id}`. Routes with a job id
 * need one; routes without take none.
 */
export function routePath(name: RouteName, id?: string): string {
  const { pattern } = routeSpec(name);
  if (!pattern.includes('{job_id}')) {
    if (id !== undefined) throw new TypeError(`routePath: ${name} takes no job id`);
    return pattern;
  }
  if (typeof id !== 'string' || id === '') throw new TypeError(`routePath: ${name} needs a job id`);
  return pattern.replace('{job_id}', encodeURIComponent(id));
}
