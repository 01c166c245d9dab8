/**
 * Request-target hygiene. The proxy builds every upstream URL itself from the route table, so a
 * browser path is only ever *matched*, never forwarded; these checks refuse the shapes that try
 * to smuggle a different path past a matcher anyway (dot segments, empty segments, encoded or
 * backslash separators, encoded dots, NUL and control characters).
 */
const BAD_SEQUENCES: [RegExp, string][] = [
  [/\\/, 'backslashes'],
  [/%(2f|5c)/i, 'encoded slashes'],
  [/%2e/i, 'encoded dots'],
  [/%00|[\x00-\x1f\x7f]/i, 'control characters'],
  [/\/\//, 'empty segments ("//")'],
  [/(^|\/)\.{1,2}(\/|$)/, 'dot segments ("." or "..")'],
];

/** A message naming what is wrong with a raw path (no query), or undefined when it is clean. */
export function pathProblem(path: string): string | undefined {
  for (const [pattern, what] of BAD_SEQUENCES) {
    if (pattern.test(path)) return `The request path contains ${what}; use the endpoint paths exactly as documented.`;
  }
  return undefined;
}

/** The same check on a raw request target (path and query), before any URL parser normalizes it. */
export function targetProblem(target: string): string | undefined {
  if (!target.startsWith('/')) return 'The request target must be an absolute path.';
  return pathProblem(target.split('?')[0]!);
}

/** `/mediakit`: a leading slash, no trailing slash, plain segments. */
export function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, '');
  if (trimmed !== '' && (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed) || pathProblem(trimmed))) {
    throw new TypeError(
      `createProxy: basePath "${basePath}" must look like "/mediakit" (plain path segments, no query).`,
    );
  }
  return trimmed;
}
